#include "app/force_release.hpp"

#include "app/self_info.hpp"
#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "redis/script_runner.hpp"
#include "util/log.hpp"
#include "util/output.hpp"

#include <chrono>
#include <fmt/format.h>

namespace dlock::app {
namespace {

const char* how_held(std::string_view mode) {
    if (mode == "s")
        return "shared";
    if (mode == "done")
        return "finished, kept by --min-hold";
    return "exclusive";
}

} // namespace

int force_release(const Connection& connection, const std::string& name) {
    const auto keys = lock::Keys::of(connection.prefix, name);
    const auto self = self_info("dlock release --force " + name);
    auto conn = redis::Connection::open(connection.redis);
    if (!conn) {
        log::error("{}", conn.error().message);
        return conn.error().exit_code;
    }
    const std::string heartbeat = std::to_string(kWaiterHeartbeat.count());
    const std::string pid = std::to_string(self.pid);
    auto reply = redis::run_script(
        *conn, redis::script("force_release"),
        {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo, keys.history},
        {heartbeat, self.host, pid, self.user, self.command});
    if (!reply) {
        log::error("{}", reply.error().message);
        return reply.error().exit_code;
    }
    if (!reply->is_array() || reply->size() < 2) {
        log::error("unexpected reply from script force_release.lua");
        return exit_code::internal;
    }
    if (!(*reply)[1].str().empty())
        log::info("could not record history in {}: {}", keys.history, (*reply)[1].str());
    if (reply->size() == 2) {
        out::print("{} is not held; nothing to release\n", name);
        return exit_code::nothing;
    }
    const int64_t now = wall_now_ms();
    for (size_t i = 2; i < reply->size(); ++i) {
        const auto h = (*reply)[i];
        if (h.size() != 7) {
            log::error("unexpected reply from script force_release.lua");
            return exit_code::internal;
        }
        const lock::HolderInfo holder{std::string(h[1].str()), h[2].as_int(),
                                      std::string(h[3].str()), std::string(h[4].str()),
                                      h[5].as_int(),           h[6].as_int()};
        out::print("released {} ({}) held by {} user {} running {}\n", name, how_held(h[0].str()),
                   lock::describe_holder(holder, now), holder.user, holder.command);
    }
    const int64_t woken = (*reply)[0].as_int();
    out::print("woke {} waiter{}\n", woken, woken == 1 ? "" : "s");
    return exit_code::ok;
}

} // namespace dlock::app
