// redis::SlotStore over lua/slot.lua: the slot of the server's clock, claimed and marked only by
// the holder of the lock, never marked over a later slot, and a strict claim sent again finds
// its own mark still open.

#include "integration/lock_helpers.hpp"
#include "redis/stores/slot_store.hpp"

using namespace dlock;
using namespace dlock::test;
using State = lock::SlotAnswer::State;

namespace {

lock::SlotRule hourly(bool strict = false) {
    return lock::SlotRule{Millis(3'600'000), Millis(0), Millis(300'000), strict};
}

lock::SlotHolder holder(std::string owner, std::string hold, int64_t fence) {
    return lock::SlotHolder{std::move(owner), std::move(hold), "web-1", 4242, "alice", fence};
}

} // namespace

TEST_CASE("a slot is open until a run marks it done, and only the holder may claim it",
          "[slot_store]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    redis::SlotStore slots(connect_options(server->url()));
    const auto keys = job_keys();

    // Not held: lost, nothing written.
    CHECK(ok(slots.claim(keys, hourly(), holder("owner-a", "hold-a", 7))).state == State::lost);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-a")).acquired);
    CHECK(ok(slots.claim(keys, hourly(), holder("owner-b", "hold-b", 7))).state == State::lost);
    CHECK(ok(slots.claim(keys, hourly(), holder("owner-a", "other", 7))).state == State::lost);
    CHECK(server->cmd({"EXISTS", keys.slot}).integer() == 0);

    auto claimed = ok(slots.claim(keys, hourly(), holder("owner-a", "hold-a", 7)));
    REQUIRE(claimed.state == State::open);
    CHECK(claimed.slot == (claimed.basis_ms + 300'000) / 3'600'000);
    CHECK(server->cmd({"EXISTS", keys.slot}).integer() == 0); // a claim writes nothing

    auto marked = ok(slots.mark_done(keys, hourly(), holder("owner-a", "hold-a", 7), claimed.slot));
    CHECK(marked.state == State::open);
    CHECK(ok(slots.mark_done(keys, hourly(), holder("owner-a", "hold-a", 7), claimed.slot)).state ==
          State::done); // again: already done, unchanged
    CHECK(std::string(server->cmd({"HGET", keys.slot, "host"}).str()) == "web-1");
    CHECK(server->cmd({"PTTL", keys.slot}).integer() > 3'600'000);
    release_hold(*backend, "owner-a", "hold-a");

    REQUIRE(try_acquire(*backend, request("owner-b", "hold-b")).acquired);
    auto done = ok(slots.claim(keys, hourly(), holder("owner-b", "hold-b", 8)));
    CHECK(done.state == State::done);
    CHECK(done.done_slot == claimed.slot);
    CHECK(done.host == "web-1");
    CHECK(done.pid == "4242");
    CHECK(done.user == "alice");
    CHECK(done.fence == "7");
    // An older slot is never marked over a newer one.
    ok(slots.mark_done(keys, hourly(), holder("owner-b", "hold-b", 8), claimed.slot - 5));
    CHECK(std::stoll(std::string(server->cmd({"HGET", keys.slot, "slot"}).str())) == claimed.slot);
    CHECK(std::string(server->cmd({"HGET", keys.slot, "fence"}).str()) == "7");
}

TEST_CASE("a strict claim marks the slot at once, and finds its own mark open when sent again",
          "[slot_store]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    redis::SlotStore slots(connect_options(server->url()));
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-a")).acquired);
    auto first = ok(slots.claim(keys, hourly(true), holder("owner-a", "hold-a", 7)));
    CHECK(first.state == State::open);
    CHECK(server->cmd({"EXISTS", keys.slot}).integer() == 1);
    auto replay = ok(slots.claim(keys, hourly(true), holder("owner-a", "hold-a", 7)));
    CHECK(replay.state == State::open);
    CHECK(replay.slot == first.slot);
    release_hold(*backend, "owner-a", "hold-a");

    REQUIRE(try_acquire(*backend, request("owner-b", "hold-b")).acquired);
    CHECK(ok(slots.claim(keys, hourly(true), holder("owner-b", "hold-b", 8))).state == State::done);
}

TEST_CASE("the tolerance and the offset place a run in its slot", "[slot_store]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    redis::SlotStore slots(connect_options(server->url()));
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-a")).acquired);
    const lock::SlotRule rule{Millis(60'000), Millis(-20'000), Millis(10'000), false};
    auto claimed = ok(slots.claim(keys, rule, holder("owner-a", "hold-a", 7)));
    REQUIRE(claimed.state == State::open);
    const int64_t shifted = claimed.basis_ms + 20'000 + 10'000;
    CHECK(claimed.slot == shifted / 60'000);
}

TEST_CASE("a mark made under another period or offset does not count, and is replaced",
          "[slot_store]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    redis::SlotStore slots(connect_options(server->url()));
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-a")).acquired);
    auto hourly_claim = ok(slots.claim(keys, hourly(true), holder("owner-a", "hold-a", 7)));
    REQUIRE(hourly_claim.state == State::open);
    CHECK(hourly_claim.foreign_period.empty());
    release_hold(*backend, "owner-a", "hold-a");

    // Daily slots number far below hourly ones: the hourly mark must not make them done.
    REQUIRE(try_acquire(*backend, request("owner-b", "hold-b")).acquired);
    const lock::SlotRule daily{Millis(86'400'000), Millis(7'200'000), Millis(300'000), false};
    auto daily_claim = ok(slots.claim(keys, daily, holder("owner-b", "hold-b", 8)));
    CHECK(daily_claim.state == State::open);
    CHECK(daily_claim.foreign_period == "3600000");
    CHECK(daily_claim.foreign_offset == "0");
    CHECK(daily_claim.host == "web-1");
    ok(slots.mark_done(keys, daily, holder("owner-b", "hold-b", 8), daily_claim.slot));
    CHECK(std::stoll(std::string(server->cmd({"HGET", keys.slot, "slot"}).str())) ==
          daily_claim.slot);
    CHECK(std::string(server->cmd({"HGET", keys.slot, "period"}).str()) == "86400000");
    auto again = ok(slots.claim(keys, daily, holder("owner-b", "hold-b", 9)));
    CHECK(again.state == State::done);
}

TEST_CASE("the slot is the one of the acquisition, even when a boundary passed since",
          "[slot_store]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    redis::SlotStore slots(connect_options(server->url()));
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-a")).acquired);
    // As if the lock had been taken a second before the last boundary (past the tolerance).
    const auto since = std::string(server->cmd({"HGET", keys.lock, "since"}).str());
    const int64_t before = (std::stoll(since) / 3'600'000) * 3'600'000 - 301'000;
    server->cmd({"HSET", keys.lock, "since", std::to_string(before)});
    auto claimed = ok(slots.claim(keys, hourly(), holder("owner-a", "hold-a", 7)));
    REQUIRE(claimed.state == State::open);
    CHECK(claimed.basis_ms == before);
    CHECK(claimed.slot == std::stoll(since) / 3'600'000 - 1);
}
