#include "app/force_release.hpp"

#include "app/run.hpp"
#include "app/self_info.hpp"
#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "redis/script_runner.hpp"
#include "redis/status_reader.hpp"
#include "util/log.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock::app {
namespace {

constexpr size_t kPermitIdLength = 16; // random_hex(8), see app/run_environment.cpp

const char* how_held(std::string_view mode) {
    if (mode == "s")
        return "shared";
    if (mode == "done")
        return "finished, kept by --min-hold";
    return "exclusive";
}

tl::unexpected<Error> unexpected_reply(std::string_view script_name) {
    return fail(exit_code::internal,
                fmt::format("unexpected reply from script {}.lua", script_name));
}

// "web-1 (pid 4242, since 02:00:01, token 17) user alice running ./sync.sh", escaped so that
// whatever the holder's command line contains stays on one line.
std::string holder_text(redis::ReplyView h, size_t from, int64_t now_ms) {
    const lock::HolderInfo holder{one_line(h[from].str()),     h[from + 1].as_int(),
                                  one_line(h[from + 2].str()), one_line(h[from + 3].str()),
                                  h[from + 4].as_int(),        h[from + 5].as_int()};
    return fmt::format("{} user {} running {}", lock::describe_holder(holder, now_ms), holder.user,
                       holder.command);
}

int woke(int64_t woken) {
    out::print("woke {} waiter{}\n", woken, woken == 1 ? "" : "s");
    return exit_code::ok;
}

// The lock is free: if the semaphore of the same name has permits, that is probably what the
// caller meant to break.
std::string semaphore_hint(redis::Connection& conn, const std::string& prefix,
                           const std::string& name) {
    auto semaphore = redis::read_permits(conn, prefix, name);
    if (!semaphore) {
        log::debug("cannot read semaphore {}: {}", name, semaphore.error().message);
        return "";
    }
    const auto held = semaphore->permits.size();
    if (held == 0)
        return "";
    return fmt::format(" (semaphore {} has {} permit{} held: break {} with --permit ID or "
                       "--all-permits)",
                       name, held, held == 1 ? "" : "s", held == 1 ? "it" : "them");
}

Result<int> break_lock(redis::Connection& conn, const std::string& prefix,
                       const std::string& name) {
    const auto keys = lock::Keys::of(prefix, name);
    const auto self = self_info("dlock release --force " + name);
    const std::string heartbeat = std::to_string(kWaiterHeartbeat.count());
    const std::string pid = std::to_string(self.pid);
    auto reply = redis::run_script(
        conn, redis::script("force_release"),
        {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo, keys.history},
        {heartbeat, self.host, pid, self.user, self.command});
    TRY(reply);
    if (!reply->is_array() || reply->size() < 2)
        return unexpected_reply("force_release");
    if (!(*reply)[1].str().empty())
        log::info("could not record history in {}: {}", keys.history, (*reply)[1].str());
    if (reply->size() == 2) {
        out::print("{} is not held; nothing to release{}\n", name,
                   semaphore_hint(conn, prefix, name));
        return exit_code::nothing;
    }
    const int64_t now = wall_now_ms();
    for (size_t i = 2; i < reply->size(); ++i) {
        const auto h = (*reply)[i];
        if (h.size() != 7)
            return unexpected_reply("force_release");
        out::print("released {} ({}) held by {}\n", name, how_held(h[0].str()),
                   holder_text(h, 1, now));
    }
    return woke((*reply)[0].as_int());
}

// `permit` "" breaks every permit.
Result<int> break_permits(redis::Connection& conn, const std::string& prefix,
                          const std::string& name, const std::string& permit) {
    const auto keys = lock::Keys::of(prefix, name);
    const auto self =
        self_info(permit.empty() ? "dlock release --force --all-permits " + name
                                 : "dlock release --force --permit " + permit + " " + name);
    const std::string heartbeat = std::to_string(kWaiterHeartbeat.count());
    const std::string pid = std::to_string(self.pid);
    auto reply = redis::run_script(
        conn, redis::script("sem_force_release"),
        {keys.sem, keys.permits, keys.squeue, keys.salive, keys.swake, keys.history},
        {permit, heartbeat, self.host, pid, self.user, self.command});
    TRY(reply);
    if (!reply->is_array() || reply->size() < 3)
        return unexpected_reply("sem_force_release");
    if (!(*reply)[1].str().empty())
        log::info("could not record history in {}: {}", keys.history, (*reply)[1].str());
    if (reply->size() == 3) {
        if (permit.empty())
            out::print("semaphore {} has no permit held; nothing to release\n", name);
        else
            out::print("semaphore {} has no permit {} (released, expired or never taken); nothing "
                       "to release\n",
                       name, permit);
        return exit_code::nothing;
    }
    const int64_t now = wall_now_ms();
    for (size_t i = 3; i < reply->size(); ++i) {
        const auto p = (*reply)[i];
        if (p.size() != 7)
            return unexpected_reply("sem_force_release");
        out::print("released permit {} of {} held by {}\n", one_line(p[0].str()), name,
                   holder_text(p, 1, now));
    }
    return woke((*reply)[0].as_int());
}

} // namespace

Result<std::string> parse_permit_id(std::string_view text) {
    const bool hex = std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
    if (text.size() != kPermitIdLength || !hex)
        return usage_error(fmt::format("--permit takes a permit id as `dlock sem status NAME` "
                                       "shows it ({} hex digits), not {}",
                                       kPermitIdLength, quote(text)));
    return std::string(text);
}

Result<int> force_release(const Target& target, const ForceReleaseOptions& options) {
    auto conn = redis::Connection::open(target.redis);
    TRY(conn);
    if (!options.permit.empty() || options.all_permits)
        return break_permits(*conn, target.prefix, options.name, options.permit);
    return break_lock(*conn, target.prefix, options.name);
}

} // namespace dlock::app
