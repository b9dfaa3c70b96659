#pragma once

#include "lock/backend.hpp"
#include "redis/topology/deployment.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dlock::redis {

// --min-replicas N: a lease counts only once N replicas acknowledged its writes (WAIT, sent in
// the round trip of the script). `acks` is what WAIT answered; nullopt when none was sent.

// At acquire: an `unavailable` Error (exit 69) saying how many of N replicas acknowledged `what`
// ("the lock on job") within the timeout (transient: worth another try within the wait), or why
// WAIT failed; nothing when enough did.
Result<void> check_acknowledged(const std::optional<Result<int64_t>>& acks,
                                const Replication& replication, std::string_view what);

// At renewal: `renewed` as it is when enough replicas acknowledged, else every renewal that
// succeeded becomes a transient error, so the lease clock does not move and the watchdog tries
// again.
std::vector<Result<lock::Renewal>> acknowledged(std::vector<Result<lock::Renewal>> renewed,
                                                const std::optional<Result<int64_t>>& acks,
                                                const Replication& replication);

} // namespace dlock::redis
