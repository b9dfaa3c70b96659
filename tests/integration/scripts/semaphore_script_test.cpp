// Semaphore scripts (lua/sem_*.lua through redis::SemaphoreBackend) against a real
// redis-server: the limit, reclaim of expired permits, replays, releases that must not free
// anything, conflicting limits, FIFO order and wake-ups for exactly the permits freed.

#include "integration/semaphore_helpers.hpp"
#include "lock/acquire.hpp"
#include "redis/protocol/command_stats.hpp"
#include "redis/stores/semaphore_backend.hpp"

#include <set>

using namespace dlock;
using namespace dlock::test;

namespace {

const lock::Keys& keys = kPoolKeys;

std::optional<int64_t> give_back(redis::SemaphoreBackend& b, const std::string& id) {
    return ok(b.release(keys, releasing("owner-" + id, "permit-" + id)));
}

int64_t held(const RedisServer& server) {
    return server.cmd({"ZCARD", keys.permits}).integer();
}

int64_t wake_tokens(const RedisServer& server, const std::string& id) {
    return llen(server, keys.swake + "w-" + id);
}

// Everything stored for the semaphore, to show that a refused call changed nothing.
std::string snapshot(const RedisServer& server) {
    return dlock::test::snapshot(server,
                                 {keys.sem, keys.permits, keys.squeue, keys.salive, keys.fence});
}

} // namespace

TEST_CASE("a semaphore admits at most its limit of holders", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 3);
    auto a1 = ask(*b, "a"), a2 = ask(*b, "b"), a3 = ask(*b, "c");
    CHECK(a1.acquired);
    CHECK(a1.shared); // renewed and released by its permit id
    CHECK(a2.acquired);
    CHECK(a3.acquired);
    CHECK(a2.fence > a1.fence);
    CHECK(a3.fence > a2.fence);

    auto refused = ask(*b, "d");
    CHECK_FALSE(refused.acquired);
    CHECK(refused.permit_limit == 3);
    CHECK(refused.permits_held == 3);
    REQUIRE(refused.permit_holders.size() == 3);
    REQUIRE(refused.holder);
    std::set<std::string> users;
    for (const auto& h : refused.permit_holders)
        users.insert(h.user);
    CHECK(users == std::set<std::string>{"a", "b", "c"});
    CHECK(refused.permit_holders[0].host.ends_with("-host"));
    CHECK(refused.permit_holders[0].pid == 4242);
    CHECK(refused.lease_left > 20s);
    CHECK(hget(*server, keys.sem, "limit") == "3");

    CHECK(give_back(*b, "b") == 0);
    CHECK(ask(*b, "d").acquired);
    CHECK(held(*server) == 3);
}

TEST_CASE("a semaphore's keys expire with the longest lease and vanish when unused",
          "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    REQUIRE(ask(*b, "a", false, 10s).acquired);
    REQUIRE(ask(*b, "b", false, 20s).acquired);
    CHECK(pttl(*server, keys.sem) > 15'000);
    CHECK(pttl(*server, keys.sem) <= 20'000);
    CHECK(pttl(*server, keys.permits) > 15'000);
    CHECK(pttl(*server, keys.fence) > 0);
    CHECK(give_back(*b, "a") == 0);
    CHECK(give_back(*b, "b") == 0);
    CHECK_FALSE(exists(*server, keys.sem));
    CHECK_FALSE(exists(*server, keys.permits));
}

TEST_CASE("the permit of a crashed holder comes back after its lease", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    REQUIRE(ask(*b, "crashed", false, 300ms).acquired);
    REQUIRE(ask(*b, "alive").acquired);
    CHECK_FALSE(ask(*b, "late").acquired);
    std::this_thread::sleep_for(500ms);
    CHECK(ask(*b, "late").acquired);
    CHECK(held(*server) == 2);
    CHECK(hget(*server, keys.sem, "p:permit-crashed").empty());
    // Its holder can neither renew nor release it any more.
    CHECK_FALSE(ok(b->renew({keys, "owner-crashed", "permit-crashed", 30s, true})));
    CHECK_FALSE(give_back(*b, "crashed"));
    CHECK(held(*server) == 2);
}

TEST_CASE("a replayed acquire returns the same permit and takes no other", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    auto first = ask(*b, "a", true);
    auto replay = ask(*b, "a", true);
    REQUIRE(first.acquired);
    REQUIRE(replay.acquired);
    CHECK(replay.fence == first.fence);
    CHECK(held(*server) == 1);
    CHECK(ask(*b, "b").acquired); // the second permit is still free
}

TEST_CASE("releasing an unknown, foreign or expired permit frees nothing", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    REQUIRE(ask(*b, "short", false, 300ms).acquired);
    REQUIRE(ask(*b, "a").acquired);
    std::this_thread::sleep_for(500ms);
    REQUIRE(ask(*b, "b").acquired); // takes the expired permit's place
    REQUIRE_FALSE(ask(*b, "w", true).acquired);

    CHECK_FALSE(ok(b->release(keys, releasing("owner-x", "permit-unknown"))));
    CHECK_FALSE(ok(b->release(keys, releasing("owner-x", "permit-a")))); // not the owner
    CHECK_FALSE(give_back(*b, "short"));                                 // expired and reclaimed
    CHECK_FALSE(give_back(*b, "short"));
    CHECK(held(*server) == 2);
    CHECK(wake_tokens(*server, "w") == 0);
    CHECK_FALSE(ask(*b, "w", true).acquired);
    CHECK_FALSE(ask(*b, "newcomer").acquired);

    // A real release frees exactly one; releasing it again (a retry after a lost reply) finds
    // its receipt and frees no other.
    CHECK(give_back(*b, "a") == 0);
    CHECK(give_back(*b, "a") == 0);
    CHECK(held(*server) == 1);
}

TEST_CASE("a permit is not kept after its release: --min-hold is refused, nothing changed",
          "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    REQUIRE(ask(*b, "a").acquired);
    const auto before = snapshot(*server);
    auto r = releasing("owner-a", "permit-a");
    r.min_hold = 10s;
    auto released = b->release(keys, r);
    REQUIRE_FALSE(released);
    CHECK(released.error().fault == dlock::Fault::internal);
    CHECK_FALSE(released.error().transient);
    CHECK(snapshot(*server) == before);
    CHECK(give_back(*b, "a") == 0);
}

TEST_CASE("asking for another limit while holders exist is refused and changes nothing",
          "[semaphore]") {
    REQUIRE_REDIS(server);
    auto three = open_semaphore(*server, 3);
    auto five = open_semaphore(*server, 5);
    REQUIRE(ask(*three, "a").acquired);
    REQUIRE(ask(*three, "b").acquired);
    const auto before = snapshot(*server);

    for (bool queue : {false, true}) {
        auto r = five->acquire(keys, request("owner-c", "permit-c", 30s, queue ? "w-c" : ""));
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.find("3 permits (2 held), not 5") != std::string::npos);
        CHECK(snapshot(*server) == before);
    }

    // Once nobody holds a permit, the new limit takes effect.
    CHECK(give_back(*three, "a") == 0);
    CHECK(give_back(*three, "b") == 0);
    for (const auto* id : {"c", "d", "e", "f", "g"})
        CHECK(ask(*five, id).acquired);
    CHECK(hget(*server, keys.sem, "limit") == "5");
    CHECK_FALSE(ask(*five, "h").acquired);
}

TEST_CASE("a waiter with another limit leaves the queue when refused", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto one = open_semaphore(*server, 1);
    auto two = open_semaphore(*server, 2);
    REQUIRE(ask(*one, "a").acquired);
    REQUIRE_FALSE(ask(*one, "w1", true).acquired);
    REQUIRE_FALSE(two->acquire(keys, request("owner-w2", "permit-w2", 30s, "w-w2")));
    CHECK(zrange(*server, keys.squeue) == std::vector<std::string>{"w-w1"});
}

TEST_CASE("semaphore waiters are served in arrival order", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 1);
    fill_and_queue(*b, {"holder"}, {"w1", "w2", "w3"});
    CHECK(zrange(*server, keys.squeue) == std::vector<std::string>{"w-w1", "w-w2", "w-w3"});

    CHECK(give_back(*b, "holder") == 0);
    CHECK(wake_tokens(*server, "w1") == 1);
    CHECK(wake_tokens(*server, "w2") == 0);
    // Neither a later waiter nor a newcomer takes the permit freed for the head.
    CHECK_FALSE(ask(*b, "w3", true).acquired);
    CHECK_FALSE(ask(*b, "newcomer").acquired);
    CHECK(ask(*b, "w1", true).acquired);

    CHECK(give_back(*b, "w1") == 0);
    CHECK(wake_tokens(*server, "w2") == 1);
    CHECK(wake_tokens(*server, "w3") == 0);
    CHECK(ask(*b, "w2", true).acquired);
    CHECK(give_back(*b, "w2") == 0);
    CHECK(ask(*b, "w3", true).acquired);
    CHECK_FALSE(exists(*server, keys.squeue));
}

TEST_CASE("a release wakes only as many waiters as permits it frees", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 3);
    const std::vector<std::string> waiters{"w1", "w2", "w3", "w4", "w5"};
    fill_and_queue(*b, {"a", "b", "c"}, waiters);
    auto woken = [&] {
        std::vector<std::string> out;
        for (const auto& id : waiters)
            if (wake_tokens(*server, id) > 0)
                out.push_back(id);
        return out;
    };
    CHECK(woken().empty());
    CHECK(give_back(*b, "a") == 0);
    CHECK(woken() == std::vector<std::string>{"w1"});
    CHECK(give_back(*b, "b") == 0);
    CHECK(woken() == std::vector<std::string>{"w1", "w2"});
    // Two permits are free: the first two waiters may take them, the third may not.
    CHECK_FALSE(ask(*b, "w3", true).acquired);
    CHECK(ask(*b, "w2", true).acquired);
    CHECK(ask(*b, "w1", true).acquired);
    CHECK(woken().empty());
}

TEST_CASE("a semaphore waiter leaving passes its wake-up on", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 1);
    REQUIRE(ask(*b, "holder").acquired);
    REQUIRE_FALSE(ask(*b, "w1", true).acquired);
    REQUIRE_FALSE(ask(*b, "w2", true).acquired);
    CHECK(give_back(*b, "holder") == 0);
    CHECK(wake_tokens(*server, "w1") == 1);
    ok(b->leave_queue(keys, "w-w1", 3s));
    CHECK(wake_tokens(*server, "w1") == 0);
    CHECK(wake_tokens(*server, "w2") == 1);
    CHECK(ask(*b, "w2", true).acquired);
}

TEST_CASE("a dead semaphore waiter at the head blocks nobody after its heartbeat", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 1);
    REQUIRE(ask(*b, "holder").acquired);
    REQUIRE_FALSE(ask(*b, "dead", true, 30s, 200ms).acquired);
    REQUIRE_FALSE(ask(*b, "w2", true).acquired);
    CHECK(give_back(*b, "holder") == 0);
    auto refused = ask(*b, "w2", true); // the dead one still counts...
    CHECK_FALSE(refused.acquired);
    // ...until its heartbeat lapses, which the refusal tells, so w2 waits no longer than that.
    CHECK(refused.lease_left > 0ms);
    CHECK(refused.lease_left <= 200ms);
    std::this_thread::sleep_for(refused.lease_left + 5ms);
    CHECK(ask(*b, "w2", true).acquired);
    CHECK(zrange(*server, keys.squeue).empty());
}

TEST_CASE("only the holder renews its permit", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 2);
    REQUIRE(ask(*b, "a", false, 1s).acquired);
    CHECK(ok(b->renew({keys, "owner-a", "permit-a", 30s, true})));
    const auto deadline = server->cmd({"ZSCORE", keys.permits, "permit-a"}).to_int().value();
    CHECK(deadline - server_time_ms(*server) > 25'000);
    CHECK(pttl(*server, keys.sem) > 25'000);
    CHECK_FALSE(ok(b->renew({keys, "owner-x", "permit-a", 30s, true})));
    CHECK_FALSE(ok(b->renew({keys, "owner-a", "permit-other", 30s, true})));
    CHECK_FALSE(ok(b->renew({keys, "owner-a", "", 30s}))); // a permit is renewed by its id
}

TEST_CASE("lock::acquire waits for a permit and gets it soon after a release",
          "[semaphore][lock::acquire]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 1);
    REQUIRE(ask(*b, "holder").acquired);
    std::thread releaser([&] {
        auto other = open_semaphore(*server, 1);
        std::this_thread::sleep_for(300ms);
        (void)give_back(*other, "holder");
    });
    const auto start = Clock::now();
    auto result =
        lock::acquire(*b, lock::AcquireSpec{keys, request("owner-w", "permit-w"), Millis(5000)});
    const auto waited = elapsed_since(start);
    releaser.join();
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::Acquired>(*result));
    CHECK(waited >= 250ms);
    CHECK(waited < 900ms); // woken by the release, not by the 1 s heartbeat round
}

TEST_CASE("semaphore commands per handover do not grow with the number of waiters", "[semaphore]") {
    REQUIRE_REDIS(server);
    auto b = open_semaphore(*server, 1);
    auto conn = server->connect();
    struct Handover {
        int64_t scripts = 0, calls = 0; // calls: Redis counts the ones inside scripts too
    };
    // One release + the next waiter's acquire, with `waiters` queued.
    auto handover = [&](int waiters) {
        server->cmd({"FLUSHALL"});
        REQUIRE(ask(*b, "holder").acquired);
        for (int i = 0; i < waiters; ++i)
            REQUIRE_FALSE(ask(*b, "w" + std::to_string(i), true).acquired);
        auto before = ok(redis::command_stats(conn));
        CHECK(give_back(*b, "holder") == 0);
        CHECK(ask(*b, "w0", true).acquired);
        auto after = ok(redis::command_stats(conn));
        Handover h;
        for (const auto& [command, calls] : redis::calls_between(before, after)) {
            if (command == "evalsha" || command == "eval")
                h.scripts += calls;
            if (command != "info")
                h.calls += calls;
        }
        return h;
    };
    (void)handover(1); // loads the scripts (the first EVALSHA falls back to EVAL)
    const auto few = handover(2);
    const auto many = handover(40);
    CHECK(few.scripts == 2);
    CHECK(many.scripts == 2);
    // A key's TTL is only extended when it fell below the lease, which varies by a call or two.
    CHECK(many.calls <= few.calls + 2);
    CHECK(few.calls < 40);
}
