#include "lock/runs.hpp"

#include "lock/store.hpp"

#include <algorithm>
#include <vector>

namespace dlock::lock {
namespace {

constexpr std::array<std::string_view, kOutcomes.size()> kOutcomeNames{
    "ok",     "failed", "timed_out", "lost", "skipped_busy", "skipped_slot_done", "skipped_paused",
    "unknown"};

// The runs of `name` in each member's report that has it.
std::vector<const RunStats*> members_runs(const StatusReading& reading, std::string_view name) {
    std::vector<const RunStats*> found;
    for (const NameStatus* s : reading.of(name))
        found.push_back(&s->runs);
    return found;
}

// The newest of the members' records.
std::optional<RunRecord> newest(const std::vector<const RunStats*>& runs,
                                std::optional<RunRecord> RunStats::*which) {
    std::optional<RunRecord> out;
    for (const RunStats* r : runs)
        if (r->*which && (!out || (r->*which)->end_ms > out->end_ms))
            out = r->*which;
    return out;
}

// A run is counted on the members that held it (see runs_of): each counter is the largest, and
// each record the newest, among the members that answered.
RunStats merged(const std::vector<const RunStats*>& runs) {
    RunStats out;
    for (const RunStats* r : runs)
        for (size_t i = 0; i < out.counts.size(); ++i)
            out.counts[i] = std::max(out.counts[i], r->counts[i]);
    out.last_run = newest(runs, &RunStats::last_run);
    out.last_success = newest(runs, &RunStats::last_success);
    return out;
}

} // namespace

std::string_view outcome_name(Outcome outcome) {
    return kOutcomeNames[static_cast<size_t>(outcome)];
}

std::optional<Outcome> outcome_named(std::string_view name) {
    for (Outcome o : kOutcomes)
        if (outcome_name(o) == name)
            return o;
    return std::nullopt;
}

const std::optional<RunRecord>& RunStats::last_ran() const {
    if (last_run && last_run->outcome == Outcome::unknown &&
        (!last_success || last_run->end_ms > last_success->end_ms))
        return last_run;
    return last_success;
}

bool RunStats::empty() const {
    return !last_run && !last_success &&
           std::all_of(counts.begin(), counts.end(), [](int64_t n) { return n == 0; });
}

std::optional<RunStats> runs_of(const StatusReading& reading, std::string_view name) {
    const auto runs = members_runs(reading, name);
    if (reading.quorum == 0)
        return runs.empty() ? std::nullopt : std::optional<RunStats>(*runs.front());
    if (runs.size() < reading.quorum)
        return std::nullopt;
    return merged(runs);
}

} // namespace dlock::lock
