// redis::force_release_lock and force_release_permits: the typed results of
// lua/force_release.lua and lua/sem_force_release.lua (the scripts themselves are tested in
// tests/integration/ops).

#include "integration/lock_helpers.hpp"
#include "redis/stores/force_release.hpp"
#include "redis/stores/semaphore_backend.hpp"

#include <set>

using namespace dlock;
using namespace dlock::test;
using State = lock::LockStatus::State;

namespace {

// A shared hold of owner "owner-<who>", hold id "hold-<who>" unless given.
lock::AcquireRequest shared_request(const std::string& who, std::string hold = "") {
    auto r =
        request("owner-" + who, hold.empty() ? "hold-" + who : std::move(hold), 30s, "", 3s, who);
    r.shared = true;
    return r;
}

const lock::HolderInfo kForcer{"ops-host", 999, "root", "dlock release --force job", 0, 0};

} // namespace

TEST_CASE("force_release_lock reports the holder it broke and the waiters it woke",
          "[force_release]") {
    REQUIRE_REDIS(server);
    const auto keys = job_keys();
    auto backend = open_backend(*server);
    auto taken = try_acquire(*backend, request("owner-a", "hold-1", 30s, "", 3s, "alice", 4242));
    REQUIRE(taken.acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);

    auto conn = server->connect();
    auto session = server->session();
    const auto broken = ok(redis::force_release_lock(session, keys, kForcer, 3s));
    CHECK(broken.woken == 1);
    REQUIRE(broken.holds.size() == 1);
    CHECK(broken.holds[0].mode == State::exclusive);
    const auto& h = broken.holds[0].holder;
    CHECK(h.host == "alice-host");
    CHECK(h.pid == 4242);
    CHECK(h.user == "alice");
    CHECK(h.command == "./alice.sh --full");
    CHECK(h.since_ms > 0);
    CHECK(h.fence == taken.fence);
    CHECK_FALSE(exists(*server, keys.lock));

    const auto again = ok(redis::force_release_lock(session, keys, kForcer, 3s));
    CHECK(again.holds.empty()); // nothing held any more
}

TEST_CASE("force_release_lock reports shared holds one per owner", "[force_release]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, shared_request("r1")).acquired);
    REQUIRE(try_acquire(*backend, shared_request("r2")).acquired);
    REQUIRE(try_acquire(*backend, shared_request("r2", "hold-r2b")).acquired); // re-entered
    auto conn = server->connect();
    auto session = server->session();
    const auto broken = ok(redis::force_release_lock(session, job_keys(), kForcer, 3s));
    REQUIRE(broken.holds.size() == 2);
    std::set<std::string> users;
    for (const auto& hold : broken.holds) {
        CHECK(hold.mode == State::shared);
        users.insert(hold.holder.user);
    }
    CHECK(users == std::set<std::string>{"r1", "r2"});
}

TEST_CASE("force_release_permits reports each permit it broke", "[force_release][semaphore]") {
    REQUIRE_REDIS(server);
    const auto keys = job_keys("pool");
    redis::SemaphoreBackend semaphore(connect_options(server->url()), 2);
    for (auto who : {"a", "b"})
        REQUIRE(ok(semaphore.acquire(keys, request(std::string("owner-") + who,
                                                   std::string("permit-") + who, 30s, "", 3s, who)))
                    .acquired);
    auto conn = server->connect();
    auto session = server->session();

    const auto one = ok(redis::force_release_permits(session, keys, "permit-a", kForcer, 3s));
    REQUIRE(one.permits.size() == 1);
    CHECK(one.permits[0].permit == "permit-a");
    CHECK(one.permits[0].holder.user == "a");
    CHECK(one.permits[0].holder.command == "./a.sh --full");

    CHECK(ok(redis::force_release_permits(session, keys, "permit-a", kForcer, 3s)).permits.empty());
    const auto rest = ok(redis::force_release_permits(session, keys, "", kForcer, 3s));
    REQUIRE(rest.permits.size() == 1);
    CHECK(rest.permits[0].permit == "permit-b");
    CHECK(rest.permits[0].holder.user == "b");
}
