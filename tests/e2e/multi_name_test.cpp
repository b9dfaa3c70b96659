// `dlock run a b c -- CMD`: all names or none, no deadlock between callers listing the same
// names in different orders, renewals while waiting, loss of any one lease, what the command
// gets, shared multi-name runs and re-entry.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

int64_t zcard(const RedisServer& server, const std::string& k) {
    return server.cmd({"ZCARD", k}).integer();
}

// The lock hashes in Redis right now.
int64_t lock_keys(const RedisServer& server) {
    return static_cast<int64_t>(server.cmd({"KEYS", "*:lock"}).size());
}

} // namespace

TEST_CASE("a multi-name run with one name busy runs nothing and holds nothing", "[e2e][multi]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Fencing counters exist from earlier runs; only lock hashes come and go.
    REQUIRE(run(*server, {"run", "a", "c", "--", "true"}).exit_code == 0);
    auto holder = start_holder(*server, dir, "b");
    const auto keys_before = dbsize(*server);

    SECTION("without waiting") {
        // -v: stderr is not a terminal, where a skip is silent (the other lines are about a).
        auto r = run(*server, {"-v", "run", "c", "b", "a", "--", "touch", dir / "ran"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 75);
        const auto refusals = lines_with(r.err, " is held by ");
        REQUIRE(refusals.size() == 1);
        CHECK(refusals[0].rfind("dlock: b is held by ", 0) == 0);
        CHECK(r.err.find(holder_token(dir, "b")) == std::string::npos); // no token in refusals
        CHECK(r.err.find("not running touch") != std::string::npos);
    }
    SECTION("with a wait that runs out, and -E") {
        auto r =
            run(*server, {"run", "-w", "1s", "-E", "9", "a", "b", "c", "--", "touch", dir / "ran"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 9);
        CHECK(r.elapsed >= 900ms);
        CHECK(r.elapsed < 8s);
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.find("timed out after 1s waiting for b, held by") != std::string::npos);
        CHECK(zcard(*server, key("b", "queue")) == 0);
    }
    CHECK_FALSE(file_exists(dir / "ran"));
    // a was taken and given back; c was never reached; b is still the holder's.
    CHECK_FALSE(exists(*server, key("a")));
    CHECK_FALSE(exists(*server, key("c")));
    CHECK(lock_keys(*server) == 1);
    INFO("keys: " << all_keys(*server));
    // The only new key: b's run counters, which counted the skip.
    CHECK(dbsize(*server) == keys_before + 1);
    CHECK(exists(*server, key("b", "runs")));
    // The other names are free at once.
    CHECK(run(*server, {"run", "a", "c", "--", "true"}).exit_code == 0);
    let_go(dir, {holder.get()});
    CHECK(run(*server, {"run", "a", "b", "c", "--", "true"}).exit_code == 0);
    CHECK(lock_keys(*server) == 0);
}

TEST_CASE("callers listing the same names in opposite orders never deadlock nor overlap",
          "[e2e][multi]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    constexpr int kRounds = 15;
    // Each section claims a directory per name it holds (mkdir fails if another holds it).
    const std::string section =
        "for n in $DLOCK_NAME; do mkdir \"$D/held-$n\" || echo \"overlap $n\" >> \"$D/bad\"; "
        "done; sleep 0.01; for n in $DLOCK_NAME; do rmdir \"$D/held-$n\"; done; "
        "echo \"$DLOCK_NAME\" >> \"$D/done\"";
    auto loop = [&](const std::string& names) {
        return std::make_unique<Process>(
            std::vector<std::string>{"-c",
                                     "i=0; while [ $i -lt " + std::to_string(kRounds) +
                                         " ]; do \"$DLOCK_BIN\" --redis \"$URL\" run -w 30s " +
                                         names + " -c \"$SECTION\" || exit $?; i=$((i+1)); done"},
            clean_env({{"D", dir.path()},
                       {"DLOCK_BIN", dlock_binary()},
                       {"URL", server->url()},
                       {"SECTION", section}}),
            "/bin/sh");
    };
    const auto started = Clock::now();
    std::vector<std::unique_ptr<Process>> loops;
    loops.push_back(loop("a b"));
    loops.push_back(loop("b a"));
    loops.push_back(loop("b"));
    loops.push_back(loop("c b a"));
    for (auto& p : loops) {
        auto r = p->wait(90s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
    // A deadlock would have ended in 30 s timeouts.
    CHECK(since(started) < 60s);
    INFO("overlaps: " << read_file(dir / "bad"));
    CHECK_FALSE(file_exists(dir / "bad"));
    CHECK(lines(read_file(dir / "done")).size() == 4 * kRounds);
    CHECK(lock_keys(*server) == 0);
    CHECK(zcard(*server, key("a", "queue")) == 0);
    CHECK(zcard(*server, key("b", "queue")) == 0);
}

TEST_CASE("a multi-name command gets every name and one fencing token per name",
          "[e2e][multi][env]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto dlock = start(*server,
                       {"run", "c", "a", "b=x", "a", "-c",
                        "env > \"$D/env.tmp\"; mv \"$D/env.tmp\" \"$D/env\"; " + kAwaitGo},
                       {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "env"); }));
    auto env = parse_env(read_file(dir / "env"));
    // Command-line order; a name given twice is taken once.
    CHECK(env["DLOCK_NAME"] == "c a b=x");
    const auto fence = [&](const std::string& name) { return hget(*server, key(name), "fence"); };
    CHECK(env["DLOCK_FENCING_TOKENS"] ==
          "c=" + fence("c") + " a=" + fence("a") + " b=x=" + fence("b=x"));
    CHECK(env["DLOCK_FENCING_TOKEN"] == fence("c"));
    const auto owner = env["DLOCK_OWNER"];
    CHECK(env["DLOCK_HELD"] == owner + ":c " + owner + ":a " + owner + ":b=x");
    for (const std::string name : {"a", "c", "b=x"}) {
        CHECK(hget(*server, key(name), "owner") == owner);
        CHECK(hget(*server, key(name), "holds") == "1");
        CHECK(hget(*server, key(name), "pid") == std::to_string(dlock->pid()));
    }
    touch(dir / "go");
    CHECK(dlock->wait(10s).exit_code == 0);
    CHECK(lock_keys(*server) == 0);
}

TEST_CASE("a single-name command gets DLOCK_FENCING_TOKENS too", "[e2e][multi][env]") {
    REQUIRE_REDIS(server);
    auto r =
        run(*server, {"run", "job", "-c", "echo \"$DLOCK_FENCING_TOKENS|$DLOCK_FENCING_TOKEN\""});
    REQUIRE(r.exit_code == 0);
    const auto out = trim(r.out);
    const auto bar = out.find('|');
    REQUIRE(bar != std::string::npos);
    CHECK(out.substr(0, bar) == "job=" + out.substr(bar + 1));
    CHECK(out.substr(bar + 1) == std::string(server->cmd({"GET", key("job", "fence")}).str()));
}

TEST_CASE("losing the lease on any one name stops the command with 76", "[e2e][multi][lost]") {
    REQUIRE_REDIS(server);
    const std::string victim = GENERATE(as<std::string>(), "a", "b");
    INFO("deleted: " << victim);
    TempDir dir;
    auto dlock = start(*server,
                       {"run", "--ttl", "3s", "a", "b", "-c",
                        "trap 'echo TERM > \"$D/lost\"; exit 0' TERM; echo $$ > \"$D/pid\"; "
                        "sleep 60 & wait"},
                       {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    const auto stolen = Clock::now();
    server->cmd({"DEL", key(victim)});
    auto r = dlock->wait(15s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(since(stolen) < 6s); // noticed at the next renewal (every TTL/3)
    CHECK(trim(read_file(dir / "lost")) == "TERM");
    CHECK(process_gone(command));
    CHECK(r.err.find("dlock: lost the lease on " + victim + ":") != std::string::npos);
    // The other lease was released too.
    CHECK(lock_keys(*server) == 0);
}

TEST_CASE("the names held stay held while a later one is awaited longer than the TTL",
          "[e2e][multi][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "b");
    auto dlock = start(*server,
                       {"run", "--ttl", "1s", "-w", "20s", "a", "b", "-c",
                        "echo \"$DLOCK_FENCING_TOKENS\" > \"$D/tokens\""},
                       {{"D", dir.path()}});
    REQUIRE(eventually([&] { return zcard(*server, key("b", "queue")) == 1; }));
    const std::string a_token = hget(*server, key("a"), "fence");
    REQUIRE_FALSE(a_token.empty());

    // Three lease lengths later a is still held, by the same lease, kept alive by renewals.
    std::this_thread::sleep_for(3s);
    CHECK(dlock->running());
    CHECK(hget(*server, key("a"), "fence") == a_token);
    const auto pttl = server->cmd({"PTTL", key("a")}).integer();
    CHECK(pttl > 0);
    CHECK(pttl <= 1000);
    // Nobody else gets a meanwhile.
    CHECK(run(*server, {"run", "a", "--", "true"}).exit_code == 75);

    let_go(dir, {holder.get()});
    auto r = dlock->wait(10s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto tokens = trim(read_file(dir / "tokens"));
    CHECK(tokens.rfind("a=" + a_token + " b=", 0) == 0);
    CHECK(lock_keys(*server) == 0);
}

TEST_CASE("a lease lost while a later name is awaited ends the wait", "[e2e][multi][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "b");
    auto dlock =
        start(*server, {"run", "--ttl", "3s", "-w", "30s", "a", "b", "--", "touch", dir / "ran"});
    REQUIRE(eventually([&] { return zcard(*server, key("b", "queue")) == 1; }));
    const auto stolen = Clock::now();
    server->cmd({"DEL", key("a")});
    auto r = dlock->wait(15s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 75);
    CHECK(since(stolen) < 5s); // the next renewal of a (1 s), then at most one wait round
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("lost the lease on a before all names were held") != std::string::npos);
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(zcard(*server, key("b", "queue")) == 0);
    let_go(dir, {holder.get()});
    CHECK(lock_keys(*server) == 0);
}

TEST_CASE("a signal while a later name is awaited gives the names taken back",
          "[e2e][multi][wait]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "b");
    auto dlock = start(*server, {"run", "-w", "30s", "a", "b", "--", "touch", dir / "ran"});
    REQUIRE(eventually([&] { return zcard(*server, key("b", "queue")) == 1; }));
    REQUIRE(exists(*server, key("a")));
    const auto signalled = Clock::now();
    dlock->signal(SIGTERM);
    auto r = dlock->wait(10s);
    CHECK(r.exit_code == 128 + SIGTERM);
    CHECK(since(signalled) < 3s); // within one wait round (1 s)
    CHECK_FALSE(exists(*server, key("a")));
    CHECK(zcard(*server, key("b", "queue")) == 0);
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(run(*server, {"run", "a", "--", "true"}).exit_code == 0);
    let_go(dir, {holder.get()});
}

TEST_CASE("shared multi-name holders run together and keep writers out", "[e2e][multi][shared]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Each reader runs until both have started: only possible if they hold a and b together.
    const std::string both = "touch \"$D/r-$$\"; "
                             "while [ $(ls \"$D\" | grep -c '^r-') -lt 2 ]; do sleep 0.02; done; " +
                             kAwaitGo;
    auto r1 = start(*server, {"run", "-s", "a", "b", "-c", both}, {{"D", dir.path()}});
    auto r2 = start(*server, {"run", "-s", "-w", "10s", "b", "a", "-c", both}, {{"D", dir.path()}});
    REQUIRE(eventually([&] { return zcard(*server, key("a", "readers")) == 2; }));
    REQUIRE(eventually([&] { return zcard(*server, key("b", "readers")) == 2; }));
    auto writer = run(*server, {"-v", "run", "b", "--", "true"});
    CHECK(writer.exit_code == 75);
    CHECK(writer.err.find("b is held shared by ") != std::string::npos);
    CHECK(writer.err.find(") and 1 more; not running") != std::string::npos);
    CHECK(run(*server, {"run", "-x", "a", "c", "--", "true"}).exit_code == 75);
    CHECK(run(*server, {"run", "-s", "a", "c", "--", "true"}).exit_code == 0);
    touch(dir / "go");
    CHECK(r1->wait(10s).exit_code == 0);
    CHECK(r2->wait(10s).exit_code == 0);
    CHECK_FALSE(exists(*server, key("a", "readers")));
    CHECK_FALSE(exists(*server, key("b", "readers")));
    CHECK(run(*server, {"run", "a", "b", "--", "true"}).exit_code == 0);
}

TEST_CASE("a multi-name run inside a held name re-enters it and takes the others",
          "[e2e][multi][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = run(*server,
                 {"run", "b", "-c",
                  "echo $DLOCK_FENCING_TOKEN > \"$D/outer\"; "
                  "\"$DLOCK_BIN\" --redis \"$URL\" run -n a b c -c "
                  "'echo \"$DLOCK_FENCING_TOKENS\" > \"$D/inner\"; "
                  "redis-cli -s \"$SOCK\" HGET dlock:{b}:lock holds > \"$D/holds\"'"},
                 [&] {
                     auto env = nested_env(*server, dir);
                     env["SOCK"] = server->socket_path();
                     return env;
                 }());
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    const auto outer = trim(read_file(dir / "outer"));
    const auto inner = trim(read_file(dir / "inner"));
    CHECK(inner.find(" b=" + outer + " ") != std::string::npos);
    CHECK(trim(read_file(dir / "holds")) == "2");
    CHECK(lock_keys(*server) == 0);
}
