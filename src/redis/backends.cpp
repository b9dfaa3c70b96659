#include "redis/backends.hpp"

#include "redis/lock_backend.hpp"
#include "redis/semaphore_backend.hpp"

namespace dlock::redis {

std::unique_ptr<lock::Backend> backend_for(const ConnectOptions& options, int64_t permits) {
    if (permits > 0)
        return std::make_unique<SemaphoreBackend>(options, permits);
    return std::make_unique<LockBackend>(options);
}

lock::BackendFactory backend_factory_for(const ConnectOptions& options, int64_t permits) {
    if (permits > 0)
        return connecting_factory<SemaphoreBackend>(options, permits);
    return backend_factory(options);
}

} // namespace dlock::redis
