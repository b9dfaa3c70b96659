// The latch scripts (lua/latch_*.lua) against a real redis-server, run with plain EVAL as
// `redis-cli --eval` would, checking the reply shapes documented at the top of each file.

#include "integration/lock_helpers.hpp"
#include "lock/keys.hpp"
#include "redis/scripts/embedded_scripts.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

using Strings = std::vector<std::string>;
const lock::LatchKeys lk = lock::LatchKeys::of("dlock", "job");

std::vector<int64_t> ints(const redis::Reply& reply) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < reply.size(); ++i)
        out.push_back(reply[i].to_int().value());
    return out;
}

using Ints = std::vector<int64_t>;

Ints create(const RedisServer& s, int64_t count, int64_t ttl_ms = 60'000) {
    return ints(eval_script(s, redis::scripts::latch_create, {lk.latch, lk.ids, lk.waiters},
                            {std::to_string(count), std::to_string(ttl_ms)}));
}

Ints reset(const RedisServer& s, int64_t count, const std::string& id, int64_t ttl_ms = 60'000) {
    return ints(eval_script(s, redis::scripts::latch_create, {lk.latch, lk.ids, lk.waiters},
                            {std::to_string(count), std::to_string(ttl_ms), id}));
}

Ints count_down(const RedisServer& s, const std::string& request, int64_t n = 1) {
    return ints(eval_script(s, redis::scripts::latch_count_down,
                            {lk.latch, lk.ids, lk.waiters, lk.wake},
                            {std::to_string(n), request, "6000"}));
}

Ints wait_round(const RedisServer& s, const std::string& waiter, int64_t heartbeat_ms = 3000) {
    return ints(eval_script(s, redis::scripts::latch_wait, {lk.latch, lk.waiters, lk.wake},
                            {waiter, std::to_string(heartbeat_ms)}));
}

Ints status(const RedisServer& s) {
    return ints(eval_script(s, redis::scripts::latch_status, {lk.latch, lk.waiters}, {}));
}

} // namespace

TEST_CASE("latch keys are hash-tagged on the name", "[latch]") {
    CHECK(lk.latch == "dlock:{job}:latch");
    CHECK(lk.ids == "dlock:{job}:latch-ids");
    CHECK(lk.waiters == "dlock:{job}:latch-waiters");
    CHECK(lk.wake == "dlock:{job}:latch-wake:");
}

TEST_CASE("latch_create creates with a TTL and is idempotent for the same count", "[latch]") {
    REQUIRE_REDIS(server);
    CHECK(create(*server, 3, 60'000) == Ints{1, 3, 3});
    CHECK(hget(*server, lk.latch, "count") == "3");
    CHECK(hget(*server, lk.latch, "initial") == "3");
    CHECK(pttl(*server, lk.latch) > 55'000);
    CHECK(pttl(*server, lk.latch) <= 60'000);

    REQUIRE(count_down(*server, "r1") == Ints{1, 2, 0});
    // Same COUNT again: the TTL is refreshed, the current count left alone.
    CHECK(create(*server, 3, 120'000) == Ints{0, 2, 3});
    CHECK(hget(*server, lk.latch, "count") == "2");
    CHECK(pttl(*server, lk.latch) > 115'000);
    CHECK(pttl(*server, lk.ids) > 115'000);
}

TEST_CASE("latch_create refuses a different count and changes nothing", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 3, 60'000) == Ints{1, 3, 3});
    REQUIRE(count_down(*server, "r1") == Ints{1, 2, 0});
    CHECK(create(*server, 5, 120'000) == Ints{-1, 2, 3});
    CHECK(hget(*server, lk.latch, "count") == "2");
    CHECK(hget(*server, lk.latch, "initial") == "3");
    CHECK(pttl(*server, lk.latch) <= 60'000);
}

TEST_CASE("latch_count_down decrements by N, never below zero", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 5) == Ints{1, 5, 5});
    CHECK(count_down(*server, "a", 2) == Ints{1, 3, 0});
    CHECK(count_down(*server, "b", 10) == Ints{1, 0, 0});
    CHECK(hget(*server, lk.latch, "count") == "0");
    CHECK(count_down(*server, "c") == Ints{1, 0, 0});
    CHECK(pttl(*server, lk.ids) > 0);
    CHECK(pttl(*server, lk.ids) <= 60'000);
}

TEST_CASE("a retried count-down (same request id) is not counted twice", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 3) == Ints{1, 3, 3});
    CHECK(count_down(*server, "req-1") == Ints{1, 2, 0});
    CHECK(count_down(*server, "req-1") == Ints{2, 2, 0});
    CHECK(count_down(*server, "req-1") == Ints{2, 2, 0});
    CHECK(hget(*server, lk.latch, "count") == "2");
    CHECK(count_down(*server, "req-2") == Ints{1, 1, 0});
}

TEST_CASE("latch_count_down on a missing latch reports it and writes nothing", "[latch]") {
    REQUIRE_REDIS(server);
    CHECK(count_down(*server, "r1") == Ints{0, 0, 0});
    CHECK(server->cmd({"DBSIZE"}).integer() == 0);
}

TEST_CASE("latch_wait registers while the count is above zero", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 2) == Ints{1, 2, 2});
    const auto before = server_time_ms(*server);
    CHECK(wait_round(*server, "w1", 3000) == Ints{2, 2});
    CHECK(zrange(*server, lk.waiters) == Strings{"w1"});
    const auto deadline = server->cmd({"ZSCORE", lk.waiters, "w1"}).to_int().value();
    CHECK(deadline >= before + 3000);
    CHECK(deadline <= before + 4000);
    CHECK(pttl(*server, lk.waiters) > 0);
    CHECK(status(*server)[4] == 1);
}

TEST_CASE("the count-down that reaches zero wakes every registered waiter", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 2) == Ints{1, 2, 2});
    for (const char* w : {"w1", "w2", "w3"})
        REQUIRE(wait_round(*server, w) == Ints{2, 2});

    CHECK(count_down(*server, "a") == Ints{1, 1, 0});
    for (const char* w : {"w1", "w2", "w3"})
        CHECK_FALSE(exists(*server, lk.wake + w));

    CHECK(count_down(*server, "b") == Ints{1, 0, 3});
    for (const char* w : {"w1", "w2", "w3"}) {
        CHECK(llen(*server, lk.wake + w) == 1);
        CHECK(pttl(*server, lk.wake + w) > 0);
        CHECK(pttl(*server, lk.wake + w) <= 6000);
    }
    CHECK_FALSE(exists(*server, lk.waiters));
    // A woken waiter's next round sees "done" and cleans up its wake list.
    CHECK(wait_round(*server, "w1") == Ints{1, 0});
    CHECK_FALSE(exists(*server, lk.wake + "w1"));
}

TEST_CASE("a lapsed waiter is not woken and is dropped", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 1) == Ints{1, 1, 1});
    REQUIRE(wait_round(*server, "dead", 100) == Ints{2, 1});
    REQUIRE(wait_round(*server, "live", 10'000) == Ints{2, 1});
    std::this_thread::sleep_for(300ms);
    CHECK(status(*server)[4] == 1);
    CHECK(count_down(*server, "a") == Ints{1, 0, 1});
    CHECK_FALSE(exists(*server, lk.wake + "dead"));
    CHECK(llen(*server, lk.wake + "live") == 1);
}

TEST_CASE("latch_leave removes the registration and the wake list", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 1) == Ints{1, 1, 1});
    REQUIRE(wait_round(*server, "w1") == Ints{2, 1});
    server->cmd({"LPUSH", lk.wake + "w1", "1"});
    CHECK(eval_script(*server, redis::scripts::latch_leave, {lk.waiters, lk.wake}, {"w1"})
              .to_int()
              .value() == 1);
    CHECK_FALSE(exists(*server, lk.waiters));
    CHECK_FALSE(exists(*server, lk.wake + "w1"));
}

TEST_CASE("an absent latch is distinguished from a done one", "[latch]") {
    REQUIRE_REDIS(server);
    CHECK(wait_round(*server, "w1") == Ints{0, 0});
    CHECK(status(*server) == Ints{0, 0, 0, 0, 0});
    CHECK(server->cmd({"DBSIZE"}).integer() == 0);

    REQUIRE(create(*server, 1, 60'000) == Ints{1, 1, 1});
    REQUIRE(count_down(*server, "a") == Ints{1, 0, 0});
    CHECK(wait_round(*server, "w1") == Ints{1, 0});
    const auto st = status(*server);
    REQUIRE(st.size() == 5);
    CHECK(st[0] == 1);
    CHECK(st[1] == 0);
    CHECK(st[2] == 1);
    CHECK(st[3] > 55'000);
    CHECK(st[4] == 0);
    // A done latch is still there: create with the same count is refused and leaves it done.
    CHECK(create(*server, 1, 120'000) == Ints{-2, 0, 1});
    CHECK(hget(*server, lk.latch, "count") == "0");
    CHECK(pttl(*server, lk.latch) <= 60'000);
}

TEST_CASE("latch_create with a reset id starts a new round over a done latch", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 2, 60'000) == Ints{1, 2, 2});
    REQUIRE(count_down(*server, "a") == Ints{1, 1, 0});
    REQUIRE(count_down(*server, "b") == Ints{1, 0, 0});
    REQUIRE(wait_round(*server, "w0") == Ints{1, 0});

    // The previous round's count and initial are returned; the new round is at COUNT.
    CHECK(reset(*server, 2, "round-2", 120'000) == Ints{2, 0, 2});
    CHECK(hget(*server, lk.latch, "count") == "2");
    CHECK(hget(*server, lk.latch, "initial") == "2");
    CHECK(pttl(*server, lk.latch) > 115'000);
    CHECK_FALSE(exists(*server, lk.ids)); // yesterday's request ids are forgotten
    CHECK(wait_round(*server, "w1") == Ints{2, 2});
    // A retried reset (same id) does not start yet another round.
    REQUIRE(count_down(*server, "a") == Ints{1, 1, 0});
    CHECK(reset(*server, 2, "round-2") == Ints{2, 1, 2});
    CHECK(hget(*server, lk.latch, "count") == "1");
    CHECK(count_down(*server, "c") == Ints{1, 0, 1});
    CHECK(llen(*server, lk.wake + "w1") == 1);
}

TEST_CASE("a reset of a running round keeps its waiters for the new count", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 3) == Ints{1, 3, 3});
    REQUIRE(count_down(*server, "a") == Ints{1, 2, 0});
    REQUIRE(wait_round(*server, "w1") == Ints{2, 2});
    // Another count, and an unfinished round: a reset starts over all the same.
    CHECK(reset(*server, 1, "r") == Ints{2, 2, 3});
    CHECK(hget(*server, lk.latch, "initial") == "1");
    CHECK(zrange(*server, lk.waiters) == Strings{"w1"});
    // The old round's request id counts in the new round.
    CHECK(count_down(*server, "a") == Ints{1, 0, 1});
    CHECK(llen(*server, lk.wake + "w1") == 1);
}

TEST_CASE("latch_create with a reset id on a missing latch creates it", "[latch]") {
    REQUIRE_REDIS(server);
    CHECK(reset(*server, 4, "r") == Ints{1, 4, 4});
    CHECK(hget(*server, lk.latch, "count") == "4");
    CHECK(reset(*server, 4, "r") == Ints{2, 4, 4});
    CHECK(hget(*server, lk.latch, "count") == "4");
}

TEST_CASE("a latch that outlived its TTL is absent", "[latch]") {
    REQUIRE_REDIS(server);
    REQUIRE(create(*server, 2, 200) == Ints{1, 2, 2});
    REQUIRE(wait_round(*server, "w1") == Ints{2, 2});
    REQUIRE(count_down(*server, "a") == Ints{1, 1, 0});
    CHECK(pttl(*server, lk.waiters) <= 200);
    CHECK(pttl(*server, lk.ids) <= 200);
    std::this_thread::sleep_for(400ms);
    CHECK(wait_round(*server, "w1") == Ints{0, 0});
    CHECK(count_down(*server, "b") == Ints{0, 0, 0});
    CHECK(server->cmd({"DBSIZE"}).integer() == 0);
}
