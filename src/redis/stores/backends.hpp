#pragma once

#include "lock/backend.hpp"
#include "lock/compat.hpp"
#include "redis/topology/deployment.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace dlock::redis {

// A lock::BackendFactory whose every call opens a new B(args...) and connects it, so an
// unreachable Redis is reported at once.
template <typename B, typename... Args>
lock::BackendFactory connecting_factory(Args... args) {
    return [args...]() -> Result<std::unique_ptr<lock::Backend>> {
        auto backend = std::make_unique<B>(args...);
        TRY(backend->connect());
        return std::unique_ptr<lock::Backend>(std::move(backend));
    };
}

// What `dlock run NAME` holds: the lock NAME, or with permits > 0 one of that many permits of
// the semaphore NAME (`dlock sem run -p`). The backend connects on first use.
std::unique_ptr<lock::Backend> backend_for(const Deployment& deployment, int64_t permits);
lock::BackendFactory backend_factory_for(const Deployment& deployment, int64_t permits);

// What `dlock run --compat FORMAT NAME` holds: a lease in that library's format. The backend
// connects on first use.
std::unique_ptr<lock::Backend> compat_backend_for(const Deployment& deployment,
                                                  lock::CompatFormat format);
lock::BackendFactory compat_backend_factory(const Deployment& deployment,
                                            lock::CompatFormat format);

} // namespace dlock::redis
