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

TEST_CASE("a fencing counter poisoned at or near the int64 limit restarts from the clock",
          "[fencing]") {
    // Before: INCR overflowed (an error on every acquire of the name for 30 days), or, one
    // below the limit, returned a token Lua could not even represent.
    const std::string poison = GENERATE("9223372036854775807", "9223372036854775806",
                                        "9223372036854775000", "-5", "not a number");
    INFO("counter set to " << poison);
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const int64_t honest = take_and_release(*backend, 0);
    server->cmd({"SET", job_keys().fence, poison});

    const int64_t before = server_time_us(*server);
    auto out = ok(backend->acquire(job_keys(), request("owner-1", "hold-1")));
    REQUIRE(out.acquired);
    CHECK(out.fence > honest); // still above every token an honest holder got
    CHECK(out.fence >= before);
    CHECK(out.fence <= server_time_us(*server));
    CHECK(hget(*server, job_keys().lock, "fence") == std::to_string(out.fence));
    CHECK(std::string(server->cmd({"GET", job_keys().fence}).str()) == std::to_string(out.fence));
    CHECK(pttl(*server, job_keys().fence) > 29LL * 86'400'000);
    REQUIRE(release_hold(*backend, "owner-1", "hold-1") == 0);

    CHECK(take_and_release(*backend, 2) == out.fence + 1);
}

TEST_CASE("a fencing counter more than a year past the clock restarts from it", "[fencing]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const int64_t year_us = 365LL * 86'400'000'000;
    const int64_t near = server_time_us(*server) + year_us - 60'000'000; // skew: kept
    server->cmd({"SET", job_keys().fence, std::to_string(near)});
    CHECK(take_and_release(*backend, 0) == near + 1);

    server->cmd({"SET", job_keys().fence, std::to_string(server_time_us(*server) + 2 * year_us)});
    const int64_t before = server_time_us(*server);
    const int64_t restarted = take_and_release(*backend, 1);
    CHECK(restarted >= before);
    CHECK(restarted <= server_time_us(*server));
}
