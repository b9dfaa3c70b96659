// Redlock: one lease over several independent redis-servers (`--redis` given 3 or 5 times),
// driven through the binary against five private servers. What must hold: a majority is
// enough and needed, a member failing, pausing or restarting empty does not cost the lease,
// fencing tokens strictly increase across holders, and no two holders ever overlap.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"

#include <fcntl.h>
#include <mutex>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Five independent servers, each its own RedisServer.
struct Members {
    std::vector<std::unique_ptr<RedisServer>> servers;

    bool start(size_t n = 5) {
        for (size_t i = 0; i < n; ++i) {
            auto server = RedisServer::start();
            if (!server)
                return false;
            servers.push_back(std::move(server));
        }
        return true;
    }
    // `--redis URL` for each of the first `n` members, then `args`.
    std::vector<std::string> with(std::vector<std::string> args, size_t n = 5) const {
        std::vector<std::string> out;
        for (size_t i = 0; i < n; ++i)
            out.insert(out.end(), {"--redis", servers[i]->url()});
        out.insert(out.end(), args.begin(), args.end());
        return out;
    }
    size_t holding(const std::string& name) const {
        size_t n = 0;
        for (const auto& s : servers)
            n += exists(*s, key(name)) ? 1 : 0;
        return n;
    }
};

#define REQUIRE_MEMBERS(var)                                                                       \
    Members var;                                                                                   \
    DLOCK_SKIP_UNLESS_STARTED(var.start(), "redis-server", "Redis")

std::unique_ptr<Process> start_in(const Members& m, std::vector<std::string> args,
                                  const Env& env = {}, size_t n = 5) {
    return std::make_unique<Process>(m.with(std::move(args), n), clean_env(env));
}

ProcessResult run_in(const Members& m, std::vector<std::string> args, const Env& env = {},
                     size_t n = 5) {
    return run_dlock(m.with(std::move(args), n), clean_env(env));
}

} // namespace

TEST_CASE("a Redlock run holds the lease on every member and commits one fencing token",
          "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    auto r = run_in(m, {"run", "job", "--", "sh", "-c", "echo $DLOCK_FENCING_TOKEN"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const std::string token = trim(r.out);
    for (const auto& s : m.servers)
        CHECK(std::string(s->cmd({"GET", key("job", "fence")}).str()) == token);
    CHECK(m.holding("job") == 0); // released everywhere
    auto again = run_in(m, {"run", "job", "--", "sh", "-c", "echo $DLOCK_FENCING_TOKEN"});
    CHECK(std::stoll(trim(again.out)) > std::stoll(token));
}

TEST_CASE("Redlock runs with a minority of members down and refuses fast without a majority",
          "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    m.servers[0]->stop();
    m.servers[3]->stop();
    auto minority = run_in(m, {"run", "job", "--", "true"});
    INFO(minority.err);
    CHECK(minority.exit_code == 0);

    m.servers[4]->stop();
    const auto start = Clock::now();
    auto majority = run_in(m, {"run", "job", "--", "touch", "/nonexistent/ran"});
    CHECK(majority.exit_code == 69);
    CHECK(since(start) < 2s);
    // Each member's own reason, not just "no quorum".
    CHECK(majority.err.find("no majority of the 5 Redis members") != std::string::npos);
    for (int member : {1, 4, 5}) {
        INFO(majority.err);
        CHECK(majority.err.find("member " + std::to_string(member) + " (") != std::string::npos);
    }
    CHECK(std::count(majority.err.begin(), majority.err.end(), '\n') == 1);
}

TEST_CASE("a Redlock holder refuses others, and a waiter gets the lease after it",
          "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    TempDir dir;
    auto holder =
        start_in(m, {"run", "job", "-c", "touch \"$D/held\"; " + kAwaitGo}, {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }));
    auto refused = run_in(m, {"run", "job", "--", "true"});
    CHECK(refused.exit_code == 75);
    auto waiter = start_in(m, {"run", "-w", "20s", "job", "--", "touch", dir / "ran"});
    std::this_thread::sleep_for(300ms);
    CHECK(waiter->running());
    const auto released = Clock::now();
    touch(dir / "go");
    CHECK(holder->wait(10s).exit_code == 0);
    auto w = waiter->wait(20s);
    INFO(w.err);
    CHECK(w.exit_code == 0);
    CHECK(since(released) < 3s); // jittered retries, 50-250 ms apart
    CHECK(file_exists(dir / "ran"));
}

TEST_CASE("a Redlock member paused or restarted empty while held costs nothing", "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    TempDir dir;
    // TTL 2s: renewed every 667 ms; the command outlives three TTLs.
    auto holder = start_in(m, {"run", "--ttl", "2s", "job", "-c", "touch \"$D/held\"; sleep 6"},
                           {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }));
    kill(m.servers[1]->pid(), SIGSTOP);
    m.servers[2]->restart(); // no persistence: back without the lock
    CHECK_FALSE(exists(*m.servers[2], key("job")));
    // Repaired at a later renewal: the name was free there.
    CHECK(eventually([&] { return exists(*m.servers[2], key("job")); }, 3s));
    auto r = holder->wait(20s);
    kill(m.servers[1]->pid(), SIGCONT);
    INFO(r.err);
    CHECK(r.exit_code == 0);
}

TEST_CASE("release --force breaks a Redlock lease on every member and stops its holder",
          "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    TempDir dir;
    auto holder = start_in(m, {"run", "--ttl", "3s", "job", "-c", "touch \"$D/held\"; sleep 10"},
                           {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }));
    auto forced = run_in(m, {"release", "--force", "job"});
    CHECK(forced.exit_code == 0);
    CHECK(std::count(forced.out.begin(), forced.out.end(), '\n') == 5); // one line per member
    auto r = holder->wait(10s);
    CHECK(r.exit_code == 76); // never taken back: a majority lost it
    CHECK(m.holding("job") == 0);
}

TEST_CASE("Redlock holders never overlap and their tokens strictly increase", "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    TempDir dir;
    // Each critical section creates an exclusive marker (noclobber: fails if another section is
    // inside), appends its token to a log, and removes the marker.
    write_file(dir / "section.sh",
               "set -C; : > \"$D/inside\" || echo overlap >> \"$D/overlaps\"; set +C\n"
               "echo $DLOCK_FENCING_TOKEN >> \"$D/tokens\"\n"
               "sleep 0.01\n"
               "rm -f \"$D/inside\"\n",
               0700);
    std::string dlock = dlock_binary();
    for (const auto& word : m.with({"run", "-w", "60s", "job", "--", "sh", dir / "section.sh"}))
        dlock += " '" + word + "'";
    write_file(dir / "client.sh", "for i in 1 2 3 4 5 6; do " + dlock + " || exit $?; done\n",
               0700);
    std::vector<std::unique_ptr<Process>> clients;
    for (int c = 0; c < 8; ++c)
        clients.push_back(std::make_unique<Process>(std::vector<std::string>{dir / "client.sh"},
                                                    clean_env({{"D", dir.path()}}), "/bin/sh"));
    for (auto& c : clients) {
        auto r = c->wait(120s);
        INFO(r.err);
        CHECK(r.exit_code == 0);
    }
    CHECK_FALSE(file_exists(dir / "overlaps"));
    const auto tokens = lines(read_file(dir / "tokens"));
    REQUIRE(tokens.size() == 48);
    for (size_t i = 1; i < tokens.size(); ++i) {
        INFO("token " << i << ": " << tokens[i - 1] << " then " << tokens[i]);
        CHECK(std::stoll(tokens[i]) > std::stoll(tokens[i - 1]));
    }
}

TEST_CASE("Redlock tokens keep increasing when members restart empty", "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    int64_t last = 0;
    for (size_t round = 0; round < 5; ++round) {
        // A different pair of members loses everything before each run.
        m.servers[round % 5]->restart();
        m.servers[(round + 2) % 5]->restart();
        auto r = run_in(m, {"run", "job", "--", "sh", "-c", "echo $DLOCK_FENCING_TOKEN"});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        const int64_t token = std::stoll(trim(r.out));
        CHECK(token > last);
        last = token;
    }
}

TEST_CASE("a member too slow to answer does not count", "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    // Three members, one down and one paused: no majority answers within the member timeout
    // (a tenth of the TTL), so the lease is not taken, fast, naming the paused member.
    m.servers[0]->stop();
    kill(m.servers[1]->pid(), SIGSTOP);
    const auto start = Clock::now();
    auto r =
        run_in(m, {"--redis-timeout", "10s", "run", "--ttl", "2s", "job", "--", "true"}, {}, 3);
    kill(m.servers[1]->pid(), SIGCONT);
    INFO(r.err);
    CHECK(r.exit_code == 69);
    CHECK(since(start) < 3s);
    CHECK(r.err.find("member 2 (") != std::string::npos);
    CHECK(r.err.find("timed out") != std::string::npos);
    // Once it answers again, nothing was left held by the failed attempt.
    CHECK(eventually(
        [&] { return !exists(*m.servers[1], key("job")) && !exists(*m.servers[2], key("job")); },
        5s));
}

TEST_CASE("Redlock offers exclusive locks only, and an odd number of members", "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    TempDir dir;
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "-s", "job", "--", "touch", dir / "ran"},
             {"run", "--min-hold", "1m", "job", "--", "touch", dir / "ran"},
             {"sem", "run", "-p", "2", "job", "--", "touch", dir / "ran"},
             {"sem", "status", "job"},
             {"latch", "create", "job", "3"},
             {"latch", "wait", "job"},
             {"bench"}}) {
        auto r = run_in(m, args);
        INFO(args.front() << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(r.err.find("Redlock") != std::string::npos);
    }
    for (size_t n : {2, 4}) {
        auto r = run_in(m, {"run", "job", "--", "touch", dir / "ran"}, {}, n);
        CHECK(r.exit_code == 64);
        CHECK(r.err.find("odd number") != std::string::npos);
    }
    CHECK_FALSE(file_exists(dir / "ran"));
    for (const auto& s : m.servers)
        CHECK(dbsize(*s) == 0);
}

TEST_CASE("status and history under Redlock show each member and the majority", "[e2e][redlock]") {
    REQUIRE_MEMBERS(m);
    TempDir dir;
    auto holder =
        start_in(m, {"run", "job", "-c", "touch \"$D/held\"; " + kAwaitGo}, {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }));
    auto status = run_in(m, {"status"});
    INFO(status.out);
    CHECK(status.exit_code == 0);
    CHECK(status.out.find("member 5 (") != std::string::npos);
    CHECK(status.out.find("job: held by") != std::string::npos);
    CHECK(status.out.find("on 5 of 5 members") != std::string::npos);
    auto json = run_in(m, {"status", "--json"});
    CHECK(json.out.find("\"majority\":[{\"name\":\"job\",\"held\":true,\"members\":5") !=
          std::string::npos);
    CHECK(trim(run_in(m, {"status", "--names"}).out) == "job");
    touch(dir / "go");
    CHECK(holder->wait(10s).exit_code == 0);
    CHECK(run_in(m, {"status", "job"}).exit_code == 1);
    auto history = run_in(m, {"history", "job"});
    INFO(history.out);
    const auto rows = lines(history.out);
    REQUIRE(rows.size() == 3); // header, release, acquire: one line per event, not per member
    CHECK(rows[1].find("release") != std::string::npos);
    CHECK(rows[1].find("on 5/5 members") != std::string::npos);
}

namespace {

// The fencing counter of `name` on each member ("" where it is missing).
std::vector<std::string> counters(const Members& m, const std::string& name = "job") {
    std::vector<std::string> out;
    for (const auto& s : m.servers)
        out.emplace_back(s->cmd({"GET", key(name, "fence")}).str());
    return out;
}

// Runs `dlock run job` printing its token; the token (fails the test unless it ran).
int64_t token_of_run(const Members& m, const Env& env = {}) {
    auto r = run_in(m, {"run", "job", "--", "sh", "-c", "echo $DLOCK_FENCING_TOKEN"}, env);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return std::stoll(trim(r.out));
}

// A year in microseconds: a sane token is never that far past the clock.
constexpr int64_t kYearUs = 365LL * 86'400'000'000;

int64_t now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

TEST_CASE("a Redlock member with a poisoned fencing counter spreads nothing", "[e2e][redlock]") {
    // Before: at the limit, that member failed every acquire for 30 days; just below it, its
    // token (the largest) was committed to every honest member, which then overflowed too.
    const std::string poison = GENERATE("9223372036854775807", "9223372036854775000");
    INFO("member 2's counter set to " << poison);
    REQUIRE_MEMBERS(m);
    const int64_t honest = token_of_run(m);
    m.servers[1]->cmd({"SET", key("job", "fence"), poison});

    int64_t last = honest;
    for (int run = 0; run < 3; ++run) {
        const int64_t token = token_of_run(m);
        CHECK(token > last);
        CHECK(token < now_us() + kYearUs);
        // Committed on every member, the poisoned one included (it restarted from its clock).
        for (const auto& counter : counters(m))
            CHECK(counter == std::to_string(token));
        last = token;
    }
}

TEST_CASE("a Redlock member answering an absurd fencing token is outvoted", "[e2e][redlock]") {
    // Member 2 answers a token near the int64 limit: the lock there is already held by the same
    // owner (a re-entry returns the hold's recorded token), recorded with an absurd one.
    REQUIRE_MEMBERS(m);
    const std::string owner = "0123456789abcdef0123456789abcdef";
    m.servers[1]->cmd(
        {"HSET", key("job"), "owner", owner, "holds", "1", "fence", "9223372036854775000"});
    m.servers[1]->cmd({"PEXPIRE", key("job"), "60000"});
    auto r = run_in(m, {"run", "job", "--", "sh", "-c", "echo $DLOCK_FENCING_TOKEN"},
                    {{"DLOCK_HELD", owner + ":job"}});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const int64_t token = std::stoll(trim(r.out));
    CHECK(token < now_us() + kYearUs);
    // Warned about, naming the member; committed on the honest members only.
    CHECK(r.err.find("member 2 (") != std::string::npos);
    CHECK(r.err.find("9223372036854774784") != std::string::npos);
    const auto after = counters(m);
    CHECK(after[1].empty());
    for (size_t i : {0, 2, 3, 4})
        CHECK(after[i] == std::to_string(token));
    // Later runs keep working (member 2 is still held by that owner: outvoted).
    CHECK(token_of_run(m) > token);
}

TEST_CASE("acquire under Redlock holds on every member until the owner dies",
          "[e2e][redlock][acquire]") {
    REQUIRE_MEMBERS(m);
    auto sleeper = std::make_unique<Process>(std::vector<std::string>{"63"}, Env{}, "/bin/sleep");
    auto r = run_in(m, {"acquire", "--ttl", "3s", "--pid", std::to_string(sleeper->pid()), "job"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(m.holding("job") == 5);
    std::this_thread::sleep_for(4s); // past the TTL: the keeper renews on every member
    CHECK(m.holding("job") == 5);
    sleeper->signal(SIGKILL);
    CHECK(eventually([&] { return m.holding("job") == 0; }, 10s));
}

TEST_CASE("forget under Redlock with a member down says so on stderr and exits 69",
          "[e2e][redlock][forget]") {
    REQUIRE_MEMBERS(m); // three of them used
    REQUIRE(run_in(m, {"run", "job", "--", "true"}, {}, 3).exit_code == 0);
    for (size_t i = 0; i < 3; ++i)
        REQUIRE(exists(*m.servers[i], key("job", "history")));
    m.servers[1]->stop();

    auto r = run_in(m, {"forget", "job"}, {}, 3);
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 69);
    // One line, naming the member and why; the members that answered forgot it all the same.
    CHECK(one_line(r.err));
    CHECK(r.err.starts_with("dlock: member 2 ("));
    CHECK(contains(r.err, "cannot forget job: cannot reach Redis"));
    CHECK_FALSE(contains(r.out, "unreachable"));
    CHECK(contains(r.out, "member 1 ("));
    CHECK(contains(r.out, "member 3 ("));
    CHECK(lines(r.out).size() == 2);
    for (size_t i : {0, 2})
        CHECK_FALSE(exists(*m.servers[i], key("job", "history")));

    // Without a majority nothing is asked: 69, one line.
    m.servers[2]->stop();
    r = run_in(m, {"forget", "job"}, {}, 3);
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    CHECK(contains(r.err, "no majority of the 3 Redis members"));
}
