// A server too old for dlock's scripts is named with its version, exit 69, once: not "script
// failed" (70). A fake server plays Redis 4.0, whose scripts cannot call XADD.

#include "e2e/e2e_helpers.hpp"
#include "e2e/ops_helpers.hpp"
#include "support/fake_resp_server.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::string bulk(const std::string& text) {
    return "$" + std::to_string(text.size()) + "\r\n" + text + "\r\n";
}

// Answers as a Redis of `version` whose scripts fail with `script_error`.
FakeRespServer::Script old_redis(const std::string& version, const std::string& script_error) {
    return [=](const std::vector<std::string>& command) {
        const std::string name = command.empty() ? "" : command[0];
        if (name == "INFO")
            return FakeAnswer{
                bulk("# Server\r\nredis_version:" + version + "\r\nredis_mode:standalone\r\n"),
                false, false};
        if (name == "EVALSHA" || name == "EVAL")
            return FakeAnswer{"-" + script_error + "\r\n", false, false};
        if (name == "SCRIPT")
            return FakeAnswer{bulk(std::string(40, 'a')), false, false};
        if (name == "CLUSTER")
            return FakeAnswer{"-ERR This instance has cluster support disabled\r\n", false, false};
        return FakeAnswer{"+OK\r\n", false, false};
    };
}

} // namespace

TEST_CASE("a Redis older than 5.0 is named with its version, exit 69", "[e2e][redis][version]") {
    const std::string unknown = "ERR Error running script (call to f_0123): @user_script:21: "
                                "@user_script: 21: Unknown Redis command called from Lua script";
    const std::string replicate =
        "ERR Error running script (call to f_0123): @user_script:40: @user_script: 40: Write "
        "commands not allowed after non deterministic commands. Call redis.replicate_commands() "
        "at the start of your script in order to switch to single commands replication mode.";
    for (const auto& reply : {unknown, replicate}) {
        FakeRespServer server(old_redis("4.0.14", reply));
        TempDir dir;
        auto r = run_raw({"--redis", server.url(), "run", "job", "--", "touch", dir / "ran"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(r.err == "dlock: Redis at 127.0.0.1:" + std::to_string(server.port()) +
                           " runs Redis 4.0.14: dlock needs Redis 5.0 or later (its scripts keep "
                           "the history in streams and read TIME before they write)\n");
        CHECK_FALSE(file_exists(dir / "ran"));
    }
}

TEST_CASE("a recent Redis's script error is not blamed on its version", "[e2e][redis][version]") {
    FakeRespServer server(old_redis("7.0.15", "ERR unknown command 'XADD'"));
    auto r = run_raw({"--redis", server.url(), "run", "job", "--", "true"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 70);
    CHECK(one_line(r.err));
    CHECK_FALSE(contains(r.err, "runs Redis"));
}
