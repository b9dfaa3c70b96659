// `dlock history`: what `dlock run` leaves there (runs, skips, timed-out waits, lost leases),
// newest first, as a table and as JSON.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The "event" of each entry of `history --json` output, in order.
std::vector<std::string> events(const std::string& json) {
    std::vector<std::string> out;
    const std::string tag = "\"event\":\"";
    for (auto at = json.find(tag); at != std::string::npos; at = json.find(tag, at + 1)) {
        const auto start = at + tag.size();
        out.push_back(json.substr(start, json.find('"', start) - start));
    }
    return out;
}

using Strings = std::vector<std::string>;

} // namespace

TEST_CASE("history records a run, a skip, a timed-out wait and a lost lease, newest first",
          "[e2e][history]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = run(*server, {"history", "job"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "no history for job\n");

    REQUIRE(run(*server, {"run", "job", "--", "sh", "-c", "exit 3"}).exit_code == 3);

    auto holder = start_holder(*server, dir, "job", {"--ttl", "3s"});
    const std::string holder_pid = std::to_string(holder->pid());
    REQUIRE(run(*server, {"run", "job", "--", "true"}).exit_code == 75);
    REQUIRE(run(*server, {"run", "-w", "300ms", "job", "--", "true"}).exit_code == 75);
    server->cmd({"DEL", key("job")}); // the lease is lost: the holder is stopped
    auto lost = holder->wait(15s);
    REQUIRE(lost.exit_code == 76);

    r = run(*server, {"history", "job", "--json"});
    INFO("stdout:\n" << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(events(r.out) == Strings{"lost", "skip", "skip", "acquire", "release", "acquire"});
    const auto entries = lines(r.out);
    REQUIRE(entries.size() == 8); // "[", six entries, "]"
    CHECK(entries[0] == "[");
    CHECK(entries[7] == "]");
    // The lost lease: the holder, its exit status, how long it held the lease.
    CHECK(contains(entries[1], "\"pid\":" + holder_pid + ","));
    CHECK(contains(entries[1], "\"exit_status\":76"));
    CHECK(contains(entries[1], "\"duration_ms\":"));
    // The timed-out wait and the no-wait skip name the holder.
    CHECK(contains(entries[2], "\"waited_ms\":300"));
    CHECK(contains(entries[2], "\"other_pid\":" + holder_pid + ","));
    CHECK(contains(entries[3], "\"other_pid\":" + holder_pid + ","));
    CHECK(contains(entries[3], "\"command\":\"true\""));
    CHECK_FALSE(contains(entries[3], "waited_ms"));
    // The first run: exit status 3 and a duration.
    CHECK(contains(entries[5], "\"exit_status\":3}"));
    CHECK(contains(entries[5], "\"command\":\"sh -c exit 3\""));
    for (const auto& e : std::vector<std::string>(entries.begin() + 1, entries.end() - 1)) {
        CHECK(e.rfind("{\"id\":\"", 0) == 0);
        CHECK(contains(e, "\"time_ms\":"));
        CHECK(contains(e, "\"host\":\"" + this_host() + "\""));
    }

    r = run(*server, {"history", "job", "-n", "2"});
    CHECK(r.exit_code == 0);
    const auto table = lines(r.out);
    REQUIRE(table.size() == 3);
    CHECK(columns(table[0]) ==
          Strings{"TIME", "EVENT", "HOST", "PID", "USER", "TOKEN", "DURATION", "EXIT", "DETAILS"});
    const auto lost_row = columns(table[1]);
    CHECK(lost_row[2] == "lost");
    CHECK(lost_row[4] == holder_pid);
    CHECK(lost_row[8] == "76");
    CHECK(contains(table[2], "skip"));
    CHECK(contains(table[2], "waited 300ms; held by " + this_host() + " (pid " + holder_pid));
}
