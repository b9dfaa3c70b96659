// A lease that ran out while dlock could not renew it (dlock stopped, its VM frozen) or that
// was taken away (`release --force`) must never end in a successful exit: the command may have
// run beside another holder. dlock notices at release, exits 76 and records the loss.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The events of `dlock history NAME --json`, newest first.
std::vector<std::string> history_events(const RedisServer& server, const std::string& name) {
    auto r = run(server, {"history", name, "--json"});
    std::vector<std::string> events;
    for (size_t at = 0; (at = r.out.find("\"event\":\"", at)) != std::string::npos;) {
        at += 9;
        events.push_back(r.out.substr(at, r.out.find('"', at) - at));
    }
    return events;
}

} // namespace

TEST_CASE("a dlock paused past its lease while the command finished exits 76", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder =
        start(*server, {"run", "--ttl", "1s", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
              {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
    holder->signal(SIGSTOP);
    touch(dir / "go"); // the command ends while dlock is stopped
    // The lease runs out, and another host takes the lock and runs its job meanwhile.
    CHECK(eventually([&] { return !exists(*server, key("job")); }, 5s));
    auto other = run(*server, {"run", "job", "--", "true"});
    CHECK(other.exit_code == 0);

    holder->signal(SIGCONT);
    auto r = holder->wait(10s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(one_dlock_line(r.err));
    CHECK(contains(r.err, "dlock: the lease on job expired while dlock was paused"));
    const auto events = history_events(*server, "job");
    REQUIRE_FALSE(events.empty());
    CHECK(events[0] == "lost");
}

TEST_CASE("a dlock paused past its lease stops a command still running with 76", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder =
        start(*server, {"run", "--ttl", "1s", "job", "-c", "echo $$ > \"$D/pid\"; sleep 60 & wait"},
              {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    holder->signal(SIGSTOP);
    CHECK(eventually([&] { return !exists(*server, key("job")); }, 5s));
    holder->signal(SIGCONT);
    auto r = holder->wait(10s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(contains(r.err, "dlock: the lease on job expired while dlock was paused"));
    CHECK(process_gone(command));
}

TEST_CASE("a short pause within the lease changes nothing", "[e2e][pause]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder =
        start(*server, {"run", "--ttl", "10s", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
              {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
    holder->signal(SIGSTOP);
    touch(dir / "go");
    std::this_thread::sleep_for(1s);
    holder->signal(SIGCONT);
    auto r = holder->wait(10s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a lease force-released before the command ends gives 76 even without a renewal",
          "[e2e][pause][force]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // TTL 30 s: the next renewal is 10 s away, the command ends long before.
    auto holder = start(*server, {"run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
                        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
    CHECK(run(*server, {"release", "--force", "job"}).exit_code == 0);
    touch(dir / "go");
    auto r = holder->wait(10s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(one_dlock_line(r.err));
    CHECK(contains(r.err, "dlock: lost the lease on job while the command ran: it vanished from "
                          "Redis or was taken over before its expiry"));
    const auto events = history_events(*server, "job");
    REQUIRE_FALSE(events.empty());
    CHECK(events[0] == "lost");
}
