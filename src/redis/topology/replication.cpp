#include "redis/topology/replication.hpp"

#include "redis/protocol/server_error.hpp"

#include <fmt/format.h>

namespace dlock::redis {

Result<void> check_acknowledged(const std::optional<Result<int64_t>>& acks,
                                const Replication& replication, std::string_view what) {
    if (!acks || replication.min_replicas == 0)
        return {};
    if (!*acks) {
        std::string_view why = acks->error().message;
        while (why.ends_with(' ')) // "ERR unknown command 'WAIT', with args beginning with: ... "
            why.remove_suffix(1);
        // A replica answers WAIT with an error (or a not-master one, demoted as we waited): the
        // master moved (Sentinel asks again).
        const auto code = server_code(acks->error());
        const bool replica =
            code && (*code == ServerErrorCode::replica_refused || not_master(*code));
        return fail(Fault::unavailable,
                    fmt::format("WAIT, which --min-replicas needs, failed: {}", why),
                    replica || acks->error().transient);
    }
    if (**acks >= replication.min_replicas)
        return {};
    // Transient: replicas catch up, and after a failover the new master gets its replicas back
    // within seconds; the caller gives the hold back and tries again within its wait.
    return fail(Fault::unavailable,
                fmt::format("only {} of {} replicas acknowledged {} within {} ({}; a replica "
                            "still in its first sync acknowledges nothing)",
                            **acks, replication.min_replicas, what,
                            format_duration(replication.timeout),
                            replication.automatic
                                ? "--min-replicas auto, as on every Sentinel master with a live "
                                  "replica; --min-replicas 0 turns it off"
                                : "--min-replicas"),
                true);
}

std::vector<Result<lock::Renewal>> acknowledged(std::vector<Result<lock::Renewal>> renewed,
                                                const std::optional<Result<int64_t>>& acks,
                                                const Replication& replication) {
    auto ok = check_acknowledged(acks, replication, "the renewal");
    if (ok)
        return renewed;
    ok.error().transient = true;
    for (auto& r : renewed)
        if (r && *r)
            r = tl::unexpected(ok.error());
    return renewed;
}

} // namespace dlock::redis
