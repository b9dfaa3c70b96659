#include "lock/quorum.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

using namespace dlock;
using namespace std::chrono_literals;

TEST_CASE("a majority of N members is floor(N/2) + 1", "[quorum]") {
    CHECK(lock::quorum(3) == 2);
    CHECK(lock::quorum(5) == 3);
    CHECK(lock::quorum(7) == 4);
}

TEST_CASE("validity is the TTL less the round trip and 1% + 2 ms of drift", "[quorum]") {
    CHECK(lock::clock_drift(30s) == 302ms);
    CHECK(lock::clock_drift(1s) == 12ms);
    CHECK(lock::validity(30s, 0ms) == 29698ms);
    CHECK(lock::validity(1s, 500ms) == 488ms);
    // Partial milliseconds of the round trip count as whole ones: never more than is left.
    CHECK(lock::validity(1s, std::chrono::microseconds(1)) == 987ms);
    CHECK(lock::validity(1s, 988ms) <= 0ms);
}

TEST_CASE("a fencing token a year past the clock, or below 1, is not sane", "[quorum][fencing]") {
    const int64_t now = 1'795'326'404'762'113; // us
    const int64_t year = lock::kFenceAheadMicros;
    const std::vector<int64_t> honest{now - 5, now + 3, now - 1000};
    const int64_t bound = lock::fence_bound(honest, 5, now);
    CHECK(bound == now + year); // the third largest of five members is below the clock
    for (int64_t t : honest)
        CHECK(lock::sane_fence(t, bound));
    CHECK_FALSE(lock::sane_fence(INT64_MAX, bound));
    CHECK_FALSE(lock::sane_fence(now + 2 * year, bound));
    CHECK_FALSE(lock::sane_fence(0, bound));
    CHECK_FALSE(lock::sane_fence(-9'223'372'036'854'775'807 - 1, bound));
}

TEST_CASE("a minority of poisoned members cannot raise the fencing bound", "[quorum][fencing]") {
    const int64_t now = 1'795'326'404'762'113;
    const int64_t year = lock::kFenceAheadMicros;
    // Five members: up to two may be poisoned, whichever answered.
    CHECK(lock::fence_bound(std::vector<int64_t>{now, INT64_MAX, now + 1, INT64_MAX, now - 1}, 5,
                            now) == now + 1 + year);
    CHECK(lock::fence_bound(std::vector<int64_t>{INT64_MAX, now, INT64_MAX - 1}, 5, now) ==
          now + year);
    CHECK(lock::fence_bound(std::vector<int64_t>{INT64_MAX, now}, 3, now) == now + year);
    // A majority poisoned is beyond Redlock's assumptions: no overflow, at least.
    CHECK(lock::fence_bound(std::vector<int64_t>{INT64_MAX, INT64_MAX, now}, 3, now) == INT64_MAX);
}

TEST_CASE("a client clock far behind still accepts its members' tokens", "[quorum][fencing]") {
    const int64_t servers = 1'795'326'404'762'113;
    const int64_t booted_in_1970 = 12'000'000;
    const std::vector<int64_t> granted{servers, servers + 2, INT64_MAX, servers + 1};
    const int64_t bound = lock::fence_bound(granted, 5, booted_in_1970);
    CHECK(lock::sane_fence(servers + 2, bound));
    CHECK_FALSE(lock::sane_fence(INT64_MAX, bound));
    // With no majority's tokens to go by, the client's clock.
    CHECK(lock::fence_bound(std::vector<int64_t>{}, 5, servers) ==
          servers + lock::kFenceAheadMicros);
}
