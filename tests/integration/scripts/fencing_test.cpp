#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

// Takes and releases the lock once as a new owner; returns the fencing token.
int64_t take_and_release(lock::Backend& backend, int i) {
    const std::string owner = "owner-" + std::to_string(i), hold = "hold-" + std::to_string(i);
    auto out = try_acquire(backend, request(owner, hold));
    REQUIRE(out.acquired);
    REQUIRE(release_hold(backend, owner, hold) == 0);
    return out.fence;
}

} // namespace

TEST_CASE("the first fencing token is seeded from the server clock in us", "[fencing]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const int64_t before = server_time_us(*server);
    const int64_t token = take_and_release(*backend, 0);
    CHECK(token >= before);
    CHECK(token <= server_time_us(*server));
}

TEST_CASE("fencing tokens strictly increase across acquisitions", "[fencing]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    int64_t last = 0;
    for (int i = 0; i < 20; ++i) {
        const int64_t token = take_and_release(*backend, i);
        CHECK(token > last);
        last = token;
    }
}

TEST_CASE("re-entry and replays do not consume a fencing token", "[fencing]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto first = try_acquire(*backend, request("owner-a", "hold-1"));
    try_acquire(*backend, request("owner-a", "hold-2"));
    try_acquire(*backend, request("owner-a", "hold-2"));
    release_hold(*backend, "owner-a", "hold-2");
    release_hold(*backend, "owner-a", "hold-1");
    auto next = try_acquire(*backend, request("owner-b", "hold-3"));
    CHECK(next.fence == first.fence + 1);
}

TEST_CASE("the fencing counter expires only after 30 idle days", "[fencing]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    take_and_release(*backend, 0);
    const int64_t ttl = pttl(*server, job_keys().fence);
    CHECK(ttl > 29LL * 86'400'000);
    CHECK(ttl <= 30LL * 86'400'000);
}

TEST_CASE("fencing tokens keep increasing after the counter is deleted", "[fencing]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    int64_t last = 0;
    for (int i = 0; i < 3; ++i) {
        last = take_and_release(*backend, i);
        std::this_thread::sleep_for(5ms);
    }
    server->cmd({"DEL", job_keys().fence});
    std::this_thread::sleep_for(2ms);
    const int64_t reseeded = take_and_release(*backend, 10);
    CHECK(reseeded > last);
    CHECK(take_and_release(*backend, 11) > reseeded);
}

TEST_CASE("fencing tokens keep increasing after a burst and a deleted counter", "[fencing]") {
    // Hundreds of acquisitions within a few milliseconds: a counter seeded in milliseconds
    // would get ahead of the server clock, and a reseeded one would go back.
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    int64_t last = 0;
    for (int i = 0; i < 200; ++i)
        last = take_and_release(*backend, i);
    server->cmd({"DEL", job_keys().fence});
    const int64_t reseeded = take_and_release(*backend, 1000);
    INFO("last token " << last << ", reseeded " << reseeded << ", server time "
                       << server_time_us(*server));
    CHECK(reseeded > last);
}
