// lua/force_release.lua against a real redis-server: what it breaks, whom it wakes, what it
// records, and that the broken holders find out at their next renewal.

#include "integration/lock_helpers.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "redis/stores/history.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

const lock::Keys keys = job_keys();

redis::Reply force(const RedisServer& server) {
    return command(server,
                   {"EVAL", std::string(redis::scripts::force_release.body), "7", keys.lock,
                    keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo, keys.history,
                    "3000", "ops-host", "999", "root", "dlock release --force job"});
}

redis::HistoryEntry newest_entry(const RedisServer& server) {
    auto conn = server.connect();
    auto session = server.session();
    auto entries = ok(redis::read_history(session, keys.history, 1));
    REQUIRE(entries.size() == 1);
    return entries[0];
}

} // namespace

TEST_CASE("force release of a free lock changes nothing and says so", "[force_release.lua]") {
    REQUIRE_REDIS(server);
    auto r = force(*server);
    REQUIRE(r.size() == 2);
    CHECK(r[0].integer() == 0);
    CHECK(server->cmd({"DBSIZE"}).integer() == 0);
}

TEST_CASE("force release breaks an exclusive lock, wakes the queue head and records the forcer",
          "[force_release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto taken = try_acquire(*backend, request("owner-a", "hold-1", 30s, "", 3s, "alice", 4242));
    REQUIRE(taken.acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);

    auto r = force(*server);
    REQUIRE(r.size() == 3);
    CHECK(r[0].integer() == 1); // woken
    CHECK(r[1].str().empty());  // no history error
    const auto holder = r[2];
    REQUIRE(holder.size() == 7);
    CHECK(holder[0].str() == "x");
    CHECK(holder[1].str() == "alice-host");
    CHECK(holder[2].integer() == 4242);
    CHECK(holder[3].str() == "alice");
    CHECK(holder[4].str() == "./alice.sh --full");
    CHECK(holder[6].integer() == taken.fence);

    CHECK_FALSE(exists(*server, keys.lock));
    CHECK(llen(*server, keys.wake + "wa") == 1);
    // The head's wait returns at once and it takes the lock.
    const auto start = Clock::now();
    CHECK(ok(backend->await_wake(keys, "wa", 5s)));
    CHECK(elapsed_since(start) < 1s);
    CHECK(try_acquire(*backend, waiter("wa")).acquired);

    // The broken holder learns it at its next renewal, and its release is "not ours".
    CHECK_FALSE(ok(backend->renew({keys, "owner-a", "", 30s})));
    CHECK(release_hold(*backend, "owner-a", "hold-1") == std::nullopt);

    const auto e = newest_entry(*server);
    // Newest is wa's acquisition; the force entry is just before it.
    auto conn = server->connect();
    auto session = server->session();
    auto entries = ok(redis::read_history(session, keys.history, 2));
    REQUIRE(entries.size() == 2);
    CHECK(e.field("event") == "acquire");
    const auto& f = entries[1];
    CHECK(f.field("event") == "force");
    CHECK(f.field("host") == "ops-host");
    CHECK(f.field("pid") == "999");
    CHECK(f.field("user") == "root");
    CHECK(f.field("command") == "dlock release --force job");
    CHECK(f.field("other_user") == "alice");
    CHECK(f.field("other_pid") == "4242");
    CHECK(f.field("other_fence") == std::to_string(taken.fence));
    CHECK(f.field("woken") == "1");
}

TEST_CASE("force release breaks every shared hold, once per owner", "[force_release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    for (auto who : {"r1", "r2"}) {
        auto r = request(std::string("owner-") + who, std::string("hold-") + who, 30s, "", 3s, who);
        r.shared = true;
        REQUIRE(try_acquire(*backend, r).acquired);
    }
    auto again = request("owner-r1", "hold-r1b", 30s, "", 3s, "r1");
    again.shared = true;
    REQUIRE(try_acquire(*backend, again).acquired);

    auto r = force(*server);
    REQUIRE(r.size() == 4);
    CHECK(r[2][0].str() == "s");
    CHECK(r[3][0].str() == "s");
    CHECK_FALSE(exists(*server, keys.readers));
    CHECK_FALSE(exists(*server, keys.rinfo));
    CHECK_FALSE(ok(backend->renew({keys, "owner-r2", "hold-r2", 30s, true})));
    CHECK(newest_entry(*server).field("other_count") == "2");
}

TEST_CASE("force release reports a shared holder whose command contains tabs intact",
          "[force_release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto r = request("owner-r1", "hold-r1", 30s, "", 3s, "r1");
    r.shared = true;
    r.self.command = "printf 'a\tb\tc'";
    const auto taken = try_acquire(*backend, r);
    REQUIRE(taken.acquired);

    auto forced = force(*server);
    REQUIRE(forced.size() == 3);
    const auto holder = forced[2];
    CHECK(holder[4].str() == "printf 'a\tb\tc'");
    CHECK(holder[5].integer() > 1'700'000'000'000); // since: server ms, not a piece of the command
    CHECK(holder[6].integer() == taken.fence);
}

TEST_CASE("force release ends a --min-hold remainder early", "[force_release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    lock::ReleaseRequest done{"owner-a", "hold-1", 3s, false, 0, 60s};
    REQUIRE(ok(backend->release(keys, done)) == 0);
    REQUIRE(exists(*server, keys.lock));

    auto r = force(*server);
    REQUIRE(r.size() == 3);
    CHECK(r[2][0].str() == "done");
    CHECK(try_acquire(*backend, request("owner-b", "hold-b")).acquired);
}
