// `dlock metrics`: the Prometheus text format read back with the Prometheus client's parser,
// counts that match the history after runs of every outcome from several hosts, --output
// written atomically, and `dlock_up 0` when Redis is unreachable.

#include "e2e/metrics_helpers.hpp"
#include "e2e/redlock_helpers.hpp"

#include <array>
#include <filesystem>
#include <thread>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The runs of `name` by outcome as its history tells them: releases with an exit status (0 ok,
// 124 timed out, any other failed), lost leases, and skips (slot done when the skip names a
// slot, else busy).
std::map<std::string, int> outcomes_in_history(const RedisServer& server, const std::string& name) {
    const auto h = run(server, {"history", name, "--json", "-n", "1000"});
    REQUIRE(h.exit_code == 0);
    std::map<std::string, int> counts;
    for (const auto& line : lines(h.out)) {
        if (line.find("\"event\":\"release\"") != std::string::npos) {
            const auto at = line.find("\"exit_status\":");
            if (at == std::string::npos)
                continue; // released without a run (the skip of --once-per)
            const int status = std::stoi(line.substr(at + 14));
            ++counts[status == 0 ? "ok" : status == 124 ? "timed_out" : "failed"];
        } else if (line.find("\"event\":\"lost\"") != std::string::npos) {
            ++counts["lost"];
        } else if (line.find("\"event\":\"skip\"") != std::string::npos) {
            ++counts[line.find("\"slot\":") != std::string::npos ? "skipped_slot_done"
                                                                 : "skipped_busy"];
        }
    }
    return counts;
}

// A run of every outcome on `name`, from hosts web-1, web-2 and web-3 (when they can be
// simulated): ok twice, failed, skipped busy, lost, timed out, skipped slot done, in that order.
void mixed_runs(const RedisServer& server, const std::string& name) {
    CHECK(run_on_host(server, "web-1", {"run", name, "--", "true"}).exit_code == 0);
    CHECK(run_on_host(server, "web-2", {"run", name, "--", "false"}).exit_code == 1);
    auto holder = start(server, {"run", "--ttl", "3s", name, "--", "sleep", "60"});
    REQUIRE(eventually([&] { return run(server, {"status", name}).exit_code == 0; }, 20s));
    CHECK(run_on_host(server, "web-3", {"run", "-n", name, "--", "true"}).exit_code == 75);
    CHECK(run(server, {"release", "--force", name}).exit_code == 0);
    CHECK(holder->wait(60s).exit_code == 76);
    CHECK(run_on_host(server, "web-2", {"run", "--max-run", "1s", name, "--", "sleep", "30"})
              .exit_code == 124);
    CHECK(run_on_host(server, "web-1", {"run", "--once-per", "1d", name, "--", "true"}).exit_code ==
          0);
    CHECK(run_on_host(server, "web-3", {"run", "--once-per", "1d", name, "--", "true"}).exit_code ==
          0);
}

std::string sample(const std::string& metric, const std::string& labels) {
    return metric + "{" + labels + "}";
}

} // namespace

TEST_CASE("metrics: runs of every outcome from several hosts are counted as the history tells",
          "[metrics]") {
    REQUIRE_REDIS(server_ptr);
    const RedisServer& server = *server_ptr;
    mixed_runs(server, "nightly");
    const auto r = run(server, {"metrics"});
    REQUIRE(r.exit_code == 0);
    const auto m = parse_metrics(r.out);
    if (!m.parser) {
        WARN("python3-prometheus-client is not installed: the output is not parsed");
        return;
    }
    CHECK(m.families.at("dlock_runs") == "counter");
    CHECK(m.at("dlock_up{}") == 1);
    const auto history = outcomes_in_history(server, "nightly");
    const std::map<std::string, int> expected{{"ok", 2},           {"failed", 1},
                                              {"timed_out", 1},    {"lost", 1},
                                              {"skipped_busy", 1}, {"skipped_slot_done", 1}};
    CHECK(history == expected);
    for (const auto& [outcome, count] : expected) {
        INFO("outcome " << outcome);
        CHECK(m.at(sample("dlock_runs_total", "name=nightly,outcome=" + outcome)) == count);
    }
    CHECK(m.at(sample("dlock_last_run_exit_code", "name=nightly")) == 0);
    CHECK(m.at(sample("dlock_last_run_timestamp_seconds", "name=nightly")) ==
          m.at(sample("dlock_last_success_timestamp_seconds", "name=nightly")));
    CHECK(m.at(sample("dlock_last_success_timestamp_seconds", "name=nightly")) <=
          m.at("dlock_metrics_timestamp_seconds{}"));
    CHECK(m.at(sample("dlock_holders", "name=nightly")) == 0);
    CHECK(m.at(sample("dlock_lease_ttl_seconds", "name=nightly")) == 0);
    if (can_simulate_hosts()) {
        CHECK(m.at(sample("dlock_last_success_info", "host=web-1,name=nightly")) == 1);
        CHECK(m.at(sample("dlock_last_run_info", "host=web-1,name=nightly,outcome=ok")) == 1);
    }
}

TEST_CASE("metrics: a held name shows its holder, waiter and lease TTL for the NAMEs asked for",
          "[metrics]") {
    REQUIRE_REDIS(server_ptr);
    const RedisServer& server = *server_ptr;
    auto holder = start(server, {"run", "--ttl", "30s", "busy", "--", "sleep", "60"});
    REQUIRE(eventually([&] { return run(server, {"status", "busy"}).exit_code == 0; }, 20s));
    auto waiter = start(server, {"run", "-w", "60s", "busy", "--", "true"});
    REQUIRE(eventually(
        [&] {
            return run(server, {"status", "busy", "--json"}).out.find("\"waiters\":1") !=
                   std::string::npos;
        },
        20s));
    const auto r = run(server, {"metrics", "busy", "never-used", "busy"});
    REQUIRE(r.exit_code == 0);
    const auto m = parse_metrics(r.out);
    holder->signal(SIGTERM);
    holder->wait();
    waiter->wait(60s);
    if (!m.parser) {
        WARN("python3-prometheus-client is not installed: the output is not parsed");
        return;
    }
    CHECK(m.at(sample("dlock_holders", "name=busy")) == 1);
    CHECK(m.at(sample("dlock_waiters", "name=busy")) == 1);
    const double ttl = m.at(sample("dlock_lease_ttl_seconds", "name=busy"));
    CHECK(ttl > 0);
    CHECK(ttl <= 30);
    CHECK(m.at(sample("dlock_runs_total", "name=never-used,outcome=ok")) == 0);
    CHECK(m.at(sample("dlock_last_success_timestamp_seconds", "name=never-used")) == 0);
    CHECK(m.samples.count(sample("dlock_last_run_exit_code", "name=never-used")) == 0);
}

TEST_CASE("metrics: Redis unreachable writes dlock_up 0 and exits 69", "[metrics]") {
    TempDir dir;
    const auto r = run_on("redis://127.0.0.1:1", {"metrics", "--output", dir / "dlock.prom"});
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    const auto m = parse_metrics(read_file(dir / "dlock.prom"));
    if (m.parser) {
        CHECK(m.at("dlock_up{}") == 0);
        CHECK(m.samples.size() == 1);
    }
    const auto out = run_on("redis://127.0.0.1:1", {"metrics"});
    CHECK(out.exit_code == 69);
    CHECK(out.out.find("\ndlock_up 0\n") != std::string::npos);
}

TEST_CASE("metrics: --output replaces the file whole and a failed write keeps the old one",
          "[metrics]") {
    REQUIRE_REDIS(server_ptr);
    const RedisServer& server = *server_ptr;
    REQUIRE(run(server, {"run", "job", "--", "true"}).exit_code == 0);
    TempDir dir;
    const std::string file = dir / "dlock.prom";
    write_file(file, "old\n", 0644);
    // A reader sees the old file or a complete new one, never a part.
    std::atomic<bool> done{false};
    std::atomic<int> torn{0};
    std::thread reader([&] {
        while (!done) {
            const std::string text = read_file(file);
            if (text != "old\n" &&
                !(text.starts_with("# HELP dlock_up") &&
                  text.find("dlock_lease_ttl_seconds{name=\"job\"} 0\n") != std::string::npos))
                ++torn;
        }
    });
    for (int i = 0; i < 20; ++i)
        CHECK(run(server, {"metrics", "job", "--output", file}).exit_code == 0);
    done = true;
    reader.join();
    CHECK(torn == 0);
    const std::string written = read_file(file);
    CHECK(written.find("dlock_runs_total{name=\"job\",outcome=\"ok\"}") != std::string::npos);
    // A write that fails (a file size limit of one block: EFBIG, and room for the error line) keeps
    // the file and leaves no temporary.
    Process limited({"-c", "trap '' XFSZ; ulimit -f 1; exec \"$@\"", "sh", dlock_binary(),
                     "--redis", server.url(), "metrics", "job", "--output", file},
                    clean_env(), "/bin/sh");
    const auto r = limited.wait();
    CHECK(r.exit_code == 73);
    INFO(r.err);
    CHECK(one_line(r.err));
    CHECK(r.err.find(file) != std::string::npos);
    CHECK(read_file(file) == written);
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path()))
        ++entries;
    CHECK(entries == 1);
    // A directory that does not exist: one line naming the file, 73.
    const auto missing = run(server, {"metrics", "--output", dir / "no/such/dlock.prom"});
    CHECK(missing.exit_code == 73);
    CHECK(one_line(missing.err));
    CHECK(missing.err.find("no/such/dlock.prom") != std::string::npos);
}

TEST_CASE("metrics: under Redlock the counts and the holder are the majority's", "[metrics]") {
    Members members;
    for (int i = 0; i < 3; ++i) {
        members.push_back(RedisServer::start());
        if (!members.back()) {
            WARN("redis-server is not installed: skipped");
            return;
        }
    }
    CHECK(run_raw(on_members(members, {"run", "job", "--", "true"})).exit_code == 0);
    CHECK(run_raw(on_members(members, {"run", "job", "--", "true"})).exit_code == 0);
    CHECK(run_raw(on_members(members, {"run", "job", "--", "false"})).exit_code == 1);
    Process holder(on_members(members, {"run", "job", "--", "sleep", "60"}), clean_env());
    REQUIRE(eventually(
        [&] {
            return run_raw(on_members(members, {"status", "job"})).exit_code == 0;
        },
        20s));
    const auto r = run_raw(on_members(members, {"metrics"}));
    holder.signal(SIGTERM);
    holder.wait();
    REQUIRE(r.exit_code == 0);
    const auto m = parse_metrics(r.out);
    if (!m.parser) {
        WARN("python3-prometheus-client is not installed: the output is not parsed");
        return;
    }
    CHECK(m.at(sample("dlock_runs_total", "name=job,outcome=ok")) == 2);
    CHECK(m.at(sample("dlock_runs_total", "name=job,outcome=failed")) == 1);
    CHECK(m.at(sample("dlock_last_run_exit_code", "name=job")) == 1);
    CHECK(m.at(sample("dlock_holders", "name=job")) == 1);
    CHECK(m.at(sample("dlock_lease_ttl_seconds", "name=job")) > 0);
}
