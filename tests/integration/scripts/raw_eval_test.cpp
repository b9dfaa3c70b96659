// The scripts run with plain EVAL, as `redis-cli --eval` would: the reply shapes documented
// at the top of each lua/*.lua file.
#include "integration/lock_helpers.hpp"
#include "redis/scripts/embedded_scripts.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

const lock::Keys keys = job_keys();

redis::Reply acquire(const RedisServer& server, const std::string& owner, const std::string& hold,
                     const std::string& waiter = "") {
    return eval_script(
        server, redis::scripts::acquire,
        {keys.lock, keys.fence, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo,
         keys.xqueue},
        {owner, hold, "30000", waiter, "3000", "web-1", "4242", "alice", "./job.sh", "x"});
}

redis::Reply renew(const RedisServer& server, const std::string& owner, const std::string& ttl) {
    return eval_script(server, redis::scripts::renew, {keys.lock, keys.readers, keys.rinfo},
                       {owner, ttl, "x", ""});
}

redis::Reply release(const RedisServer& server, const std::string& owner, const std::string& hold) {
    return eval_script(
        server, redis::scripts::release,
        {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo, keys.xqueue},
        {owner, hold, "3000", "x"});
}

} // namespace

TEST_CASE("raw acquire returns {1, token, holds, mode} when taken", "[raw-eval]") {
    REQUIRE_REDIS(server);
    auto r = acquire(*server, "o1", "h1");
    REQUIRE(r.size() == 4);
    CHECK(r[0].integer() == 1);
    CHECK(r[1].integer() > 0);
    CHECK(r[2].integer() == 1);
    CHECK(r[3].str() == "x");

    auto again = acquire(*server, "o1", "h2");
    REQUIRE(again.size() == 4);
    CHECK(again[1].integer() == r[1].integer());
    CHECK(again[2].integer() == 2);
}

TEST_CASE("raw acquire returns the twelve-field refusal when held", "[raw-eval]") {
    REQUIRE_REDIS(server);
    auto taken = acquire(*server, "o1", "h1");
    auto r = acquire(*server, "o2", "h2", "w2");
    REQUIRE(r.size() == 12);
    CHECK(r[0].integer() == 0);
    CHECK(r[1].integer() > 29'000);              // pttl
    CHECK(r[2].str() == "web-1");                // host
    CHECK(r[3].integer() == 4242);               // pid
    CHECK(r[4].str() == "alice");                // user
    CHECK(r[5].str() == "./job.sh");             // cmd
    CHECK(r[6].integer() > 0);                   // since
    CHECK(r[7].integer() == taken[1].integer()); // token
    CHECK(r[8].integer() == 1);                  // queued waiters
    CHECK(r[9].integer() == 0);                  // shared holders
    CHECK(r[10].integer() == 0);                 // held until (--min-hold)
    CHECK(r[11].integer() > 0);                  // how long the queued waiter may stay silent
}

TEST_CASE("raw acquire refusal of a free lock with a queue has empty holder fields", "[raw-eval]") {
    REQUIRE_REDIS(server);
    acquire(*server, "o1", "h1");
    acquire(*server, "o2", "h2", "w2");
    release(*server, "o1", "h1");
    auto r = acquire(*server, "o3", "h3", "w3");
    REQUIRE(r.size() == 12);
    CHECK(r[0].integer() == 0);
    // Free, so no lease to wait for: until the first heartbeat in the queue (w2's) may lapse.
    CHECK(r[1].integer() > 0);
    CHECK(r[1].integer() <= 3000);
    CHECK(r[2].str().empty());
    CHECK(r[3].integer() == 0);
    CHECK(r[8].integer() == 2);
}

TEST_CASE("raw release returns {1, holds left} or {0, 0}", "[raw-eval]") {
    REQUIRE_REDIS(server);
    acquire(*server, "o1", "h1");
    acquire(*server, "o1", "h2");
    auto left = release(*server, "o1", "h2");
    REQUIRE(left.size() == 2);
    CHECK(left[0].integer() == 1);
    CHECK(left[1].integer() == 1);
    auto last = release(*server, "o1", "h1");
    CHECK(last[0].integer() == 1);
    CHECK(last[1].integer() == 0);
    auto not_ours = release(*server, "o1", "h1");
    REQUIRE(not_ours.size() == 2);
    CHECK(not_ours[0].integer() == 0);
    CHECK(not_ours[1].integer() == 0);
}

TEST_CASE("raw renew returns 1 for the owner and 0 otherwise", "[raw-eval]") {
    REQUIRE_REDIS(server);
    acquire(*server, "o1", "h1");
    CHECK(renew(*server, "o1", "60000").integer() == 1);
    CHECK(pttl(*server, keys.lock) > 59'000);
    CHECK(renew(*server, "o2", "90000").integer() == 0);
    CHECK(pttl(*server, keys.lock) <= 60'000);
}

TEST_CASE("raw leave returns 1 and removes the waiter", "[raw-eval]") {
    REQUIRE_REDIS(server);
    acquire(*server, "o1", "h1");
    acquire(*server, "o2", "h2", "w2");
    auto r = eval_script(*server, redis::scripts::leave,
                         {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.xqueue},
                         {"w2", "3000"});
    CHECK(r.integer() == 1);
    CHECK(server->cmd({"ZCARD", keys.queue}).integer() == 0);
}

TEST_CASE("EVAL caches each script under its embedded SHA-1", "[raw-eval]") {
    REQUIRE_REDIS(server);
    for (const auto& s : redis::embedded_scripts()) {
        INFO(s.name);
        auto loaded = command(*server, {"SCRIPT", "LOAD", std::string(s.body)});
        CHECK(loaded.str() == s.sha1);
    }
}
