#include "app/pause.hpp"

#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "lock/self_info.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

namespace dlock::app {
namespace {

std::string prefix_of(const std::string& member) {
    return member.empty() ? "" : member + ": ";
}

// "paused nightly until 14:00:00 (db migration); 2 waiters told; its holder runs on"
std::string paused_line(const std::string& name, const lock::Paused& p,
                        const PauseOptions& options) {
    std::string line =
        fmt::format("{} {} {}", p.replaced ? "paused again" : "paused", name,
                    p.until_ms > 0 ? "until " + lock::local_time(p.until_ms, p.since_ms)
                                   : std::string("until dlock resume"));
    if (!options.reason.empty())
        line += " (" + options.reason + ")";
    if (p.waiters_dropped > 0)
        line +=
            fmt::format("; {} waiter{} told", p.waiters_dropped, p.waiters_dropped == 1 ? "" : "s");
    if (p.held)
        line += "; its current holder runs on";
    return line;
}

} // namespace

Result<int> pause(lock::Store& store, const Target& target, const PauseOptions& options) {
    const auto self = self_info("dlock pause");
    const lock::PauseRequest request{options.duration, self.user,      self.host,
                                     self.pid,         options.reason, lock::kWaiterHeartbeat};
    for (const auto& name : options.names) {
        TRY_ASSIGN(const auto members, store.pause(lock::Keys::of(target.prefix, name), request));
        for (const auto& member : members) {
            if (!member.paused)
                log::error("{}could not pause {}: {}", prefix_of(member.name), name,
                           member.paused.error().message);
            else
                out::print("{}{}\n", prefix_of(member.name),
                           paused_line(name, *member.paused, options));
        }
    }
    return exit_code::ok;
}

Result<int> resume(lock::Store& store, const Target& target,
                   const std::vector<std::string>& names) {
    const auto self = self_info("dlock resume");
    bool not_paused = false, kept = false;
    for (const auto& name : names) {
        TRY_ASSIGN(const auto members, store.resume(lock::Keys::of(target.prefix, name), self));
        for (const auto& member : members) {
            const std::string where = prefix_of(member.name);
            if (!member.resumed) {
                log::error("{}could not resume {}: {}; runs stay refused until its pause ends",
                           where, name, member.resumed.error().message);
                kept = true;
            } else if (!*member.resumed) {
                out::print("{}{} was not paused\n", where, name);
                not_paused = true;
            } else {
                const auto& r = **member.resumed;
                out::print("{}resumed {} (paused by {} since {}{})\n", where, name, one_line(r.by),
                           lock::local_time(r.since_ms, wall_now_ms()),
                           r.reason.empty() ? "" : ", " + one_line(r.reason));
            }
        }
    }
    if (kept)
        return exit_code::unavailable;
    return not_paused ? exit_code::nothing : exit_code::ok;
}

} // namespace dlock::app
