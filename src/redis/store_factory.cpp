#include "redis/store_factory.hpp"

#include "redis/redlock/redlock_store.hpp"
#include "redis/stores/single_store.hpp"

namespace dlock::redis {

std::unique_ptr<lock::Store> store_for(const std::vector<Deployment>& quorum,
                                       const Deployment& deployment) {
    if (!quorum.empty())
        return std::make_unique<RedlockStore>(quorum);
    return std::make_unique<SingleStore>(deployment);
}

} // namespace dlock::redis
