// Reaching Redis: unreachable servers (69, fast, no password in the message), authentication,
// where the URL comes from, databases and key prefixes.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

const std::string kPassword = "s3cret-Pa55word";

// A connection to `server` that authenticates (the fixture's own does not).
dlock::redis::Connection authed(const RedisServer& server, const std::string& password) {
    dlock::redis::ConnectOptions options;
    options.endpoint.unix_path = server.socket_path();
    options.endpoint.password = password;
    auto conn = dlock::redis::Connection::open(options);
    if (!conn)
        FAIL("cannot connect with the password: " << conn.error().message);
    return std::move(*conn);
}

int64_t authed_dbsize(const RedisServer& server) {
    auto conn = authed(server, kPassword);
    auto reply = conn.command({"DBSIZE"});
    REQUIRE(reply);
    return reply->integer();
}

void check_unreachable(const ProcessResult& r, const std::string& where) {
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 69);
    CHECK(r.elapsed < 2s);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err.find(where) != std::string::npos);
    CHECK(r.out.empty());
}

} // namespace

TEST_CASE("an unreachable Redis gives 69 at once and names the server", "[e2e][redis]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string host_port = "127.0.0.1:" + std::to_string(server->port());
    const std::vector<std::string> command{"run", "job", "--", "touch", dir / "ran"};
    server->stop();

    SECTION("TCP, closed port") {
        check_unreachable(run_raw(with_redis_url(server->tcp_url(), command)), host_port);
    }
    SECTION("unix socket that does not exist") {
        check_unreachable(run(*server, command), server->socket_path());
    }
    SECTION("even when willing to wait") {
        check_unreachable(
            run_raw(with_redis_url(server->tcp_url(), {"run", "-w", "30s", "job", "--", "true"})),
            host_port);
        check_unreachable(run(*server, {"run", "-w", "forever", "job", "--", "true"}),
                          server->socket_path());
    }
    SECTION("-q still reports errors") {
        check_unreachable(run(*server, {"-q", "run", "job", "--", "true"}), server->socket_path());
    }
    SECTION("the password in the URL is not shown") {
        for (const std::string& userinfo : {":" + kPassword, "someone:" + kPassword}) {
            auto r = run_raw(with_redis_url("redis://" + userinfo + "@" + host_port, command));
            check_unreachable(r, host_port);
            CHECK(r.err.find(kPassword) == std::string::npos);
        }
    }
    SECTION("the password from the environment is not shown") {
        auto r = run_raw(with_redis_url(server->tcp_url(), command),
                         {{"DLOCK_REDIS_PASSWORD", kPassword}});
        check_unreachable(r, host_port);
        CHECK(r.err.find(kPassword) == std::string::npos);
        r = run_raw(with_redis_url(server->tcp_url(), {"-vv", "run", "job", "--", "true"}),
                    {{"DLOCK_REDIS_PASSWORD", kPassword}});
        CHECK(r.exit_code == 69);
        CHECK(r.err.find(kPassword) == std::string::npos);
    }
    CHECK_FALSE(file_exists(dir / "ran"));
}

TEST_CASE("a server that wants a password and gets none gives 69", "[e2e][redis][password]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    server->cmd({"CONFIG", "SET", "requirepass", kPassword});
    // Each asks differently: run and sem run with many-argument scripts (which Redis answers
    // with "unauthenticated multibulk length"), release and status with short commands.
    std::vector<std::string> args =
        GENERATE(std::vector<std::string>{"run", "job", "--", "touch"},
                 std::vector<std::string>{"sem", "run", "-p", "2", "job", "--", "touch"},
                 std::vector<std::string>{"release", "--force", "job"},
                 std::vector<std::string>{"status", "job"});
    INFO("dlock " << args[0] << " " << args[1]);
    if (args.back() == "touch")
        args.push_back(dir / "ran");
    auto r = run(*server, args);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 69);
    CHECK(r.elapsed < 2s);
    CHECK(one_dlock_line(r.err));
    CHECK(r.err == "dlock: Redis at " + server->socket_path() +
                       " requires a password (NOAUTH): set DLOCK_REDIS_PASSWORD, "
                       "--password-file or the config's password-file\n");
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(authed_dbsize(*server) == 0);
}

TEST_CASE("a user without permission for the scripts gets 69 naming what it lacks",
          "[e2e][redis][password]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    server->cmd(
        {"ACL", "SETUSER", "limited", "on", ">limited-Pw", "~*", "+@all", "-evalsha", "-eval"});
    // The user goes in the URL, the password in the environment.
    const std::string address = "127.0.0.1:" + std::to_string(server->port());
    auto r =
        run_raw({"--redis", "redis://limited@" + address, "run", "job", "--", "touch", dir / "ran"},
                {{"DLOCK_REDIS_PASSWORD", "limited-Pw"}});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 69);
    CHECK(one_dlock_line(r.err));
    CHECK_THAT(r.err,
               Catch::Contains("dlock: user limited lacks permission for EVALSHA on Redis at " +
                               address + " (NOPERM"));
    CHECK(r.err.find("limited-Pw") == std::string::npos);
    CHECK_FALSE(file_exists(dir / "ran"));
}

TEST_CASE("password authentication", "[e2e][redis][password]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    server->cmd({"CONFIG", "SET", "requirepass", kPassword});
    const std::string marker = dir / "ran";
    const std::vector<std::string> command{"run", "job", "--", "touch", marker};
    auto ran = [&] {
        bool was = file_exists(marker);
        std::filesystem::remove(marker);
        return was;
    };

    SECTION("DLOCK_REDIS_PASSWORD") {
        auto r = run(*server, command, {{"DLOCK_REDIS_PASSWORD", kPassword}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(ran());
    }
    SECTION("--password-file, with or without a trailing newline") {
        std::ofstream(dir / "pw") << kPassword << "\n";
        std::ofstream(dir / "pw-bare") << kPassword;
        for (const std::string& file : {dir / "pw", dir / "pw-bare"}) {
            std::vector<std::string> args{"--password-file", file};
            args.insert(args.end(), command.begin(), command.end());
            auto r = run(*server, args);
            INFO("stderr: " << r.err);
            CHECK(r.exit_code == 0);
            CHECK(ran());
        }
    }
    SECTION("the password in a redis:// URL") {
        auto r = run_raw(with_redis_url(
            "redis://:" + kPassword + "@127.0.0.1:" + std::to_string(server->port()), command));
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(ran());
    }
    SECTION("an ACL user and password in the URL") {
        authed(*server, kPassword)
            .command({"ACL", "SETUSER", "alice", "on", ">alice-pw", "~*", "&*", "+@all"});
        auto r = run_raw(with_redis_url(
            "redis://alice:alice-pw@127.0.0.1:" + std::to_string(server->port()), command));
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(ran());
    }
    SECTION("a wrong password: 69, not shown") {
        const std::string wrong = "wrong-Pa55word-xyz";
        auto r = run(*server, command, {{"DLOCK_REDIS_PASSWORD", wrong}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(r.elapsed < 2s);
        CHECK(one_dlock_line(r.err));
        CHECK(r.err.find(wrong) == std::string::npos);
        CHECK(r.err.find(server->socket_path()) != std::string::npos);
        CHECK_FALSE(ran());

        std::ofstream(dir / "wrong") << wrong << "\n";
        r = run(*server, {"--password-file", dir / "wrong", "run", "job", "--", "touch", marker});
        CHECK(r.exit_code == 69);
        CHECK(r.err.find(wrong) == std::string::npos);
        CHECK_FALSE(ran());

        r = run_raw(with_redis_url(
            "redis://:" + wrong + "@127.0.0.1:" + std::to_string(server->port()), command));
        CHECK(r.exit_code == 69);
        CHECK(r.err.find(wrong) == std::string::npos);
        CHECK_FALSE(ran());
    }
    SECTION("--password-file wins over the environment and the URL") {
        std::ofstream(dir / "pw") << kPassword << "\n";
        auto r = run(*server, {"--password-file", dir / "pw", "run", "job", "--", "touch", marker},
                     {{"DLOCK_REDIS_PASSWORD", "wrong"}});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(ran());
        r = run_raw({"--redis", "redis://:wrong@127.0.0.1:" + std::to_string(server->port()),
                     "--password-file", dir / "pw", "run", "job", "--", "touch", marker});
        CHECK(r.exit_code == 0);
        CHECK(ran());
    }
    SECTION("-vv does not show the password") {
        auto r = run(*server, {"-vv", "run", "job", "--", "true"},
                     {{"DLOCK_REDIS_PASSWORD", kPassword}});
        CHECK(r.exit_code == 0);
        CHECK_FALSE(r.err.empty());
        CHECK(r.err.find(kPassword) == std::string::npos);
    }
    // Whatever happened, no lease is left behind.
    CHECK(authed_dbsize(*server) <= 3); // at most the fencing counter, history and run counters
    authed(*server, kPassword).command({"CONFIG", "SET", "requirepass", ""});
}

TEST_CASE("the Redis URL comes from --redis, DLOCK_REDIS_URL or REDIS_URL", "[e2e][redis]") {
    REQUIRE_REDIS(server);
    const std::string dead = "redis://127.0.0.1:1";
    auto check_used = [&](const ProcessResult& r) {
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(server->cmd({"EXISTS", key("job", "fence")}).integer() == 1);
        server->cmd({"FLUSHALL"});
    };
    check_used(run_raw({"run", "job", "--", "true"}, {{"DLOCK_REDIS_URL", server->url()}}));
    check_used(run_raw({"run", "job", "--", "true"}, {{"REDIS_URL", server->url()}}));
    check_used(run_raw({"run", "job", "--", "true"},
                       {{"DLOCK_REDIS_URL", server->tcp_url()}, {"REDIS_URL", dead}}));
    check_used(run_raw({"--redis", server->url(), "run", "job", "--", "true"},
                       {{"DLOCK_REDIS_URL", dead}, {"REDIS_URL", dead}}));
    auto r = run_raw({"run", "job", "--", "true"},
                     {{"DLOCK_REDIS_URL", dead}, {"REDIS_URL", server->url()}});
    CHECK(r.exit_code == 69);
    CHECK(r.err.find("127.0.0.1:1") != std::string::npos);
}

TEST_CASE("the database number in the URL is used", "[e2e][redis]") {
    REQUIRE_REDIS(server);
    auto dbsize_of = [&](int db) {
        auto conn = server->connect();
        REQUIRE(conn.command({"SELECT", std::to_string(db)}));
        auto reply = conn.command({"DBSIZE"});
        REQUIRE(reply);
        return reply->integer();
    };
    CHECK(run_raw({"--redis", server->url() + "?db=3", "run", "job", "--", "true"}).exit_code == 0);
    CHECK(dbsize_of(3) == 3); // the fencing counter, the history and the run counters
    CHECK(run_raw({"--redis", server->tcp_url() + "/5", "run", "job", "--", "true"}).exit_code ==
          0);
    CHECK(dbsize_of(5) == 3);
    CHECK(dbsize_of(0) == 0);
    // A database the server does not have.
    auto r = run_raw({"--redis", server->url() + "?db=99", "run", "job", "--", "true"});
    CHECK(r.exit_code == 69);
    CHECK(one_dlock_line(r.err));
}

TEST_CASE("key names follow --prefix and DLOCK_PREFIX", "[e2e][redis][prefix]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto keys_while_held = [&](std::vector<std::string> globals, const Env& env) {
        std::filesystem::remove(dir / "go");
        std::filesystem::remove(dir / "ready");
        globals.insert(globals.end(), {"run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo});
        Env with_dir = env;
        with_dir["D"] = dir.path();
        auto holder = start(*server, globals, with_dir);
        REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
        auto keys = all_keys(*server);
        touch(dir / "go");
        CHECK(holder->wait(10s).exit_code == 0);
        auto after = all_keys(*server);
        server->cmd({"FLUSHALL"});
        return std::make_pair(keys, after);
    };

    SECTION("--prefix") {
        auto [held, after] = keys_while_held({"--prefix", "myapp"}, {});
        CHECK(held.find("myapp:{job}:lock ") != std::string::npos);
        CHECK(held.find("myapp:{job}:fence ") != std::string::npos);
        CHECK(held.find("dlock:") == std::string::npos);
        CHECK(after == "myapp:{job}:fence myapp:{job}:history myapp:{job}:runs ");
    }
    SECTION("DLOCK_PREFIX") {
        auto [held, after] = keys_while_held({}, {{"DLOCK_PREFIX", "env.pfx"}});
        CHECK(held.find("env.pfx:{job}:lock ") != std::string::npos);
        CHECK(held.find("dlock:") == std::string::npos);
        CHECK(after == "env.pfx:{job}:fence env.pfx:{job}:history env.pfx:{job}:runs ");
    }
    SECTION("--prefix wins over DLOCK_PREFIX") {
        auto [held, after] = keys_while_held({"--prefix", "cli"}, {{"DLOCK_PREFIX", "env"}});
        CHECK(held.find("cli:{job}:lock ") != std::string::npos);
        CHECK(held.find("env:") == std::string::npos);
    }
    SECTION("the default prefix is dlock") {
        auto [held, after] = keys_while_held({}, {});
        CHECK(held.find("dlock:{job}:lock ") != std::string::npos);
        CHECK(after == "dlock:{job}:fence dlock:{job}:history dlock:{job}:runs ");
    }
    SECTION("different prefixes are different locks") {
        std::filesystem::remove(dir / "ready");
        auto holder = start(
            *server, {"--prefix", "one", "run", "job", "-c", "touch \"$D/ready\"; " + kAwaitGo},
            {{"D", dir.path()}});
        REQUIRE(eventually([&] { return file_exists(dir / "ready"); }));
        CHECK(run(*server, {"--prefix", "two", "run", "job", "--", "true"}).exit_code == 0);
        CHECK(run(*server, {"--prefix", "one", "run", "job", "--", "true"}).exit_code == 75);
        CHECK(run(*server, {"run", "job", "--", "true"}, {{"DLOCK_PREFIX", "one"}}).exit_code ==
              75);
        touch(dir / "go");
        CHECK(holder->wait(10s).exit_code == 0);
    }
}
