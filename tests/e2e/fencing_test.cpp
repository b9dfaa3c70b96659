// Fencing tokens: every new acquisition of a name gets a larger one.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

long long token_of_one_run(const RedisServer& server, const std::string& name = "job") {
    auto r = run(server, {"run", name, "-c", "echo $DLOCK_FENCING_TOKEN"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    REQUIRE(trim(r.out).find_first_not_of("0123456789") == std::string::npos);
    REQUIRE_FALSE(trim(r.out).empty());
    return std::stoll(trim(r.out));
}

} // namespace

TEST_CASE("fencing tokens strictly increase over successive runs", "[e2e][fencing]") {
    REQUIRE_REDIS(server);
    long long last = 0;
    for (int i = 0; i < 6; ++i) {
        const long long token = token_of_one_run(*server);
        CHECK(token > last);
        last = token;
    }
    CHECK(std::to_string(last) == std::string(server->cmd({"GET", key("job", "fence")}).str()));
    // The counter starts from the server clock in ms, so tokens are large from the start.
    CHECK(last > 1'600'000'000'000LL);
}

TEST_CASE("fencing tokens keep increasing after the counter key is lost", "[e2e][fencing]") {
    REQUIRE_REDIS(server);
    const long long before = token_of_one_run(*server);
    token_of_one_run(*server);
    const long long last = token_of_one_run(*server);
    server->cmd({"DEL", key("job", "fence")});
    std::this_thread::sleep_for(20ms);
    const long long after = token_of_one_run(*server);
    CHECK(last > before);
    CHECK(after > last);
}

TEST_CASE("names have their own fencing counters", "[e2e][fencing]") {
    REQUIRE_REDIS(server);
    const long long a1 = token_of_one_run(*server, "a");
    const long long b1 = token_of_one_run(*server, "b");
    const long long a2 = token_of_one_run(*server, "a");
    CHECK(a2 > a1);
    CHECK(b1 > 0);
    CHECK(exists(*server, key("a", "fence")));
    CHECK(exists(*server, key("b", "fence")));
    // The counter expires eventually (30 days), but is not left without a TTL.
    CHECK(server->cmd({"PTTL", key("a", "fence")}).integer() > 0);
}

TEST_CASE("a refused or failed run does not consume a fencing token", "[e2e][fencing]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const long long first = token_of_one_run(*server);
    auto holder =
        start(*server, {"run", "job", "-c", "echo $DLOCK_FENCING_TOKEN > \"$D/t\"; " + kAwaitGo},
              {{"D", dir.path()}});
    const long long held = std::stoll(wait_for_line(dir / "t"));
    CHECK(held > first);
    for (int i = 0; i < 3; ++i)
        CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 75);
    touch(dir / "go");
    CHECK(holder->wait(10s).exit_code == 0);
    const long long next = token_of_one_run(*server);
    CHECK(next > held);
    CHECK(next == held + 1);
}
