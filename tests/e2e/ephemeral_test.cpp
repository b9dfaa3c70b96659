// `run --ephemeral` and `acquire --ephemeral`: once the lease is released and the name is free,
// nothing of it is left in Redis (no history, run counters, fencing counter or slot), so it is
// never listed by metrics; what --ephemeral cannot go with is refused before Redis is touched.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The keys of `name`, as `redis-cli --scan --pattern 'dlock:{NAME}:*'` lists them.
std::string keys_of(const RedisServer& server, const std::string& name) {
    auto reply = server.cmd({"KEYS", "dlock:{" + name + "}:*"});
    std::string out;
    for (size_t i = 0; i < reply.size(); ++i)
        out += std::string(reply[i].str()) + " ";
    return out;
}

} // namespace

TEST_CASE("an ephemeral run leaves no key for its name, and metrics never list it",
          "[e2e][ephemeral]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = run(*server, {"run", "--ephemeral", "item-1", "--", "sh", "-c",
                           "echo $DLOCK_FENCING_TOKEN > \"$0\"", dir / "token"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(std::stoll(trim(read_file(dir / "token"))) > 0);
    CHECK(keys_of(*server, "item-1").empty());
    CHECK(run(*server, {"run", "--ephemeral", "item-1", "--", "sh", "-c", "exit 3"}).exit_code ==
          3);
    CHECK(keys_of(*server, "item-1").empty());
    CHECK(run(*server, {"run", "item-2", "--", "true"}).exit_code == 0);
    const auto metrics = run(*server, {"metrics"});
    CHECK(metrics.exit_code == 0);
    CHECK_FALSE(contains(metrics.out, "item-1"));
    CHECK(contains(metrics.out, "item-2"));
    CHECK(run(*server, {"history", "item-1"}).exit_code == 1);
}

TEST_CASE("an ephemeral name is forgotten by the last release, not while another holds it",
          "[e2e][ephemeral]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "item", {"--ephemeral"});
    // Refused while held: the skip is recorded, and stays while the holder holds.
    CHECK(run(*server, {"run", "--ephemeral", "item", "--", "true"}).exit_code == 75);
    CHECK(exists(*server, key("item", "history")));
    CHECK(exists(*server, key("item", "fence")));
    let_go(dir, {holder.get()});
    CHECK(keys_of(*server, "item").empty());
}

TEST_CASE("an ephemeral hold of dlock acquire leaves no key once released", "[e2e][ephemeral]") {
    REQUIRE_REDIS(server);
    Process script({"-c", "eval \"$(\"$DLOCK\" acquire --ephemeral item)\" || exit 9; "
                          "\"$DLOCK\" release"},
                   clean_env({{"DLOCK", dlock_binary()},
                              {"DLOCK_REDIS_URL", server->url()},
                              {"DLOCK_HOLD", "\x01unset"},
                              {"DLOCK_KEEPER_PID", "\x01unset"}}),
                   "/bin/sh");
    auto r = script.wait(30s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    // The keeper forgets the name after answering the release: wait for it, generously.
    for (int i = 0; i < 200 && !keys_of(*server, "item").empty(); ++i)
        std::this_thread::sleep_for(50ms);
    CHECK(keys_of(*server, "item").empty());
}

TEST_CASE("ephemeral with --once-per, --min-hold or on sem run is a usage error",
          "[e2e][ephemeral]") {
    REQUIRE_REDIS(server);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", "--ephemeral", "--once-per", "1h", "item", "--", "true"},
             {"run", "--ephemeral", "--min-hold", "1s", "item", "--", "true"},
             {"run", "--min-hold", "1s", "--ephemeral", "item", "--", "true"},
             {"acquire", "--ephemeral", "--min-hold", "1s", "item"},
             {"sem", "run", "-p", "2", "--ephemeral", "item", "--", "true"}}) {
        auto r = run(*server, args);
        INFO("args: " << args[1] << " " << args[2] << " stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_line(r.err));
    }
    CHECK(all_keys(*server).empty());
}
