#include "integration/lock_helpers.hpp"
#include "redis/scripts/script_session.hpp"
#include "redis/topology/deployment.hpp"
#include "support/sentinel_deployment.hpp"

#include <csignal>

using namespace dlock;
using namespace dlock::test;

namespace {

// The deployment as dlock sees it: its URL, with the master's and the sentinels' passwords.
redis::Deployment deployment_of(const SentinelDeployment& d,
                                const std::string& name = SentinelDeployment::kMaster) {
    auto parsed = redis::parse_deployment(d.url(name));
    if (!parsed)
        FAIL(parsed.error().message);
    parsed->set_password(d.options().master_password);
    parsed->sentinel_password = d.options().sentinel_password;
    return *parsed;
}

std::unique_ptr<redis::LockBackend> backend_on(redis::Deployment deployment) {
    auto backend = std::make_unique<redis::LockBackend>(std::move(deployment));
    if (auto ok = backend->connect(); !ok)
        FAIL(ok.error().message);
    return backend;
}

int64_t pttl_on(const RedisNode& node, const std::string& key) {
    return node.cmd({"PTTL", key}).integer();
}

bool has_key(const RedisNode& node, const std::string& key) {
    return node.cmd({"EXISTS", key}).integer() == 1;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

redis::Deployment sentinels_at(const std::vector<std::string>& addresses) {
    std::string url = "redis-sentinel://";
    for (const auto& a : addresses)
        url += (url.back() == '/' ? "" : ",") + a;
    auto parsed = redis::parse_deployment(url + "#mymaster");
    REQUIRE(parsed);
    return *parsed;
}

} // namespace

TEST_CASE("Sentinel: leases live on the master the sentinels name", "[sentinel]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_SHARED_SENTINEL(d);
    const auto keys = job_keys();
    const std::string master = d->master().address();

    SECTION("a lease is taken on the master and reaches the replicas") {
        auto backend = backend_on(deployment_of(*d));
        REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
        CHECK(has_key(d->master(), keys.lock));
        CHECK(eventually([&] { return has_key(d->data(1), keys.lock); }));
        CHECK(ok(backend->renew({keys, "owner-a", "", 30s})));
        CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
        CHECK_FALSE(has_key(d->master(), keys.lock));
    }
    SECTION("status reads the master") {
        redis::ScriptSession session(deployment_of(*d));
        auto masters = ok(session.masters());
        REQUIRE(masters.size() == 1);
        CHECK(masters.front()->options().endpoint.display() == master);
    }
    SECTION("a master name the sentinels do not know is unavailable at once") {
        redis::LockBackend backend(deployment_of(*d, "nosuchmaster"));
        const auto start = Clock::now();
        auto connected = backend.connect();
        REQUIRE_FALSE(connected);
        CHECK(elapsed_since(start) < 1s);
        CHECK(connected.error().fault == dlock::Fault::unavailable);
        CHECK_FALSE(connected.error().transient);
        INFO(connected.error().message);
        CHECK(contains(connected.error().message, "knows no master named nosuchmaster"));
        CHECK(contains(connected.error().message, d->sentinel(2).address()));
    }
    SECTION("without the sentinels' password: the line says which password is missing") {
        auto deployment = deployment_of(*d);
        deployment.sentinel_password.clear();
        redis::LockBackend backend(deployment);
        auto connected = backend.connect();
        REQUIRE_FALSE(connected);
        CHECK(connected.error().fault == dlock::Fault::unavailable);
        INFO(connected.error().message);
        CHECK(contains(connected.error().message,
                       "sentinel " + d->sentinel(0).address() + " requires a password (NOAUTH)"));
        CHECK(contains(connected.error().message, "DLOCK_SENTINEL_PASSWORD"));
        CHECK_FALSE(contains(connected.error().message, "DLOCK_REDIS_PASSWORD"));
    }
    SECTION("a wrong sentinel password is refused without showing it") {
        auto deployment = deployment_of(*d);
        deployment.sentinel_password = "wrong-Pa55";
        redis::LockBackend backend(deployment);
        auto connected = backend.connect();
        REQUIRE_FALSE(connected);
        CHECK(connected.error().fault == dlock::Fault::unavailable);
        INFO(connected.error().message);
        CHECK(contains(connected.error().message,
                       "authentication to sentinel " + d->sentinel(0).address()));
        CHECK_FALSE(contains(connected.error().message, "wrong-Pa55"));
        CHECK_FALSE(contains(connected.error().message, "sentinel-Pa55"));
    }
    SECTION("the master's password is not the sentinels'") {
        auto deployment = deployment_of(*d);
        deployment.set_password("");
        redis::LockBackend backend(deployment);
        auto connected = backend.connect();
        REQUIRE_FALSE(connected);
        CHECK(connected.error().fault == dlock::Fault::unavailable);
        INFO(connected.error().message);
        CHECK(contains(connected.error().message, "Redis at " + master));
        CHECK(contains(connected.error().message, "DLOCK_REDIS_PASSWORD"));
    }
    SECTION("a sentinel that does not answer is skipped after a short timeout") {
        d->sentinel(0).pause();
        const auto start = Clock::now();
        auto backend = std::make_unique<redis::LockBackend>(deployment_of(*d));
        auto connected = backend->connect();
        const auto took = elapsed_since(start);
        d->sentinel(0).resume();
        REQUIRE(connected);
        CHECK(took >= 400ms);
        CHECK(took < 1500ms);
        REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
        CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
    }
    SECTION("sentinels that cannot be asked before a renewal: it goes to the master known") {
        auto backend = backend_on(deployment_of(*d));
        REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
        for (size_t i = 0; i < 3; ++i) // briefly: a sentinel paused 2 s enters TILT mode
            d->sentinel(i).pause();
        const auto start = Clock::now();
        auto renewed = backend->renew({keys, "owner-a", "", 30s});
        const auto took = elapsed_since(start);
        for (size_t i = 0; i < 3; ++i)
            d->sentinel(i).resume();
        REQUIRE(renewed);
        CHECK(*renewed);
        CHECK(took < 1800ms); // 500 ms per sentinel, then the renewal
        CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
    }
    SECTION("a connection to the master that breaks is replaced by asking again") {
        auto backend = backend_on(deployment_of(*d));
        d->master().cmd({"CLIENT", "KILL", "TYPE", "normal"});
        auto first = backend->acquire(keys, request("owner-a", "hold-1"));
        if (!first) {
            CHECK(first.error().transient);
            first = backend->acquire(keys, request("owner-a", "hold-1"));
        }
        REQUIRE(first);
        CHECK(first->acquired);
        CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
    }
}

TEST_CASE("Sentinel: no sentinel answering is unavailable within a short timeout each",
          "[sentinel]") {
    signal(SIGPIPE, SIG_IGN);
    SECTION("nothing listens: at once") {
        redis::LockBackend backend(
            sentinels_at({"127.0.0.1:" + std::to_string(free_tcp_port()),
                          "127.0.0.1:" + std::to_string(free_tcp_port()), "127.0.0.1:1"}));
        const auto start = Clock::now();
        auto connected = backend.connect();
        const auto took = elapsed_since(start);
        REQUIRE_FALSE(connected);
        CHECK(took < 500ms);
        CHECK(connected.error().fault == dlock::Fault::unavailable);
        CHECK_FALSE(connected.error().transient);
        INFO(connected.error().message);
        CHECK(contains(connected.error().message, "no sentinel named the master mymaster"));
        CHECK(contains(connected.error().message, "cannot reach sentinel 127.0.0.1:1"));
    }
    SECTION("they accept and never answer: 500 ms each, not the connect timeout") {
        SilentListener a, b, c;
        redis::LockBackend backend(sentinels_at({a.address(), b.address(), c.address()}));
        const auto start = Clock::now();
        auto connected = backend.connect();
        const auto took = elapsed_since(start);
        REQUIRE_FALSE(connected);
        CHECK(took >= 1400ms);
        CHECK(took < 2500ms); // the connect timeout (2 s) for each would be 6 s
        CHECK(connected.error().fault == dlock::Fault::unavailable);
        INFO(connected.error().message);
        CHECK(contains(connected.error().message, "timed out"));
    }
}

TEST_CASE("Sentinel: after SENTINEL FAILOVER renewals, waits and releases go to the new master",
          "[sentinel][failover]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_SENTINEL(d);
    const auto keys = job_keys();
    RedisNode& old_master = d->data(0);
    auto holder = backend_on(deployment_of(*d));
    auto waiter_backend = backend_on(deployment_of(*d));
    REQUIRE(try_acquire(*holder, request("owner-a", "hold-1")).acquired);
    REQUIRE_FALSE(try_acquire(*waiter_backend, waiter("w1")).acquired);
    REQUIRE(eventually([&] { return has_key(d->data(1), keys.queue); }));

    // The waiter blocks on the old master while it fails over.
    std::optional<Result<bool>> woken;
    Clock::time_point woken_at;
    std::thread blocked([&] {
        woken = waiter_backend->await_wake(keys, "w1", 12s);
        woken_at = Clock::now();
    });
    RedisNode& new_master = d->failover();
    REQUIRE(&new_master == &d->data(1));

    // The old master still takes writes: the renewal must not go there.
    const int64_t old_ttl = pttl_on(old_master, keys.lock);
    CHECK(ok(holder->renew({keys, "owner-a", "", 30s})));
    CHECK(pttl_on(new_master, keys.lock) > 29'000);
    CHECK(pttl_on(old_master, keys.lock) <= old_ttl);

    // Demoted at last (Sentinel takes ~11 s; by hand here): its blocked clients are unblocked
    // with UNBLOCKED, and the waiter blocks again on the new master.
    old_master.cmd({"REPLICAOF", "127.0.0.1", std::to_string(new_master.port())});
    std::this_thread::sleep_for(300ms);
    CHECK_FALSE(woken.has_value());
    const auto released_at = Clock::now();
    REQUIRE(release_hold(*holder, "owner-a", "hold-1") == 0);
    blocked.join();
    REQUIRE(woken.has_value());
    REQUIRE(*woken);
    CHECK(**woken);
    CHECK(woken_at - released_at < 1s);
    CHECK(try_acquire(*waiter_backend, waiter("w1")).acquired);
    CHECK(has_key(new_master, keys.lock));
}
