// `dlock release --force`: breaks a lock held by someone else; the holder is stopped at its
// next renewal (76), the waiters are woken, and the forcer is in the history.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("release --force stops the running holder with 76, wakes a waiter and is recorded",
          "[e2e][force]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holding(*server, dir, "job", {"--ttl", "3s"});
    const pid_t command = read_pid(dir / "job.held");
    auto waiter = start(*server, {"run", "-w", "30s", "job", "--", "touch", dir / "waiter-ran"});
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));

    const auto forced = Clock::now();
    auto r = run(*server, {"release", "--force", "job"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto out = lines(r.out);
    REQUIRE(out.size() == 2);
    CHECK(out[0].rfind("released job (exclusive) held by " + this_host() + " (pid " +
                           std::to_string(holder->pid()) + ", since ",
                       0) == 0);
    CHECK(out[1] == "woke 1 waiter");

    // The waiter is woken at once; the holder notices at its next renewal (every TTL/3 = 1s).
    auto w = waiter->wait(10s);
    CHECK(w.exit_code == 0);
    CHECK(file_exists(dir / "waiter-ran"));
    CHECK(since(forced) < 3s);
    auto h = holder->wait(15s);
    INFO("holder stderr: " << h.err);
    CHECK(h.exit_code == 76);
    CHECK(since(forced) < 6s);
    CHECK(process_gone(command));
    CHECK(contains(h.err, "dlock: lost the lease on job"));

    r = run(*server, {"history", "job", "--json"});
    const auto force_entry = lines_with(r.out, "\"event\":\"force\"");
    REQUIRE(force_entry.size() == 1);
    CHECK(contains(force_entry[0], "\"host\":\"" + this_host() + "\""));
    CHECK(contains(force_entry[0], "\"command\":\"dlock release --force job\""));
    CHECK(contains(force_entry[0], "\"other_pid\":" + std::to_string(holder->pid()) + ","));
    CHECK(contains(force_entry[0], "\"woken\":1"));
    const auto lost = lines_with(r.out, "\"event\":\"lost\"");
    REQUIRE(lost.size() == 1);
    CHECK(contains(lost[0], "\"exit_status\":76"));

    r = run(*server, {"release", "--force", "job"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "job is not held; nothing to release\n");
}
