#pragma once

#include "lock/store.hpp"
#include "redis/topology/deployment.hpp"

#include <memory>
#include <vector>

namespace dlock::redis {

// The store of every use case: a Redlock quorum over `quorum` when it is not empty, else the
// one `deployment`. The one place that decides which implementation runs; it sits above
// stores/ and redlock/ because it knows both.
std::unique_ptr<lock::Store> store_for(const std::vector<Deployment>& quorum,
                                       const Deployment& deployment);

} // namespace dlock::redis
