#include "redis/stores/backends.hpp"

#include "redis/stores/compat_redisson_backend.hpp"
#include "redis/stores/compat_setnx_backend.hpp"
#include "redis/stores/lock_backend.hpp"
#include "redis/stores/semaphore_backend.hpp"

namespace dlock::redis {

std::unique_ptr<lock::Backend> backend_for(const Deployment& deployment, int64_t permits) {
    if (permits > 0)
        return std::make_unique<SemaphoreBackend>(deployment, permits);
    return std::make_unique<LockBackend>(deployment);
}

lock::BackendFactory backend_factory_for(const Deployment& deployment, int64_t permits) {
    if (permits > 0)
        return connecting_factory<SemaphoreBackend>(deployment, permits);
    return backend_factory(deployment);
}

std::unique_ptr<lock::Backend> compat_backend_for(const Deployment& deployment,
                                                  lock::CompatFormat format) {
    if (format == lock::CompatFormat::redisson)
        return std::make_unique<CompatRedissonBackend>(deployment);
    return std::make_unique<CompatSetnxBackend>(deployment);
}

lock::BackendFactory compat_backend_factory(const Deployment& deployment,
                                            lock::CompatFormat format) {
    if (format == lock::CompatFormat::redisson)
        return connecting_factory<CompatRedissonBackend>(deployment);
    return connecting_factory<CompatSetnxBackend>(deployment);
}

} // namespace dlock::redis
