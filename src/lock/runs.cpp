#include "lock/runs.hpp"

#include "lock/store.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace dlock::lock {
namespace {

constexpr std::array<std::string_view, kOutcomes.size()> kOutcomeNames{
    "ok", "failed", "timed_out", "lost", "skipped_busy", "skipped_slot_done"};

// The runs of `name` in each member's report that has it.
std::vector<const RunStats*> members_runs(const StatusReading& reading, std::string_view name) {
    std::vector<const RunStats*> found;
    for (const auto& member : reading.members) {
        if (!member.report)
            continue;
        for (const auto& s : member.report->names)
            if (s.name == name)
                found.push_back(&s.runs);
    }
    return found;
}

// The quorum-th largest of `values` (what at least `quorum` of them reach).
int64_t quorum_th(std::vector<int64_t> values, size_t quorum) {
    std::sort(values.begin(), values.end(), std::greater<>());
    return values[quorum - 1];
}

// The record that at least `quorum` members have reached: the quorum-th newest; nullopt when
// fewer than `quorum` members have one.
std::optional<RunRecord> quorum_record(const std::vector<const RunStats*>& runs, size_t quorum,
                                       std::optional<RunRecord> RunStats::*which) {
    std::vector<const RunRecord*> records;
    for (const RunStats* r : runs)
        if (r->*which)
            records.push_back(&*(r->*which));
    if (records.size() < quorum)
        return std::nullopt;
    std::sort(records.begin(), records.end(),
              [](const RunRecord* a, const RunRecord* b) { return a->end_ms > b->end_ms; });
    return *records[quorum - 1];
}

RunStats majority(const std::vector<const RunStats*>& runs, size_t quorum) {
    RunStats out;
    for (size_t i = 0; i < out.counts.size(); ++i) {
        std::vector<int64_t> values;
        for (const RunStats* r : runs)
            values.push_back(r->counts[i]);
        out.counts[i] = quorum_th(std::move(values), quorum);
    }
    out.last_run = quorum_record(runs, quorum, &RunStats::last_run);
    out.last_success = quorum_record(runs, quorum, &RunStats::last_success);
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
    return majority(runs, reading.quorum);
}

} // namespace dlock::lock
