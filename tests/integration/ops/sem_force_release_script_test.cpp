// lua/sem_force_release.lua against a real redis-server, with permits taken and waited for
// through redis::SemaphoreBackend: what it breaks, whom it wakes (as many as permits freed),
// what it records, and that the broken holders find out at their next renewal.

#include "integration/semaphore_helpers.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "redis/stores/history.hpp"
#include "redis/stores/semaphore_backend.hpp"

#include <set>

using namespace dlock;
using namespace dlock::test;

namespace {

const lock::Keys& keys = kPoolKeys;

// `permit` "": every permit.
redis::Reply force(const RedisServer& server, const std::string& permit) {
    return command(server,
                   {"EVAL", std::string(redis::scripts::sem_force_release.body), "6", keys.sem,
                    keys.permits, keys.squeue, keys.salive, keys.swake, keys.history, permit,
                    "3000", "ops-host", "999", "root", "dlock release --force"});
}

// The waiters among `ids` that have a wake token.
std::set<std::string> woken(const RedisServer& server, const std::vector<std::string>& ids) {
    std::set<std::string> out;
    for (const auto& id : ids)
        if (llen(server, keys.swake + "w-" + id) > 0)
            out.insert(id);
    return out;
}

// Everything stored for the semaphore, to show that a call changed nothing.
std::string snapshot(const RedisServer& server) {
    return dlock::test::snapshot(server,
                                 {keys.sem, keys.permits, keys.squeue, keys.salive, keys.history});
}

} // namespace

TEST_CASE("force release of one permit frees it alone, wakes one waiter and records the forcer",
          "[sem_force_release.lua]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    const auto a = ask(*b, "a");
    REQUIRE(a.acquired);
    REQUIRE(ask(*b, "b").acquired);
    const std::vector<std::string> waiters{"w1", "w2", "w3"};
    for (const auto& id : waiters)
        REQUIRE_FALSE(ask(*b, id, true).acquired);

    auto r = force(*server, "permit-a");
    REQUIRE(r.size() == 4);
    CHECK(r[0].integer() == 1); // woken
    CHECK(r[1].str().empty());  // no history error
    CHECK(r[2].integer() == 1); // still held
    const auto p = r[3];
    REQUIRE(p.size() == 7);
    CHECK(p[0].str() == "permit-a");
    CHECK(p[1].str() == "a-host");
    CHECK(p[2].integer() == 4242);
    CHECK(p[3].str() == "a");
    CHECK(p[4].str() == "./a.sh --full");
    CHECK(p[5].integer() > 1'700'000'000'000);
    CHECK(p[6].integer() == a.fence);

    CHECK(zrange(*server, keys.permits) == std::vector<std::string>{"permit-b"});
    CHECK(hget(*server, keys.sem, "p:permit-a").empty());
    CHECK_FALSE(hget(*server, keys.sem, "p:permit-b").empty());
    CHECK(woken(*server, waiters) == std::set<std::string>{"w1"});
    // The broken holder learns it at its next renewal, and its release frees nothing.
    CHECK_FALSE(ok(b->renew(lock::RenewRequest{keys, "owner-a", "permit-a", 30s, true})));
    CHECK(ok(b->release(keys, releasing("owner-a", "permit-a"))) == std::nullopt);
    CHECK(ok(b->renew(lock::RenewRequest{keys, "owner-b", "permit-b", 30s, true})));
    // The woken head takes the permit; the next waiter still may not.
    CHECK(ask(*b, "w1", true).acquired);
    CHECK_FALSE(ask(*b, "w2", true).acquired);

    auto conn = server->connect();
    auto session = server->session();
    auto entries = ok(redis::read_history(session, keys.history, 10));
    REQUIRE(entries.size() == 1); // sem run itself writes no history
    const auto& f = entries[0];
    CHECK(f.field("event") == "force");
    CHECK(f.field("mode") == "permit");
    CHECK(f.field("permit") == "permit-a");
    CHECK(f.field("host") == "ops-host");
    CHECK(f.field("user") == "root");
    CHECK(f.field("other_user") == "a");
    CHECK(f.field("other_pid") == "4242");
    CHECK(f.field("other_fence") == std::to_string(a.fence));
    CHECK(f.field("other_count") == "1");
    CHECK(f.field("woken") == "1");
}

TEST_CASE("force release of every permit wakes as many waiters as permits freed",
          "[sem_force_release.lua]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 3);
    const std::vector<std::string> waiters{"w1", "w2", "w3", "w4", "w5"};
    fill_and_queue(*b, {"a", "b", "c"}, waiters);

    auto r = force(*server, "");
    REQUIRE(r.size() == 6);
    CHECK(r[0].integer() == 3);
    CHECK(r[2].integer() == 0);
    std::set<std::string> broken;
    for (size_t i = 3; i < r.size(); ++i)
        broken.insert(std::string(r[i][0].str()));
    CHECK(broken == std::set<std::string>{"permit-a", "permit-b", "permit-c"});
    CHECK_FALSE(exists(*server, keys.permits));
    CHECK(woken(*server, waiters) == std::set<std::string>{"w1", "w2", "w3"});
    for (const auto* id : {"w3", "w1", "w2"})
        CHECK(ask(*b, id, true).acquired);
    CHECK_FALSE(ask(*b, "w4", true).acquired);

    auto conn = server->connect();
    auto session = server->session();
    auto entries = ok(redis::read_history(session, keys.history, 10));
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].field("other_count") == "3");
    CHECK(entries[0].field("woken") == "3");
}

TEST_CASE("force release of an unknown or expired permit breaks and records nothing",
          "[sem_force_release.lua]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    REQUIRE(ask(*b, "a").acquired);
    REQUIRE(ask(*b, "short", false, 200ms).acquired);
    REQUIRE_FALSE(ask(*b, "w1", true).acquired);
    const auto before = snapshot(*server);

    auto r = force(*server, "permit-nobody");
    REQUIRE(r.size() == 3);
    CHECK(r[0].integer() == 0);
    CHECK(r[2].integer() == 2);
    CHECK(snapshot(*server) == before);

    std::this_thread::sleep_for(300ms);
    r = force(*server, "permit-short"); // its lease ran out: nothing to break
    REQUIRE(r.size() == 3);
    CHECK(r[2].integer() == 1);
    CHECK(r[0].integer() == 1); // the permit came back, so the head is woken
    CHECK_FALSE(exists(*server, keys.history));
    CHECK(zrange(*server, keys.permits) == std::vector<std::string>{"permit-a"});
}

TEST_CASE("force release of every permit of an unused semaphore changes nothing",
          "[sem_force_release.lua]") {
    REQUIRE_REDIS(server);
    auto r = force(*server, "");
    REQUIRE(r.size() == 3);
    CHECK(r[0].integer() == 0);
    CHECK(r[2].integer() == 0);
    CHECK(server->cmd({"DBSIZE"}).integer() == 0);
}

TEST_CASE("once every permit is broken and nobody waits, the limit is no longer in force",
          "[sem_force_release.lua]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    REQUIRE(ask(*b, "a").acquired);
    auto r = force(*server, "permit-a");
    REQUIRE(r.size() == 4);
    CHECK_FALSE(exists(*server, keys.sem));
    auto other = open_semaphore(*server, 5);
    CHECK(ask(*other, "b").acquired); // a new limit is accepted
}
