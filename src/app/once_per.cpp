#include "app/once_per.hpp"

#include "app/run_history.hpp"
#include "util/duration.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"

#include <cstdlib>
#include <ctime>
#include <fmt/format.h>
#include <unistd.h>

namespace dlock::app {
namespace {

std::string utc(int64_t ms, const char* format) {
    const time_t seconds = static_cast<time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
    tm fields{};
    gmtime_r(&seconds, &fields);
    char text[40];
    strftime(text, sizeof text, format, &fields);
    return text;
}

lock::SlotHolder holder_of(const lock::HeldLease& lease, const lock::HolderInfo& self) {
    return {lease.owner(), lease.hold_id(), self.host, self.pid, self.user, lease.fence()};
}

// Skips are the news of a host that lost the race to a successful run: silent in cron (-v
// shows them), said at a terminal.
void report_skip(const std::string& line) {
    if (isatty(STDERR_FILENO))
        log::warn("{}", line);
    else
        log::info("{}", line);
}

void record_skip(lock::Backend& backend, const lock::HeldLease& lease, const lock::HolderInfo& self,
                 const std::string& reason, int64_t slot) {
    if (lock::History* history = backend.history())
        record_slot_skip(*history, lease.keys(), self, reason, slot);
}

// A period or offset in ms, as the slot key keeps it, for people.
std::string rule_part(const std::string& ms) {
    char* end = nullptr;
    const long long n = std::strtoll(ms.c_str(), &end, 10);
    if (ms.empty() || *end != '\0')
        return ms.empty() ? "?" : ms;
    return format_duration_exact(Millis(n));
}

// Hosts that disagree on the schedule make runs more frequent than either intends: say so.
void warn_foreign_mark(const std::string& name, const lock::SlotRule& rule,
                       const lock::SlotAnswer& answer) {
    log::warn("{}: its last slot was marked by {} under --once-per {} --offset={}; this run uses "
              "--once-per {} --offset={}, so that mark does not count (give every host the same "
              "schedule)",
              name, answer.host.empty() ? "?" : answer.host, rule_part(answer.foreign_period),
              rule_part(answer.foreign_offset), format_duration_exact(rule.period),
              format_duration_exact(rule.offset));
}

} // namespace

std::string describe_slot(const lock::SlotRule& rule, int64_t slot) {
    const int64_t start = slot * rule.period.count() + rule.offset.count();
    const int64_t end = start + rule.period.count();
    const bool minutes = start % 60'000 == 0 && end % 60'000 == 0;
    const char* format = rule.period >= Millis(86'400'000)
                             ? (minutes ? "%Y-%m-%d %H:%M" : "%Y-%m-%d %H:%M:%S")
                         : minutes ? "%H:%M"
                                   : "%H:%M:%S";
    return fmt::format("{}-{} UTC", utc(start, format), utc(end, format));
}

std::string slot_done_reason(const lock::SlotRule& rule, const lock::SlotAnswer& answer) {
    const bool same = answer.done_slot == answer.slot;
    return fmt::format("done {} ({}) by {} at {}", same ? "this slot" : "a later slot",
                       describe_slot(rule, answer.done_slot),
                       answer.host.empty() ? "?" : answer.host, utc(answer.at_ms, "%H:%M:%S"));
}

Result<SlotDecision> claim_slot(lock::Slots* slots, lock::Backend& backend, lock::LeaseSet& leases,
                                const RunOptions& options, const lock::HolderInfo& self) {
    if (!slots)
        return SlotDecision{};
    const lock::HeldLease& lease = leases[0];
    auto answer = slots->claim(lease.keys(), *options.once_per, holder_of(lease, self));
    if (answer && answer->state == lock::SlotAnswer::State::open) {
        if (!answer->ignored_mark.empty())
            log::warn("{}: its slot key says slot {} was done by {}: unreadable, or more than a "
                      "slot ahead of the server's clock (a clock that jumped, a hand-written "
                      "key); it does not count, and this run's mark replaces it",
                      lease.name(), answer->ignored_mark.substr(0, 40),
                      answer->host.empty() ? "?" : answer->host);
        else if (!answer->foreign_period.empty())
            warn_foreign_mark(lease.name(), *options.once_per, *answer);
        // The command may name its output by slot: its start is slot * period + offset.
        setenv("DLOCK_SLOT", std::to_string(answer->slot).c_str(), 1);
        return ClaimedSlot{answer->slot};
    }
    if (!answer) {
        leases.release_all(backend);
        return tl::unexpected(answer.error());
    }
    if (answer->state == lock::SlotAnswer::State::lost) {
        log::error("lost the lease on {} before its slot was claimed; not running {}", lease.name(),
                   options.command_line);
        leases.release_all(backend);
        return exit_code::lease_lost;
    }
    const std::string reason = slot_done_reason(*options.once_per, *answer);
    report_skip(fmt::format("{}: {}; not running {}", lease.name(), reason, options.command_line));
    record_skip(backend, lease, self, reason, answer->slot);
    leases.release_all(backend);
    return options.slot_done_exit_code;
}

std::optional<int> done_while_kept(lock::Slots* slots, const std::string& prefix,
                                   const RunOptions& options, const lock::Blocked& blocked) {
    if (slots == nullptr || !options.once_per || blocked.refused.last.held_until_ms <= 0)
        return std::nullopt;
    auto answer = slots->peek(lock::Keys::of(prefix, blocked.name), *options.once_per);
    if (!answer || answer->state != lock::SlotAnswer::State::done)
        return std::nullopt;
    report_skip(fmt::format("{}: {}; not running {}", blocked.name,
                            slot_done_reason(*options.once_per, *answer), options.command_line));
    return options.slot_done_exit_code;
}

void mark_slot_done(lock::Slots& slots, const lock::LeaseSet& leases, const RunOptions& options,
                    const lock::HolderInfo& self, const ClaimedSlot& claimed) {
    const lock::HeldLease& lease = leases[0];
    auto answer =
        slots.mark_done(lease.keys(), *options.once_per, holder_of(lease, self), claimed.slot);
    if (!answer)
        log::warn("{}: could not mark slot {} done ({}); another run may run it again",
                  lease.name(), describe_slot(*options.once_per, claimed.slot),
                  answer.error().message);
    // A lease found lost is reported by the release that follows.
}

} // namespace dlock::app
