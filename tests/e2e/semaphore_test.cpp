// `dlock sem run` / `dlock sem status` through the binary: never more than N holders, crashed
// holders' permits come back, refusals name the holders, waits end promptly after a release,
// conflicting limits change nothing, and the command gets DLOCK_PERMIT.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"

#include <algorithm>
#include <map>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Starts a holder of one of `permits` permits of pool that keeps it until "$D/go" exists, and
// returns once its command runs (it writes its pid to "$D/<tag>").
std::unique_ptr<Process> start_permit_holder(const RedisServer& server, const TempDir& dir,
                                             const std::string& tag, const std::string& permits) {
    auto holder = start(
        server,
        {"sem", "run", "-p", permits, "pool", "-c", "echo $$ > \"$D/" + tag + "\"; " + kAwaitGo},
        {{"D", dir.path()}});
    wait_for_line(dir / tag);
    return holder;
}

int64_t zcard(const RedisServer& server, const std::string& k) {
    return server.cmd({"ZCARD", k}).integer();
}

std::map<std::string, std::string> env_lines(const std::string& text) {
    std::map<std::string, std::string> out;
    for (const auto& line : lines(text))
        if (auto eq = line.find('='); eq != std::string::npos)
            out[line.substr(0, eq)] = line.substr(eq + 1);
    return out;
}

} // namespace

TEST_CASE("a semaphore of 3 never has more than 3 holders among 10 processes", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Each holder adds a marker, counts the markers present, stays a while, removes its own.
    const std::string body = "touch \"$D/in.$$\"; ls \"$D\" | grep -c '^in\\.' >> \"$D/counts\"; "
                             "sleep 0.3; rm \"$D/in.$$\"";
    std::vector<std::unique_ptr<Process>> procs;
    for (int i = 0; i < 10; ++i)
        procs.push_back(start(*server, {"sem", "run", "-p", "3", "-w", "60s", "pool", "-c", body},
                              {{"D", dir.path()}}));
    for (auto& p : procs) {
        auto r = p->wait(60s);
        INFO(r.err);
        CHECK(r.exit_code == 0);
    }
    const auto counts = lines(read_file(dir / "counts"));
    INFO(read_file(dir / "counts"));
    REQUIRE(counts.size() == 10);
    int most = 0;
    for (const auto& c : counts)
        most = std::max(most, std::stoi(c));
    CHECK(most <= 3);
    CHECK(most >= 2); // they did run side by side
    CHECK_FALSE(exists(*server, key("pool", "permits")));
    CHECK_FALSE(exists(*server, key("pool", "squeue")));
}

TEST_CASE("a SIGKILLed holder's permit comes back after its TTL", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start(
        *server,
        {"sem", "run", "-p", "1", "--ttl", "1s", "pool", "-c", "echo $$ > \"$D/pid\"; sleep 30"},
        {{"D", dir.path()}});
    const pid_t command = read_pid(dir / "pid");
    holder->signal(SIGKILL);
    holder->wait(5s);
    REQUIRE(eventually([&] { return process_gone(command); }, 5s));
    CHECK(zcard(*server, key("pool", "permits")) == 1); // nobody released it

    auto r = run(*server, {"sem", "run", "-p", "1", "-w", "10s", "pool", "--", "true"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.elapsed < 3s); // the 1 s lease, not the 10 s wait
}

TEST_CASE("a permit is renewed while its command runs longer than the TTL", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    auto holder =
        start(*server, {"sem", "run", "-p", "1", "--ttl", "1s", "pool", "--", "sleep", "2.5"});
    REQUIRE(eventually([&] { return exists(*server, key("pool", "permits")); }));
    std::this_thread::sleep_for(2s); // two leases later
    auto r = run(*server, {"sem", "run", "-p", "1", "pool", "--", "true"});
    CHECK(r.exit_code == 75);
    auto h = holder->wait(10s);
    INFO(h.err);
    CHECK(h.exit_code == 0);
    CHECK(h.err.empty());
}

TEST_CASE("a SIGKILLed waiter at the head of the queue does not stall the next one", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_permit_holder(*server, dir, "holder", "1");
    auto head = start(*server, {"sem", "run", "-p", "1", "-w", "30s", "pool", "--", "true"});
    REQUIRE(eventually([&] { return zcard(*server, key("pool", "squeue")) == 1; }));
    auto next =
        start(*server, {"sem", "run", "-p", "1", "-w", "30s", "pool", "--", "touch", dir / "ran"});
    REQUIRE(eventually([&] { return zcard(*server, key("pool", "squeue")) == 2; }));
    head->signal(SIGKILL);
    head->wait(5s);
    touch(dir / "go");
    REQUIRE(holder->wait(10s).exit_code == 0);
    const auto released = Clock::now();
    auto r = next->wait(15s);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "ran"));
    // At most the 3 s heartbeat of the dead waiter, plus one 1 s round.
    CHECK(since(released) < 5s);
}

TEST_CASE("sem run -n refuses with 75 and names the holders", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto a = start_permit_holder(*server, dir, "a", "2");
    auto b = start_permit_holder(*server, dir, "b", "2");

    auto r = run(*server, {"-v", "sem", "run", "-p", "2", "pool", "--", "touch", dir / "ran"});
    INFO(r.err);
    CHECK(r.exit_code == 75);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("dlock: pool is at its limit of 2 permits, held by ") == 0);
    CHECK(r.err.find("pid " + std::to_string(a->pid())) != std::string::npos);
    CHECK(r.err.find("pid " + std::to_string(b->pid())) != std::string::npos);
    CHECK(r.err.find("; not running touch") != std::string::npos);
    CHECK_FALSE(file_exists(dir / "ran"));

    r = run(*server, {"sem", "run", "-E", "3", "-p", "2", "pool", "--", "true"});
    CHECK(r.exit_code == 3);

    let_go(dir, {a.get(), b.get()});
}

TEST_CASE("sem run -w gets a permit promptly after a release", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const Env env{{"D", dir.path()}};
    auto holder = start_permit_holder(*server, dir, "holder", "1");
    auto waiter = start(
        *server, {"sem", "run", "-p", "1", "-w", "20s", "pool", "--", "touch", dir / "ran"}, env);
    REQUIRE(eventually([&] { return exists(*server, key("pool", "squeue")); }));
    std::this_thread::sleep_for(300ms);
    CHECK_FALSE(file_exists(dir / "ran"));

    touch(dir / "go");
    REQUIRE(holder->wait(10s).exit_code == 0);
    const auto released = Clock::now();
    REQUIRE(eventually([&] { return file_exists(dir / "ran"); }, 5s));
    CHECK(since(released) < 800ms); // woken by the release, not by its 1 s heartbeat round
    CHECK(waiter->wait(10s).exit_code == 0);
}

TEST_CASE("sem run -w gives up with 75 when no permit comes free", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_permit_holder(*server, dir, "holder", "1");
    auto r = run(*server, {"sem", "run", "-p", "1", "-w", "500ms", "pool", "--", "true"});
    CHECK(r.exit_code == 75);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find("timed out after 500ms waiting for pool, at its limit of 1 permit") !=
          std::string::npos);
    CHECK_FALSE(exists(*server, key("pool", "squeue")));
    let_go(dir, {holder.get()});
}

TEST_CASE("a different -p while holders exist exits 64 and changes nothing", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_permit_holder(*server, dir, "holder", "2");
    const auto keys_before = dbsize(*server);
    const auto limit_before = hget(*server, key("pool", "sem"), "limit");

    for (const auto& wait : std::vector<std::vector<std::string>>{{"-n"}, {"-w", "10s"}}) {
        std::vector<std::string> args{"sem", "run"};
        args.insert(args.end(), wait.begin(), wait.end());
        args.insert(args.end(), {"-p", "3", "pool", "--", "touch", dir / "ran"});
        auto r = run(*server, args);
        INFO(r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.find("dlock: cannot take pool: the semaphore has 2 permits (1 held), not 3") ==
              0);
        CHECK(r.elapsed < 5s);
    }
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(dbsize(*server) == keys_before);
    CHECK(hget(*server, key("pool", "sem"), "limit") == limit_before);
    CHECK(zcard(*server, key("pool", "permits")) == 1);

    touch(dir / "go");
    REQUIRE(holder->wait(10s).exit_code == 0);
    // Nobody holds it now: the new limit takes effect.
    CHECK(run(*server, {"sem", "run", "-p", "3", "pool", "--", "true"}).exit_code == 0);
}

TEST_CASE("sem run gives the command DLOCK_PERMIT and the lease variables", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start(*server,
                        {"sem", "run", "-p", "2", "--ttl", "4s", "pool", "-c",
                         "env > \"$D/env.tmp\"; mv \"$D/env.tmp\" \"$D/env\"; " + kAwaitGo},
                        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "env"); }));
    auto env = env_lines(read_file(dir / "env"));
    const std::string permit = env["DLOCK_PERMIT"];
    CHECK(permit.size() == 16);
    CHECK(env["DLOCK_NAME"] == "pool");
    CHECK(env["DLOCK_TTL_MS"] == "4000");
    CHECK(env["DLOCK_OWNER"].size() == 32);
    CHECK(env.count("DLOCK_HELD") == 0); // a permit is not re-entered
    // They describe the permit held right now.
    CHECK(server->cmd({"ZSCORE", key("pool", "permits"), permit}).is_string());
    const auto info = hget(*server, key("pool", "sem"), "p:" + permit);
    CHECK(info.starts_with(env["DLOCK_OWNER"] + "\t"));
    CHECK(info.ends_with("\t" + env["DLOCK_FENCING_TOKEN"]));
    CHECK(info.find("\t" + std::to_string(holder->pid()) + "\t") != std::string::npos);
    let_go(dir, {holder.get()});
    CHECK_FALSE(exists(*server, key("pool", "sem")));
}

TEST_CASE("sem run -v logs the permit it took, not a shared lock", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto other = start_permit_holder(*server, dir, "other", "3");
    auto r = run(*server, {"-v", "sem", "run", "-p", "3", "pool", "--", "sh", "-c",
                           "echo $DLOCK_PERMIT $DLOCK_FENCING_TOKEN"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    const auto ids = columns(trim(r.out));
    REQUIRE(ids.size() == 2);
    CHECK(contains(r.err, "dlock: acquired a permit of pool (permit " + ids[0] +
                              ", 2 of 3 held, token " + ids[1] + ")\n"));
    CHECK_FALSE(contains(r.err, "shared"));
    let_go(dir, {other.get()});
}

TEST_CASE("a permit lost while running stops the command with 76", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start(*server,
                        {"sem", "run", "-p", "1", "--ttl", "3s", "pool", "-c",
                         "trap 'echo TERM > \"$D/lost\"; exit 0' TERM; "
                         "sleep 60 & echo $$ > \"$D/pid\"; wait"},
                        {{"D", dir.path()}});
    read_pid(dir / "pid");
    server->cmd({"DEL", key("pool", "permits"), key("pool", "sem")});
    auto r = holder->wait(15s);
    INFO(r.err);
    CHECK(r.exit_code == 76);
    CHECK(trim(read_file(dir / "lost")) == "TERM");
    CHECK(r.err.find("dlock: lost the lease on pool") != std::string::npos);
}

TEST_CASE("a nested sem run takes another permit", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    // -v: the inner dlock's refusal is silent otherwise (its stderr is not a terminal).
    const std::string nested_head[] = {dlock_binary(), "--redis", server->url(),
                                       "-v",           "sem",     "run"};
    const std::vector<std::string> nested(std::begin(nested_head), std::end(nested_head));
    auto inside = [&](const std::string& permits) {
        std::vector<std::string> args{"sem", "run", "-p", permits, "pool", "--"};
        args.insert(args.end(), nested.begin(), nested.end());
        args.insert(args.end(), {"-p", permits, "pool", "--", "true"});
        return run(*server, args);
    };
    auto r = inside("2");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    // With one permit, the inner run finds it taken (by its own parent).
    r = inside("1");
    CHECK(r.exit_code == 75);
    CHECK(r.err.find("pool is at its limit of 1 permit, held by") != std::string::npos);
}

TEST_CASE("a lock and a semaphore of the same name are independent", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Two siblings inside one permit each take the *lock* pool: they must still exclude each
    // other (the permit's DLOCK_NAME/DLOCK_OWNER must not make them re-enter anything).
    const std::string inner = dlock_binary() + " --redis " + server->url() +
                              " -v run pool -- sh -c 'touch \"$D/inner\"; " + kAwaitGo + "'";
    auto outer = start(*server,
                       {"sem", "run", "-p", "1", "pool", "-c",
                        inner + " & while [ ! -e \"$D/inner\" ]; do sleep 0.02; done; " + inner +
                            "; echo $? > \"$D/second\"; wait"},
                       {{"D", dir.path()}});
    const auto second = wait_for_line(dir / "second");
    CHECK(second == "75");
    CHECK(hget(*server, key("pool", "lock"), "holds") == "1");
    CHECK(zcard(*server, key("pool", "permits")) == 1);
    touch(dir / "go");
    auto r = outer->wait(20s);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("pool is held by") != std::string::npos);
}

TEST_CASE("sem status shows the limit, the holders and the waiters", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const Env env{{"D", dir.path()}};

    auto r = run(*server, {"sem", "status", "pool"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "name     pool\nlimit    none\nused     0\nwaiters  0\n");
    r = run(*server, {"sem", "status", "pool", "--json"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "{\"name\":\"pool\",\"limit\":0,\"used\":0,\"waiters\":0,\"holders\":[]}\n");

    auto holder = start(*server,
                        {"sem", "run", "-p", "1", "--ttl", "20s", "pool", "-c",
                         "echo $DLOCK_PERMIT > \"$D/permit\"; " + kAwaitGo},
                        env);
    const auto permit = wait_for_line(dir / "permit");
    auto waiter = start(*server, {"sem", "run", "-p", "1", "-w", "30s", "pool", "--", "true"});
    REQUIRE(eventually([&] { return exists(*server, key("pool", "squeue")); }));

    r = run(*server, {"sem", "status", "pool"});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    const auto table = lines(r.out);
    REQUIRE(table.size() == 6);
    CHECK(table[0] == "name     pool");
    CHECK(table[1] == "limit    1");
    CHECK(table[2] == "used     1");
    CHECK(table[3] == "waiters  1");
    CHECK(table[4].starts_with("PERMIT"));
    CHECK(table[4].find("HOST") != std::string::npos);
    CHECK(table[4].ends_with("COMMAND"));
    CHECK(table[5].starts_with(permit + "  "));
    CHECK(table[5].find(" " + std::to_string(holder->pid()) + " ") != std::string::npos);
    CHECK(table[5].find("echo $DLOCK_PERMIT") != std::string::npos);

    r = run(*server, {"sem", "status", "--json", "pool"});
    CHECK(r.exit_code == 0);
    INFO(r.out);
    CHECK(r.out.starts_with("{\"name\":\"pool\",\"limit\":1,\"used\":1,\"waiters\":1,"
                            "\"holders\":[{\"permit\":\"" +
                            permit + "\",\"host\":\""));
    CHECK(r.out.find("\"pid\":" + std::to_string(holder->pid()) + ",") != std::string::npos);
    CHECK(r.out.find("\"command\":\"echo $DLOCK_PERMIT > \\\"$D/permit\\\"; ") !=
          std::string::npos);
    for (const auto* field : {"\"user\":\"", "\"since_ms\":", "\"ttl_ms\":", "\"fence\":"})
        CHECK(r.out.find(field) != std::string::npos);

    let_go(dir, {holder.get(), waiter.get()});
}

TEST_CASE("sem status and status escape a holder's control characters and stay aligned",
          "[e2e][sem][status]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The command line carries a newline, a tab and an ANSI escape (inside a quoted argument of
    // `:`, so the shell runs nothing extra).
    auto holder = start(*server,
                        {"sem", "run", "-p", "2", "--ttl", "20s", "pool", "-c",
                         "echo $DLOCK_PERMIT $DLOCK_FENCING_TOKEN > \"$D/permit\"; " + kAwaitGo +
                             "; : 'a\nb\tc\x1b[31md'"},
                        {{"D", dir.path()}});
    const auto started = columns(wait_for_line(dir / "permit"));
    REQUIRE(started.size() == 2);
    const auto& permit = started[0];
    const auto& token = started[1];
    const std::string shown = ": 'a\\nb c\\x1b[31md'"; // as shown (a tab: a space)

    auto r = run(*server, {"sem", "status", "pool"});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    for (char c : r.out)
        CHECK((c == '\n' || static_cast<unsigned char>(c) >= 0x20));
    auto table = lines(r.out);
    REQUIRE(table.size() == 6);
    const auto command_at = table[4].find("COMMAND");
    REQUIRE(command_at != std::string::npos);
    CHECK(table[5].substr(command_at).starts_with("echo $DLOCK_PERMIT"));
    CHECK(table[5].ends_with(shown));
    const auto row = columns(table[5]);
    CHECK(row[0] == permit);
    CHECK(std::find(row.begin(), row.end(), token) != row.end()); // TOKEN, not the start time

    r = run(*server, {"sem", "status", "pool", "--json"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "; : 'a\\nb c\\u001b[31md'\",\"since_ms\":"));
    CHECK(contains(r.out, ",\"fence\":" + token + "}"));
    CHECK_FALSE(contains(r.out, "\"since_ms\":0,"));

    // `dlock status` reads the same permit through lua/status.lua (--wide: the whole command and
    // the token).
    r = run(*server, {"status", "--wide", "pool"});
    for (char c : r.out)
        CHECK((c == '\n' || static_cast<unsigned char>(c) >= 0x20));
    table = lines(r.out);
    REQUIRE(table.size() == 2);
    CHECK(table[1].substr(table[0].find("COMMAND")).starts_with("echo $DLOCK_PERMIT"));
    CHECK(table[1].ends_with(shown));
    CHECK(contains(table[1], "  " + token + "  "));
    r = run(*server, {"status", "pool", "--json"});
    CHECK(contains(r.out, "; : 'a\\nb c\\u001b[31md'\",\"since_ms\":"));
    CHECK(contains(r.out, ",\"fence\":" + token + ","));

    let_go(dir, {holder.get()});
}

TEST_CASE("dlock status lists a semaphore held through sem run", "[e2e][sem][status]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto a = start_permit_holder(*server, dir, "a", "3");
    auto b = start_permit_holder(*server, dir, "b", "3");
    auto r = run(*server, {"status", "--json"});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("\"name\":\"pool\"") != std::string::npos);
    CHECK(r.out.find("\"semaphore\":{\"limit\":3,\"used\":2,\"waiters\":0,") != std::string::npos);
    CHECK(r.out.find("\"pid\":" + std::to_string(a->pid()) + ",") != std::string::npos);
    CHECK(r.out.find("\"pid\":" + std::to_string(b->pid()) + ",") != std::string::npos);
    let_go(dir, {a.get(), b.get()});
    CHECK(run(*server, {"status", "pool"}).exit_code == 1);
}

TEST_CASE("sem usage errors exit 64 and write nothing", "[e2e][sem]") {
    REQUIRE_REDIS(server);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"sem", "run", "pool", "--", "true"},
             {"sem", "run", "-p", "0", "pool", "--", "true"},
             {"sem", "run", "-p", "x", "pool", "--", "true"},
             {"sem", "run", "-p", "2", "-s", "pool", "--", "true"},
             {"sem", "run", "-p", "2", "--min-hold", "1m", "pool", "--", "true"},
             {"sem", "run", "-p", "2", "a b", "--", "true"},
             {"sem", "run", "-p", "2", "pool"},
             {"sem", "status", "bad name"},
             {"sem", "status", "pool", "--", "x"},
             {"sem"}}) {
        auto r = run(*server, args);
        INFO(args.back() << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
    }
    CHECK(dbsize(*server) == 0);
}
