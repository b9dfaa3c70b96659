// A held lock: refusal (75, -E, the message and -q), waiting with -w (timeout, prompt hand-over
// on release, 'forever', arrival order).

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::string hostname() {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    return host;
}

} // namespace

TEST_CASE("a held lock refuses at once with 75 and names the holder", "[e2e][busy]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    const std::string token = holder_token(dir);

    for (const auto& no_wait : {std::vector<std::string>{}, std::vector<std::string>{"-n"},
                                std::vector<std::string>{"--no-wait"}}) {
        std::vector<std::string> args{"-v", "run"};
        args.insert(args.end(), no_wait.begin(), no_wait.end());
        args.insert(args.end(), {"job", "--", "touch", dir / "ran"});
        auto r = run(*server, args);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 75);
        CHECK(r.elapsed < 5s);
        CHECK(r.out.empty());
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.rfind("dlock: job is held by " + hostname() + " (pid " +
                              std::to_string(holder->pid()) + ", since ",
                          0) == 0);
        // The token is in `status --wide` and the history, not in the refusal.
        CHECK(r.err.find("token") == std::string::npos);
        CHECK(r.err.find(token) == std::string::npos);
        CHECK(r.err.find("not running touch " + (dir / "ran")) != std::string::npos);
    }
    CHECK_FALSE(file_exists(dir / "ran"));
    // Refusals change nothing: the holder still holds it, with the same token.
    CHECK(hget(*server, key("job"), "fence") == token);
    CHECK(hget(*server, key("job"), "pid") == std::to_string(holder->pid()));

    let_go(dir, {holder.get()});
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
}

TEST_CASE("the refusal status is changed with -E and silenced with -q", "[e2e][busy]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);

    SECTION("-E N") {
        for (int code : {0, 1, 9, 200, 255}) {
            auto r = run(*server, {"-v", "run", "-E", std::to_string(code), "job", "--", "true"});
            CHECK(r.exit_code == code);
            CHECK(r.err.find("job is held by") != std::string::npos);
        }
        auto r = run(*server, {"run", "--conflict-exit-code", "3", "job", "--", "true"});
        CHECK(r.exit_code == 3);
    }
    SECTION("-q") {
        auto r = run(*server, {"-q", "run", "job", "--", "true"});
        CHECK(r.exit_code == 75);
        CHECK(r.err.empty());
        r = run(*server, {"--quiet", "run", "-E", "5", "job", "--", "true"});
        CHECK(r.exit_code == 5);
        CHECK(r.err.empty());
    }
    SECTION("other names are independent") {
        auto r = run(*server, {"run", "other-job", "--", "true"});
        CHECK(r.exit_code == 0);
    }
    let_go(dir, {holder.get()});
}

TEST_CASE("a waiter gives up after the -w duration with 75", "[e2e][busy][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);

    auto r = run(*server, {"run", "-w", "1500ms", "job", "--", "touch", dir / "ran"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 75);
    CHECK(r.elapsed >= 1400ms);
    CHECK(r.elapsed < 8s);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("timed out after 1.5s waiting for job") != std::string::npos);
    CHECK(r.err.find("pid " + std::to_string(holder->pid())) != std::string::npos);
    CHECK_FALSE(file_exists(dir / "ran"));
    // A waiter that gave up leaves the queue.
    CHECK(server->cmd({"ZCARD", key("job", "queue")}).integer() == 0);

    SECTION("with -E") {
        auto e = run(*server, {"run", "-w", "500ms", "-E", "11", "job", "--", "true"});
        CHECK(e.exit_code == 11);
        CHECK(e.elapsed >= 400ms);
    }
    SECTION("with -q") {
        auto q = run(*server, {"-q", "run", "--wait", "500ms", "job", "--", "true"});
        CHECK(q.exit_code == 75);
        CHECK(q.err.empty());
    }
    let_go(dir, {holder.get()});
    // Nothing left queued to block the next run.
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
}

TEST_CASE("a waiter gets the lock promptly when the holder releases it", "[e2e][busy][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder =
        start(*server, {"run", "job", "-c", "touch \"$D/ready\"; sleep 0.5"}, {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));

    auto r = run(*server, {"run", "-w", "10s", "job", "-c", "echo got it"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "got it\n");
    CHECK(r.elapsed < 3s);
    CHECK(holder->wait(10s).exit_code == 0);
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a waiter with -w forever waits until the lock is free", "[e2e][busy][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    auto waiter = start(*server, {"run", "-w", "forever", "job", "--", "touch", dir / "ran"});
    // It queues, and stays queued well past a waiter heartbeat.
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));
    std::this_thread::sleep_for(1500ms);
    CHECK(waiter->running());
    CHECK_FALSE(file_exists(dir / "ran"));

    const auto released = Clock::now();
    let_go(dir, {holder.get()});
    auto r = waiter->wait(10s);
    CHECK(r.exit_code == 0);
    CHECK(since(released) < 3s);
    CHECK(file_exists(dir / "ran"));
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("waiters get the lock in arrival order", "[e2e][busy][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    const std::string order = dir / "order";
    std::vector<std::unique_ptr<Process>> waiters;
    for (const std::string name : {"first", "second", "third", "fourth"}) {
        waiters.push_back(
            start(*server, {"run", "-w", "30s", "job", "-c", "echo " + name + " >> \"$D/order\""},
                  {{"D", dir.path()}}));
        // Each one is queued before the next starts.
        const auto queued = static_cast<int64_t>(waiters.size());
        REQUIRE(eventually([&] {
            return server->cmd({"ZCARD", key("job", "queue")}).integer() == queued;
        }));
    }
    let_go(dir, {holder.get()});
    for (auto& w : waiters)
        CHECK(w->wait(20s).exit_code == 0);
    CHECK(read_file(order) == "first\nsecond\nthird\nfourth\n");
    // Only the fencing counter, the history and the run counters are left.
    CHECK(all_keys(*server) ==
          key("job", "fence") + " " + key("job", "history") + " " + key("job", "runs") + " ");
}

TEST_CASE("a waiter killed while queued delays the others only briefly", "[e2e][busy][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir);
    auto doomed = start(*server, {"run", "-w", "30s", "job", "--", "touch", dir / "doomed-ran"});
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));
    auto next = start(*server, {"run", "-w", "30s", "job", "--", "touch", dir / "next-ran"});
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 2; }));

    // The head of the queue dies without leaving it.
    doomed->signal(SIGKILL);
    doomed->wait(5s);
    const auto released = Clock::now();
    let_go(dir, {holder.get()});
    auto r = next->wait(20s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    // Its heartbeat lapses within 3 s; then the next waiter is served.
    CHECK(since(released) < 7s);
    CHECK(file_exists(dir / "next-ran"));
    CHECK_FALSE(file_exists(dir / "doomed-ran"));
}

TEST_CASE("nobody jumps the queue: a free lock with live waiters is refused", "[e2e][busy]") {
    REQUIRE_REDIS(server);
    // A waiter (as another dlock would register it) whose heartbeat runs for another 1.5 s.
    auto time = server->cmd({"TIME"});
    const long long now_ms = std::stoll(std::string(time[0].str())) * 1000 +
                             std::stoll(std::string(time[1].str())) / 1000;
    server->cmd({"ZADD", key("job", "queue"), "1", "someone"});
    server->cmd({"ZADD", key("job", "alive"), std::to_string(now_ms + 1500), "someone"});

    auto r = run(*server, {"-v", "run", "job", "--", "true"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 75);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("job is free, but 1 waiter is queued first") != std::string::npos);

    // Once that waiter's heartbeat has lapsed it no longer blocks anyone.
    auto w = run(*server, {"run", "-w", "10s", "job", "--", "true"});
    INFO("stderr: " << w.err);
    CHECK(w.exit_code == 0);
    CHECK(w.elapsed < 6s);
}
