#include "app/force_release.hpp"

#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "lock/self_info.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace dlock::app {
namespace {

constexpr size_t kPermitIdLength = 16; // random_hex(8), see app/run_environment.cpp

const char* how_held(lock::LockStatus::State mode) {
    switch (mode) {
    case lock::LockStatus::State::shared:
        return "shared";
    case lock::LockStatus::State::min_hold:
        return "finished, kept by --min-hold";
    default:
        return "exclusive";
    }
}

// "web-1 (pid 4242, since 02:00:01, token 17) user alice running ./sync.sh", escaped so that
// whatever the holder's command line contains stays on one line.
std::string holder_text(const lock::HolderInfo& h, int64_t now_ms) {
    const lock::HolderInfo holder{one_line(h.host),    h.pid,      one_line(h.user),
                                  one_line(h.command), h.since_ms, h.fence};
    return fmt::format("{} user {} running {}", lock::describe_holder(holder, now_ms), holder.user,
                       holder.command);
}

int woke(int64_t woken) {
    out::print("woke {} waiter{}\n", woken, woken == 1 ? "" : "s");
    return exit_code::ok;
}

// The lock is free: if the semaphore of the same name has permits, that is probably what the
// caller meant to break.
std::string semaphore_hint(lock::Store& store, const std::string& prefix, const std::string& name) {
    if (!store.capabilities().semaphores)
        return "";
    auto semaphore = store.semaphore(prefix, name);
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

// One deployment: what it broke, or why nothing.
int show_broken(lock::Store& store, const std::string& prefix, const std::string& name,
                const lock::BrokenLock& broken) {
    if (broken.holds.empty()) {
        out::print("{} is not held; nothing to release{}\n", name,
                   semaphore_hint(store, prefix, name));
        return exit_code::nothing;
    }
    const int64_t now = wall_now_ms();
    for (const auto& hold : broken.holds)
        out::print("released {} ({}) held by {}\n", name, how_held(hold.mode),
                   holder_text(hold.holder, now));
    return woke(broken.woken);
}

// Under a quorum: broken on every member at once, each reported on its own line.
int show_member_breaks(const std::vector<lock::MemberBroken>& members, const std::string& name) {
    const int64_t now = wall_now_ms();
    bool any = false;
    for (const auto& member : members) {
        if (!member.broken) {
            out::print("{}: unreachable: {}\n", member.name, member.broken.error().message);
            continue;
        }
        for (const auto& hold : member.broken->holds)
            out::print("{}: released {} ({}) held by {}\n", member.name, name, how_held(hold.mode),
                       holder_text(hold.holder, now));
        any = any || !member.broken->holds.empty();
    }
    if (!any) {
        out::print("{} is not held on any member that answered; nothing to release\n", name);
        return exit_code::nothing;
    }
    return exit_code::ok;
}

Result<int> break_lock(lock::Store& store, const std::string& prefix, const std::string& name) {
    const auto keys = lock::Keys::of(prefix, name);
    const auto self = self_info("dlock release --force " + name);
    TRY_ASSIGN(const auto broken, store.force_release(keys, self, lock::kWaiterHeartbeat));
    if (broken.size() == 1 && broken.front().name.empty() && broken.front().broken)
        return show_broken(store, prefix, name, *broken.front().broken);
    return show_member_breaks(broken, name);
}

// `permit` "" breaks every permit.
Result<int> break_permits(lock::Store& store, const std::string& prefix, const std::string& name,
                          const std::string& permit) {
    const auto keys = lock::Keys::of(prefix, name);
    const auto self =
        self_info(permit.empty() ? "dlock release --force --all-permits " + name
                                 : "dlock release --force --permit " + permit + " " + name);
    auto broken = store.force_release_permits(keys, permit, self, lock::kWaiterHeartbeat);
    TRY(broken);
    if (broken->permits.empty()) {
        if (permit.empty())
            out::print("semaphore {} has no permit held; nothing to release\n", name);
        else
            out::print("semaphore {} has no permit {} (released, expired or never taken); nothing "
                       "to release\n",
                       name, permit);
        return exit_code::nothing;
    }
    const int64_t now = wall_now_ms();
    for (const auto& p : broken->permits)
        out::print("released permit {} of {} held by {}\n", one_line(p.permit), name,
                   holder_text(p.holder, now));
    return woke(broken->woken);
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

Result<int> force_release(lock::Store& store, const Target& target,
                          const ForceReleaseOptions& options) {
    if (!options.permit.empty() || options.all_permits) {
        const lock::Capabilities offered = store.capabilities();
        TRY(lock::require(offered.semaphores, offered, "--permit and --all-permits (semaphores)"));
        return break_permits(store, target.prefix, options.name, options.permit);
    }
    return break_lock(store, target.prefix, options.name);
}

} // namespace dlock::app
