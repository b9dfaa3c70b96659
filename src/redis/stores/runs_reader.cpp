#include "redis/stores/runs_reader.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

namespace dlock::redis {
namespace {

constexpr size_t kMaxHost = 255; // a host name's limit (HOST_NAME_MAX)

// The whole value as a non-negative integer; nullopt for anything else.
std::optional<int64_t> count_in(ReplyView v) {
    const auto text = v.str();
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || n < 0)
        return std::nullopt;
    return n;
}

std::string host_in(ReplyView v) {
    return one_line(v.str().substr(0, kMaxHost));
}

// The record whose fields start at `end_at` (end ms, duration ms) with the host at `host_at`;
// nullopt without a valid end time.
std::optional<lock::RunRecord> record_at(ReplyView values, size_t end_at, size_t host_at) {
    const auto end_ms = count_in(values[end_at]);
    if (!end_ms || *end_ms == 0)
        return std::nullopt;
    lock::RunRecord r;
    r.end_ms = *end_ms;
    r.duration_ms = count_in(values[end_at + 1]).value_or(0);
    r.host = host_in(values[host_at]);
    return r;
}

} // namespace

// Where the fields after the counters are in kRunFields.
constexpr size_t kLastOutcome = lock::kOutcomes.size(), kLastEnd = kLastOutcome + 1,
                 kLastExit = kLastOutcome + 3, kLastHost = kLastOutcome + 4,
                 kSuccessEnd = kLastOutcome + 5, kSuccessHost = kLastOutcome + 7;
static_assert(kRunFields[kLastOutcome] == "last_outcome" && kRunFields[kLastEnd] == "last_end_ms" &&
              kRunFields[kLastExit] == "last_exit" && kRunFields[kLastHost] == "last_host" &&
              kRunFields[kSuccessEnd] == "success_end_ms" &&
              kRunFields[kSuccessHost] == "success_host");

lock::RunStats parse_runs(ReplyView values) {
    lock::RunStats runs;
    if (!values.is_array() || values.size() != kRunFields.size())
        return runs;
    for (size_t i = 0; i < runs.counts.size(); ++i)
        runs.counts[i] = count_in(values[i]).value_or(0);
    if (auto last = record_at(values, kLastEnd, kLastHost)) {
        // A finished run's outcome; anything else in the field reads as a failure.
        const auto outcome = lock::outcome_named(values[kLastOutcome].str());
        const bool finished =
            outcome && (*outcome == lock::Outcome::ok || *outcome == lock::Outcome::failed ||
                        *outcome == lock::Outcome::timed_out || *outcome == lock::Outcome::lost ||
                        *outcome == lock::Outcome::unknown);
        last->outcome = finished ? *outcome : lock::Outcome::failed;
        const auto exit_status = count_in(values[kLastExit]);
        last->exit_status = static_cast<int>(std::min<int64_t>(exit_status.value_or(-1), 255));
        runs.last_run = std::move(last);
    }
    if (auto success = record_at(values, kSuccessEnd, kSuccessHost)) {
        success->outcome = lock::Outcome::ok;
        success->exit_status = 0;
        runs.last_success = std::move(success);
    }
    return runs;
}

} // namespace dlock::redis
