// Many names in one run: one watchdog thread and one connection renew them all, so the file
// descriptors a run needs do not grow with the number of names; a limit too small for even
// one run is refused up front (64), before anything is written to Redis.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// dlock ARGS... run by /bin/sh under `ulimit -n fds`, with only stdin, stdout and stderr open
// (the test harness leaves more open).
std::unique_ptr<Process> start_limited(const RedisServer& server, int fds,
                                       std::vector<std::string> args) {
    args = with_redis(server, std::move(args));
    args.insert(args.begin(), {"-c",
                               "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n " +
                                   std::to_string(fds) + " && exec \"$0\" \"$@\"",
                               dlock_binary()});
    return std::make_unique<Process>(std::move(args), clean_env(), "/bin/sh");
}

std::vector<std::string> names(int count) {
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i)
        out.push_back("n" + std::to_string(i));
    return out;
}

// Connections to the server other than the caller's own.
int64_t other_clients(const RedisServer& server) {
    return static_cast<int64_t>(lines(std::string(server.cmd({"CLIENT", "LIST"}).str())).size()) -
           1;
}

} // namespace

TEST_CASE("300 names run under ulimit -n 64, renewed over one connection", "[e2e][multi][fds]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    std::vector<std::string> args{"run", "--ttl", "1s"};
    for (const auto& name : names(300))
        args.push_back(name);
    // Longer than the TTL: every lease is renewed several times.
    args.insert(args.end(), {"--", "sh", "-c", "touch \"$0\"; sleep 2", dir / "started"});
    auto run = start_limited(*server, 64, args);

    REQUIRE(eventually([&] { return file_exists(dir / "started"); }, 20s));
    std::this_thread::sleep_for(1200ms); // renewals are under way
    const int64_t clients = other_clients(*server);
    const int64_t held = static_cast<int64_t>(server->cmd({"KEYS", "*:lock"}).size());
    auto r = run->wait(30s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(held == 300);
    CHECK(clients == 2); // dlock's main connection and its watchdog's
    CHECK(server->cmd({"KEYS", "*:lock"}).size() == 0);
}

TEST_CASE("a descriptor limit too small for a run is refused before Redis is touched",
          "[e2e][multi][fds]") {
    REQUIRE_REDIS(server);
    for (int count : {1, 3}) {
        std::vector<std::string> args{"run"};
        for (const auto& name : names(count))
            args.push_back(name);
        args.insert(args.end(), {"--", "true"});
        auto r = start_limited(*server, 8, args)->wait(10s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.find("file descriptors") != std::string::npos);
        CHECK(r.err.find("ulimit -n") != std::string::npos);
        CHECK(dbsize(*server) == 0);
    }
}
