#include "lock/quorum.hpp"

#include <catch2/catch.hpp>

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
