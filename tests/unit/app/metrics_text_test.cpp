#include "app/metrics_text.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace dlock;
using namespace dlock::app;
using lock::Outcome;

namespace {

bool has_line(const std::string& text, const std::string& line) {
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

size_t count_of(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

NameMetrics ran_job() {
    NameMetrics m;
    m.name = "nightly";
    m.runs.counts[static_cast<size_t>(Outcome::ok)] = 3;
    m.runs.counts[static_cast<size_t>(Outcome::skipped_busy)] = 2;
    m.runs.last_run = lock::RunRecord{Outcome::failed, 1'700'000'100'250, 1500, 2, "web-2"};
    m.runs.last_success = lock::RunRecord{Outcome::ok, 1'700'000'000'000, 12'000, 0, "web-1"};
    m.holders = 1;
    m.waiters = 2;
    m.ttl_ms = 27'500;
    return m;
}

} // namespace

TEST_CASE("metrics: dlock_up 0 alone when Redis did not answer", "[metrics]") {
    const std::string text = metrics_text(MetricsReading{});
    CHECK(text == "# HELP dlock_up 1 when Redis answered this reading, 0 when it did not.\n"
                  "# TYPE dlock_up gauge\n"
                  "dlock_up 0\n");
}

TEST_CASE("metrics: every outcome is counted, zeros included, in one family", "[metrics]") {
    MetricsReading r{true, 1'700'000'200'000, {ran_job(), NameMetrics{}}};
    r.names[1].name = "other";
    const std::string text = metrics_text(r);
    CHECK(has_line(text, "dlock_up 1"));
    CHECK(has_line(text, "dlock_metrics_timestamp_seconds 1700000200"));
    CHECK(has_line(text, "# TYPE dlock_runs_total counter"));
    CHECK(count_of(text, "# TYPE dlock_runs_total") == 1);
    CHECK(has_line(text, R"(dlock_runs_total{name="nightly",outcome="ok"} 3)"));
    CHECK(has_line(text, R"(dlock_runs_total{name="nightly",outcome="skipped_busy"} 2)"));
    CHECK(has_line(text, R"(dlock_runs_total{name="nightly",outcome="skipped_slot_done"} 0)"));
    CHECK(has_line(text, R"(dlock_runs_total{name="other",outcome="timed_out"} 0)"));
    CHECK(has_line(text, R"(dlock_runs_total{name="other",outcome="unknown"} 0)"));
    CHECK(count_of(text, "dlock_runs_total{") == 2 * lock::kOutcomes.size());
    // The samples of a family follow its header, never interleaved with another family's.
    const auto first = text.find("dlock_runs_total{name=\"nightly\"");
    const auto last = text.find("dlock_runs_total{name=\"other\",outcome=\"unknown\"");
    CHECK(text.substr(first, last - first).find("# TYPE") == std::string::npos);
}

TEST_CASE("metrics: the last run and the last success in seconds, with their hosts", "[metrics]") {
    const std::string text = metrics_text({true, 1'700'000'200'000, {ran_job()}});
    CHECK(has_line(text, R"(dlock_last_success_timestamp_seconds{name="nightly"} 1700000000)"));
    CHECK(has_line(text, R"(dlock_last_success_duration_seconds{name="nightly"} 12)"));
    CHECK(has_line(text, R"(dlock_last_success_info{name="nightly",host="web-1"} 1)"));
    CHECK(has_line(text, R"(dlock_last_run_timestamp_seconds{name="nightly"} 1700000100.25)"));
    CHECK(has_line(text, R"(dlock_last_run_duration_seconds{name="nightly"} 1.5)"));
    CHECK(has_line(text, R"(dlock_last_run_exit_code{name="nightly"} 2)"));
    CHECK(has_line(text, R"(dlock_last_run_info{name="nightly",host="web-2",outcome="failed"} 1)"));
    CHECK(has_line(text, R"(dlock_holders{name="nightly"} 1)"));
    CHECK(has_line(text, R"(dlock_waiters{name="nightly"} 2)"));
    CHECK(has_line(text, R"(dlock_lease_ttl_seconds{name="nightly"} 27.5)"));
    CHECK(text.find("dlock_semaphore") == std::string::npos);
}

TEST_CASE("metrics: a name that never ran has a last success of 0 and no last run", "[metrics]") {
    NameMetrics m;
    m.name = "fresh";
    const std::string text = metrics_text({true, 1'000, {m}});
    CHECK(has_line(text, R"(dlock_last_success_timestamp_seconds{name="fresh"} 0)"));
    CHECK(has_line(text, R"(dlock_lease_ttl_seconds{name="fresh"} 0)"));
    CHECK(has_line(text, R"(dlock_holders{name="fresh"} 0)"));
    CHECK(text.find("dlock_last_run") == std::string::npos);
    CHECK(text.find("dlock_last_success_duration") == std::string::npos);
}

TEST_CASE("metrics: a semaphore's permits, and a lease without expiry", "[metrics]") {
    NameMetrics m;
    m.name = "pool";
    m.holders = 2;
    m.ttl_ms = -1;
    m.permits_used = 3;
    m.permits_limit = 5;
    const std::string text = metrics_text({true, 1'000, {m}});
    CHECK(has_line(text, R"(dlock_semaphore_permits_used{name="pool"} 3)"));
    CHECK(has_line(text, R"(dlock_semaphore_permits_limit{name="pool"} 5)"));
    CHECK(has_line(text, R"(dlock_lease_ttl_seconds{name="pool"} +Inf)"));
}

TEST_CASE("metrics: a name whose runs are not counted exports no run families", "[metrics]") {
    NameMetrics m;
    m.name = "pool";
    m.permits_used = 1;
    m.permits_limit = 3;
    m.counts_runs = false;
    const std::string text = metrics_text({true, 1'000, {m}});
    CHECK(text.find("dlock_runs_total{") == std::string::npos);
    CHECK(text.find("dlock_last_success_timestamp_seconds{") == std::string::npos);
    CHECK(has_line(text, R"(dlock_semaphore_permits_used{name="pool"} 1)"));
}

TEST_CASE("metrics: label values escape backslash, double quote and newline", "[metrics]") {
    CHECK(escape_label_value(R"(a\b"c)") == R"(a\\b\"c)");
    CHECK(escape_label_value("x\ny") == R"(x\ny)");
    CHECK(escape_label_value("plain") == "plain");
    NameMetrics m;
    m.name = "q\"n";
    m.runs.last_run = lock::RunRecord{Outcome::lost, 5, 0, 76, "h\\1"};
    const std::string text = metrics_text({true, 1'000, {m}});
    CHECK(has_line(text, R"(dlock_last_run_info{name="q\"n",host="h\\1",outcome="lost"} 1)"));
}

TEST_CASE("metrics: the last run that ran is the last success, or a newer run of unknown status",
          "[metrics]") {
    auto m = ran_job();
    CHECK(has_line(metrics_text({true, 1'700'000'200'000, {m}}),
                   R"(dlock_last_ran_timestamp_seconds{name="nightly"} 1700000000)"));
    m.runs.last_run = lock::RunRecord{Outcome::unknown, 1'700'000'150'000, 1500, -1, "web-2"};
    const std::string text = metrics_text({true, 1'700'000'200'000, {m}});
    CHECK(has_line(text, R"(dlock_last_ran_timestamp_seconds{name="nightly"} 1700000150)"));
    CHECK(has_line(text, R"(dlock_last_run_exit_code{name="nightly"} -1)"));
    NameMetrics fresh;
    fresh.name = "fresh";
    CHECK(has_line(metrics_text({true, 1'000, {fresh}}),
                   R"(dlock_last_ran_timestamp_seconds{name="fresh"} 0)"));
}
