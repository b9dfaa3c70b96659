// lua/forget.lua against a real redis-server: a free name's records go in one script, a held
// one changes nothing; and the history of a name used once stays small (lib/history.lua).

#include "integration/lock_helpers.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "redis/stores/history.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

const lock::Keys keys = job_keys();

redis::Reply forget(const RedisServer& server) {
    return eval_script(
        server, redis::scripts::forget,
        {keys.lock, keys.readers, keys.permits, keys.history, keys.runs, keys.fence, keys.slot},
        {});
}

// One run of the name: its acquisition and release, counted ok.
void one_run(const RedisServer& server) {
    auto backend = open_backend(server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    auto release = releasing("owner-a", "hold-1");
    release.exit_status = 0;
    release.outcome = lock::Outcome::ok;
    REQUIRE(ok(backend->release(keys, release)) == 0);
}

} // namespace

TEST_CASE("forget removes a free name's history, counters, fencing counter and slot",
          "[forget.lua]") {
    REQUIRE_REDIS(server);
    one_run(*server);
    command(*server, {"HSET", keys.slot, "slot", "1"});
    command(*server, {"SET", "dlock:{other}:fence", "7"});
    auto r = forget(*server);
    REQUIRE(r.size() == 2);
    CHECK(r[0].str() == "");
    CHECK(r[1].integer() == 4);
    CHECK(server->cmd({"DBSIZE"}).integer() == 1);

    r = forget(*server);
    CHECK(r[1].integer() == 0); // nothing left: nothing to do
}

TEST_CASE("forget leaves a held name as it is", "[forget.lua]") {
    REQUIRE_REDIS(server);
    one_run(*server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-b", "hold-2")).acquired);
    const auto before = snapshot(*server, {keys.lock, keys.history, keys.runs, keys.fence});
    auto r = forget(*server);
    REQUIRE(r.size() == 2);
    CHECK(r[0].str() == "x");
    CHECK(r[1].integer() == 0);
    CHECK(snapshot(*server, {keys.lock, keys.history, keys.runs, keys.fence}) == before);
}

TEST_CASE("the history of a name used once is its entries, not a whole stream node",
          "[forget.lua]") {
    REQUIRE_REDIS(server);
    one_run(*server);
    CHECK(server->cmd({"XLEN", keys.history}).integer() == 2);
    // A node allocated at stream-node-max-bytes would be above this on its own.
    CHECK(server->cmd({"MEMORY", "USAGE", keys.history}).integer() < 2048);
    CHECK(pttl(*server, keys.history) > 0);
    auto session = server->session();
    auto entries = ok(redis::read_history(session, keys.history, 10));
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].field("event") == "release");
    CHECK(entries[1].field("event") == "acquire");
}
