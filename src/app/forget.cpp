#include "app/forget.hpp"

#include "lock/keys.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/output.hpp"

namespace dlock::app {
namespace {

const char* what_holds(lock::Forgotten::Held held) {
    switch (held) {
    case lock::Forgotten::Held::exclusive:
        return "its lock is held (or kept by --min-hold)";
    case lock::Forgotten::Held::shared:
        return "it has shared holders";
    case lock::Forgotten::Held::permits:
        return "its semaphore has permits held";
    default:
        return "it is free";
    }
}

// One member's (or the only server's) answer for `name`; false when the name was held there.
bool show(const std::string& member, const std::string& name, const lock::Forgotten& forgotten) {
    const std::string where = member.empty() ? "" : member + ": ";
    if (forgotten.held != lock::Forgotten::Held::free) {
        log::error("{}cannot forget {}: {}; nothing changed (see dlock status {})", where, name,
                   what_holds(forgotten.held), name);
        return false;
    }
    if (forgotten.removed == 0)
        out::print("{}nothing to forget about {}\n", where, name);
    else
        out::print("{}forgot {}\n", where, name);
    return true;
}

} // namespace

Result<int> forget(lock::Store& store, const Target& target,
                   const std::vector<std::string>& names) {
    bool refused = false, missed = false;
    for (const auto& name : names) {
        TRY_ASSIGN(const auto members, store.forget(lock::Keys::of(target.prefix, name)));
        for (const auto& member : members) {
            if (!member.forgotten) {
                // A majority answered (else store.forget failed), but this member keeps the
                // name's keys, and its counters and history would show again once it is back.
                log::error("{}: cannot forget {}: {}; run dlock forget again once it answers",
                           member.name, name, member.forgotten.error().message);
                missed = true;
                continue;
            }
            refused = !show(member.name, name, *member.forgotten) || refused;
        }
    }
    if (missed)
        return exit_code::unavailable;
    return refused ? exit_code::nothing : exit_code::ok;
}

void forget_if_free(lock::Store& store, const std::string& prefix,
                    const std::vector<std::string>& names) {
    for (const auto& name : names) {
        const auto members = store.forget(lock::Keys::of(prefix, name));
        if (!members) {
            log::debug("--ephemeral: could not forget {}: {}", name, members.error().message);
            continue;
        }
        for (const auto& member : *members)
            if (!member.forgotten)
                log::debug("--ephemeral: could not forget {}: {}", name,
                           member.forgotten.error().message);
            else if (member.forgotten->held != lock::Forgotten::Held::free)
                log::debug("--ephemeral: {} is held again: its holder forgets it", name);
    }
}

} // namespace dlock::app
