#include "app/metrics_text.hpp"

#include <fmt/format.h>
#include <functional>

namespace dlock::app {
namespace {

using lock::Outcome;
using lock::RunRecord;

// The labels and value of one sample, the labels already written out ("name=\"job\"").
struct Sample {
    std::string labels;
    std::string value;
};

// One metric family: its samples for one name (none, one, or one per outcome).
struct Family {
    std::string_view name;
    std::string_view type;
    std::string_view help;
    std::function<std::vector<Sample>(const NameMetrics&, const std::string& labels)> samples;
};

// Milliseconds as seconds, exactly and never in exponent notation: 1.5, 1700000000.123, 12.
std::string seconds(int64_t ms) {
    const char* sign = ms < 0 ? "-" : "";
    const uint64_t magnitude = ms < 0 ? 0 - static_cast<uint64_t>(ms) : static_cast<uint64_t>(ms);
    std::string fraction = fmt::format("{:03}", magnitude % 1000);
    while (!fraction.empty() && fraction.back() == '0')
        fraction.pop_back();
    return fmt::format("{}{}{}{}", sign, magnitude / 1000, fraction.empty() ? "" : ".", fraction);
}

std::string number(int64_t n) {
    return std::to_string(n);
}

std::string label(std::string_view key, std::string_view value) {
    return fmt::format("{}=\"{}\"", key, escape_label_value(value));
}

// A record's value, or no sample when there is no record.
std::vector<Sample> of_record(const std::optional<RunRecord>& record, const std::string& labels,
                              const std::function<std::string(const RunRecord&)>& value) {
    if (!record)
        return {};
    return {{labels, value(*record)}};
}

std::vector<Sample> runs_by_outcome(const NameMetrics& m, const std::string& labels) {
    if (!m.counts_runs)
        return {};
    std::vector<Sample> out;
    for (Outcome o : lock::kOutcomes)
        out.push_back(
            {labels + "," + label("outcome", lock::outcome_name(o)), number(m.runs.count(o))});
    return out;
}

std::vector<Sample> last_success_time(const NameMetrics& m, const std::string& labels) {
    const auto& s = m.runs.last_success;
    if (!m.counts_runs)
        return {};
    return {{labels, s ? seconds(s->end_ms) : "0"}};
}

std::vector<Sample> last_ran_time(const NameMetrics& m, const std::string& labels) {
    const auto& r = m.runs.last_ran();
    if (!m.counts_runs)
        return {};
    return {{labels, r ? seconds(r->end_ms) : "0"}};
}

std::vector<Sample> last_run_info(const NameMetrics& m, const std::string& labels) {
    const auto& r = m.runs.last_run;
    if (!r)
        return {};
    return {{labels + "," + label("host", r->host) + "," +
                 label("outcome", lock::outcome_name(r->outcome)),
             "1"}};
}

std::vector<Sample> last_success_info(const NameMetrics& m, const std::string& labels) {
    const auto& s = m.runs.last_success;
    if (!s)
        return {};
    return {{labels + "," + label("host", s->host), "1"}};
}

std::vector<Sample> lease_ttl(const NameMetrics& m, const std::string& labels) {
    if (!m.ttl_ms)
        return {{labels, "0"}};
    return {{labels, *m.ttl_ms < 0 ? "+Inf" : seconds(*m.ttl_ms)}};
}

std::vector<Sample> permits(const NameMetrics& m, const std::string& labels, bool limit) {
    if (!m.permits_used)
        return {};
    return {{labels, number(limit ? m.permits_limit : *m.permits_used)}};
}

std::vector<Family> per_name_families() {
    const auto end = [](const RunRecord& r) { return seconds(r.end_ms); };
    const auto took = [](const RunRecord& r) { return seconds(r.duration_ms); };
    const auto exit = [](const RunRecord& r) { return number(r.exit_status); };
    return {
        {"dlock_runs_total", "counter",
         "Runs of the job by outcome: ok, failed, timed_out, lost, skipped_busy, "
         "skipped_slot_done, skipped_paused, unknown (a dlock acquire hold that ended with its "
         "script).",
         runs_by_outcome},
        {"dlock_last_success_timestamp_seconds", "gauge",
         "Server time the last successful run ended (0: never).", last_success_time},
        {"dlock_last_ran_timestamp_seconds", "gauge",
         "Server time the last run ended that succeeded, or whose exit status is unknown (a "
         "dlock acquire hold that ended with its script) (0: never).",
         last_ran_time},
        {"dlock_last_success_duration_seconds", "gauge", "How long the last successful run took.",
         [=](const NameMetrics& m, const std::string& l) {
             return of_record(m.runs.last_success, l, took);
         }},
        {"dlock_last_success_info", "gauge", "The host of the last successful run (value 1).",
         last_success_info},
        {"dlock_last_run_timestamp_seconds", "gauge", "Server time the last run ended.",
         [=](const NameMetrics& m, const std::string& l) {
             return of_record(m.runs.last_run, l, end);
         }},
        {"dlock_last_run_duration_seconds", "gauge", "How long the last run took.",
         [=](const NameMetrics& m, const std::string& l) {
             return of_record(m.runs.last_run, l, took);
         }},
        {"dlock_last_run_exit_code", "gauge", "The exit status dlock returned for the last run.",
         [=](const NameMetrics& m, const std::string& l) {
             return of_record(m.runs.last_run, l, exit);
         }},
        {"dlock_last_run_info", "gauge", "The host and outcome of the last run (value 1).",
         last_run_info},
        {"dlock_holders", "gauge", "Holders of the lock now (owners of permits for a semaphore).",
         [](const NameMetrics& m, const std::string& l) {
             return std::vector<Sample>{{l, number(m.holders)}};
         }},
        {"dlock_waiters", "gauge", "Waiters queued for the lock or semaphore now.",
         [](const NameMetrics& m, const std::string& l) {
             return std::vector<Sample>{{l, number(m.waiters)}};
         }},
        {"dlock_paused", "gauge", "1 while the name is paused (dlock pause), else 0.",
         [](const NameMetrics& m, const std::string& l) {
             return std::vector<Sample>{{l, m.paused ? "1" : "0"}};
         }},
        {"dlock_lease_ttl_seconds", "gauge",
         "Shortest lease time left among the holders (0: not held; +Inf: no expiry).", lease_ttl},
        {"dlock_semaphore_permits_used", "gauge", "Permits of the semaphore in use.",
         [](const NameMetrics& m, const std::string& l) { return permits(m, l, false); }},
        {"dlock_semaphore_permits_limit", "gauge", "Permits the semaphore allows.",
         [](const NameMetrics& m, const std::string& l) { return permits(m, l, true); }},
    };
}

void header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

} // namespace

std::string escape_label_value(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string metrics_text(const MetricsReading& reading) {
    std::string out;
    header(out, "dlock_up", "gauge", "1 when Redis answered this reading, 0 when it did not.");
    out += fmt::format("dlock_up {}\n", reading.up ? 1 : 0);
    if (!reading.up)
        return out;
    header(out, "dlock_metrics_timestamp_seconds", "gauge", "Redis server time of this reading.");
    out += fmt::format("dlock_metrics_timestamp_seconds {}\n", seconds(reading.server_now_ms));
    for (const Family& family : per_name_families()) {
        std::string samples;
        for (const NameMetrics& m : reading.names)
            for (const Sample& s : family.samples(m, label("name", m.name)))
                samples += fmt::format("{}{{{}}} {}\n", family.name, s.labels, s.value);
        if (samples.empty())
            continue; // a family without samples is left out (no semaphore, nothing ran)
        header(out, family.name, family.type, family.help);
        out += samples;
    }
    return out;
}

} // namespace dlock::app
