// Concurrent dlock processes on one name never run their commands at the same time.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("concurrent waiters run their critical sections one at a time", "[e2e][mutex]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    constexpr int kProcesses = 6;
    const std::string section = "echo \"start $$ $DLOCK_FENCING_TOKEN\" >> \"$D/log\"; sleep 0.2; "
                                "echo \"end $$ $DLOCK_FENCING_TOKEN\" >> \"$D/log\"";
    const auto started = Clock::now();
    std::vector<std::unique_ptr<Process>> procs;
    for (int i = 0; i < kProcesses; ++i)
        procs.push_back(
            start(*server, {"run", "-w", "30s", "mx", "-c", section}, {{"D", dir.path()}}));
    for (auto& p : procs) {
        auto r = p->wait(40s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
    // Six sections of 0.2 s each, one after the other.
    CHECK(since(started) >= 1100ms);

    for (const auto& s : check_sections_in_turn(dir / "log", kProcesses))
        CHECK(s.start_token == s.end_token); // the lease it began with, to its end
    CHECK_FALSE(exists(*server, key("mx")));
}

TEST_CASE("of several simultaneous no-wait runs exactly one gets the lock", "[e2e][mutex]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    constexpr int kProcesses = 6;
    std::vector<std::unique_ptr<Process>> procs;
    for (int i = 0; i < kProcesses; ++i)
        procs.push_back(start(*server,
                              {"run", "race", "-c", "echo $$ >> \"$D/winners\"; " + kAwaitGo},
                              {{"D", dir.path()}}));
    // The losers give up at once; the winner runs until told to finish.
    REQUIRE(eventually(
        [&] {
            int running = 0;
            for (auto& p : procs)
                running += p->running() ? 1 : 0;
            return running <= 1;
        },
        20s));
    touch(dir / "go");
    int won = 0, refused = 0;
    for (auto& p : procs) {
        auto r = p->wait(10s);
        INFO("stderr: " << r.err);
        won += r.exit_code == 0 ? 1 : 0;
        refused += r.exit_code == 75 ? 1 : 0;
    }
    CHECK(won == 1);
    CHECK(refused == kProcesses - 1);
    CHECK(lines(read_file(dir / "winners")).size() == 1);
    CHECK_FALSE(exists(*server, key("race")));
}

TEST_CASE("different names do not exclude each other", "[e2e][mutex]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Both run until both have started: only possible if they hold their locks together.
    const std::string both = "touch \"$D/$DLOCK_NAME\"; "
                             "while [ ! -e \"$D/a\" ] || [ ! -e \"$D/b\" ]; do sleep 0.02; done";
    auto a = start(*server, {"run", "a", "-c", both}, {{"D", dir.path()}});
    auto b = start(*server, {"run", "b", "-c", both}, {{"D", dir.path()}});
    CHECK(a->wait(15s).exit_code == 0);
    CHECK(b->wait(15s).exit_code == 0);
}
