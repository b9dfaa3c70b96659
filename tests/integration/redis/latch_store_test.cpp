// redis::LatchStore: the typed results of the latch scripts (lua/latch_*.lua, tested
// themselves in tests/integration/scripts/latch_script_test.cpp) and its retries.

#include "integration/lock_helpers.hpp"
#include "redis/stores/latch_store.hpp"

#include <csignal>

using namespace dlock;
using namespace dlock::test;
using Outcome = redis::LatchStore::Created::Outcome;
using State = redis::LatchStore::Round::State;

namespace {

const lock::LatchKeys keys = lock::LatchKeys::of("dlock", "deploy");

} // namespace

TEST_CASE("a latch is created once, refreshed by the same count, refused another",
          "[latch_store]") {
    REQUIRE_REDIS(server);
    redis::LatchStore store(connect_options(server->url()));
    auto created = ok(store.create(keys, 3, 60s));
    CHECK(created.outcome == Outcome::created);
    CHECK(created.count == 3);
    CHECK(created.initial == 3);

    REQUIRE(ok(store.count_down(keys, 1, "r1", 6s)).count == 2);
    auto refreshed = ok(store.create(keys, 3, 60s));
    CHECK(refreshed.outcome == Outcome::refreshed);
    CHECK(refreshed.count == 2);
    auto conflict = ok(store.create(keys, 5, 60s));
    CHECK(conflict.outcome == Outcome::conflict);
    CHECK(conflict.initial == 3);
}

TEST_CASE("a latch that reached zero is refused by create and restarted by a reset",
          "[latch_store]") {
    REQUIRE_REDIS(server);
    redis::LatchStore store(connect_options(server->url()));
    ok(store.create(keys, 1, 60s));
    REQUIRE(ok(store.count_down(keys, 1, "r1", 6s)).count == 0);
    auto finished = ok(store.create(keys, 1, 60s));
    CHECK(finished.outcome == Outcome::finished);
    CHECK(finished.count == 0);
    CHECK(finished.initial == 1);

    auto reset = ok(store.create(keys, 2, 60s, "round-2"));
    CHECK(reset.outcome == Outcome::reset);
    CHECK(reset.count == 0);
    CHECK(reset.initial == 1);
    auto round = ok(store.wait_round(keys, "w1", 3s));
    CHECK(round.state == State::waiting);
    CHECK(round.count == 2);
}

TEST_CASE("a latch counts down once per request id and wakes its waiters at zero",
          "[latch_store]") {
    REQUIRE_REDIS(server);
    redis::LatchStore store(connect_options(server->url()));
    CHECK_FALSE(ok(store.count_down(keys, 1, "r0", 6s)).exists);
    CHECK(ok(store.wait_round(keys, "w1", 3s)).state == State::missing);

    ok(store.create(keys, 2, 60s));
    auto round = ok(store.wait_round(keys, "w1", 3s));
    CHECK(round.state == State::waiting);
    CHECK(round.count == 2);
    CHECK_FALSE(ok(store.await_token(keys, "w1", 1ms)));

    auto first = ok(store.count_down(keys, 1, "r1", 6s));
    CHECK(first.exists);
    CHECK(first.count == 1);
    CHECK(ok(store.count_down(keys, 1, "r1", 6s)).count == 1); // a replay
    auto last = ok(store.count_down(keys, 1, "r2", 6s));
    CHECK(last.count == 0);
    CHECK(last.woken == 1);
    CHECK(ok(store.await_token(keys, "w1", 1s)));
    CHECK(ok(store.wait_round(keys, "w1", 3s)).state == State::done);
}

TEST_CASE("latch status is nullopt for a missing latch", "[latch_store]") {
    REQUIRE_REDIS(server);
    redis::LatchStore store(connect_options(server->url()));
    CHECK_FALSE(ok(store.status(keys)));
    ok(store.create(keys, 2, 60s));
    ok(store.wait_round(keys, "w1", 3s));
    const auto status = ok(store.status(keys));
    REQUIRE(status);
    CHECK(status->count == 2);
    CHECK(status->initial == 2);
    CHECK(status->ttl_left > 50s);
    CHECK(status->waiters == 1);
    ok(store.leave(keys, "w1"));
    CHECK(ok(store.status(keys))->waiters == 0);
}

TEST_CASE("the latch store retries a script over a new connection after a restart",
          "[latch_store]") {
    signal(SIGPIPE, SIG_IGN); // as dlock's main() does
    REQUIRE_REDIS(server);
    redis::LatchStore store(connect_options(server->url()));
    ok(store.create(keys, 2, 60s));
    server->restart(); // no persistence: the latch is gone
    CHECK(ok(store.create(keys, 2, 60s)).outcome == Outcome::created);
}

TEST_CASE("a server never reached is reported at once, not retried", "[latch_store]") {
    REQUIRE_REDIS(server);
    const std::string url = server->url();
    server->stop();
    redis::LatchStore store(connect_options(url));
    const auto start = Clock::now();
    auto created = store.create(keys, 2, 60s);
    REQUIRE_FALSE(created);
    CHECK(created.error().fault == dlock::Fault::unavailable);
    CHECK(elapsed_since(start) < 150ms); // no 200 ms pause before a second try
}
