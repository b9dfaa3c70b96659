// Shared (read) holds against a real redis-server: readers share, writers run alone, a queued
// writer is never overtaken by later readers, and crashed readers expire on their own.

#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

lock::AcquireRequest reader(std::string id, std::string waiter = "", Millis ttl = 30s) {
    auto r = request("owner-" + id, "hold-" + id, ttl, std::move(waiter), 3s, id);
    r.shared = true;
    return r;
}

lock::AcquireRequest writer(std::string id, std::string waiter = "") {
    return request("owner-" + id, "hold-" + id, 30s, std::move(waiter), 3s, id);
}

// Number of wake tokens waiting for `waiter`.
int64_t wake_tokens(const RedisServer& server, const std::string& waiter) {
    return server.cmd({"LLEN", job_keys().wake + waiter}).integer();
}

std::optional<int64_t> release_shared(lock::Backend& b, const std::string& id) {
    return ok(b.release(job_keys(), releasing("owner-" + id, "hold-" + id, true)));
}

std::optional<int64_t> release_writer(lock::Backend& b, const std::string& id) {
    return ok(b.release(job_keys(), releasing("owner-" + id, "hold-" + id)));
}

} // namespace

TEST_CASE("shared holders run together and keep writers out", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    auto r1 = try_acquire(*b, reader("r1"));
    auto r2 = try_acquire(*b, reader("r2"));
    CHECK(r1.acquired);
    CHECK(r1.shared);
    CHECK(r2.acquired);
    CHECK(r2.fence > r1.fence);

    auto w = try_acquire(*b, writer("w"));
    CHECK_FALSE(w.acquired);
    CHECK(w.shared_holders == 2);
    REQUIRE(w.holder);
    CHECK(w.holder->user == "r1"); // the oldest shared holder is described
    CHECK(w.holder->fence == r1.fence);
    CHECK(w.lease_left > 20s);

    CHECK(release_shared(*b, "r1") == 0);
    CHECK_FALSE(try_acquire(*b, writer("w")).acquired);
    CHECK(release_shared(*b, "r2") == 0);
    CHECK(try_acquire(*b, writer("w")).acquired);
}

TEST_CASE("an exclusive holder keeps readers out", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, writer("w")).acquired);
    auto r = try_acquire(*b, reader("r"));
    CHECK_FALSE(r.acquired);
    REQUIRE(r.holder);
    CHECK(r.holder->user == "w");
    CHECK(r.shared_holders == 0);
}

TEST_CASE("a queued writer is not overtaken by later readers", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, reader("r1")).acquired);
    REQUIRE_FALSE(try_acquire(*b, writer("w", "wait-w")).acquired); // queued

    CHECK_FALSE(try_acquire(*b, reader("late")).acquired);                // newcomer
    CHECK_FALSE(try_acquire(*b, reader("late2", "wait-late2")).acquired); // queued behind w

    // The last reader leaving wakes the writer, and only the writer.
    CHECK(release_shared(*b, "r1") == 0);
    CHECK(wake_tokens(*server, "wait-w") == 1);
    CHECK(wake_tokens(*server, "wait-late2") == 0);
    CHECK_FALSE(try_acquire(*b, reader("late2", "wait-late2")).acquired);
    REQUIRE(try_acquire(*b, writer("w", "wait-w")).acquired);

    // The writer's release wakes the reader queued behind it.
    CHECK(release_writer(*b, "w") == 0);
    CHECK(wake_tokens(*server, "wait-late2") == 1);
    CHECK(try_acquire(*b, reader("late2", "wait-late2")).acquired);
}

TEST_CASE("a release wakes every reader queued before the next writer", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, writer("w1")).acquired);
    REQUIRE_FALSE(try_acquire(*b, reader("a", "wait-a")).acquired);
    REQUIRE_FALSE(try_acquire(*b, reader("b", "wait-b")).acquired);
    REQUIRE_FALSE(try_acquire(*b, writer("w2", "wait-w2")).acquired);
    REQUIRE_FALSE(try_acquire(*b, reader("c", "wait-c")).acquired);

    CHECK(release_writer(*b, "w1") == 0);
    CHECK(wake_tokens(*server, "wait-a") == 1);
    CHECK(wake_tokens(*server, "wait-b") == 1);
    CHECK(wake_tokens(*server, "wait-w2") == 0);
    CHECK(wake_tokens(*server, "wait-c") == 0);
    CHECK(try_acquire(*b, reader("a", "wait-a")).acquired);
    CHECK(try_acquire(*b, reader("b", "wait-b")).acquired);
    CHECK_FALSE(try_acquire(*b, reader("c", "wait-c")).acquired); // behind w2
}

TEST_CASE("a crashed reader's hold expires by itself", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, reader("crashed", "", 300ms)).acquired);
    CHECK_FALSE(try_acquire(*b, writer("w")).acquired);
    std::this_thread::sleep_for(500ms);
    CHECK(try_acquire(*b, writer("w")).acquired);
    CHECK(server->cmd({"ZCARD", job_keys().readers}).integer() == 0);
    CHECK(server->cmd({"HLEN", job_keys().rinfo}).integer() == 0);
}

TEST_CASE("only the holder renews its shared hold", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, reader("r", "", 1s)).acquired);
    CHECK(ok(b->renew({job_keys(), "owner-r", "hold-r", 30s, true})));
    CHECK(server->cmd({"PTTL", job_keys().readers}).integer() > 20'000);
    CHECK_FALSE(ok(b->renew({job_keys(), "owner-x", "hold-r", 30s, true})));
    CHECK_FALSE(ok(b->renew({job_keys(), "owner-r", "hold-other", 30s, true})));

    REQUIRE(try_acquire(*b, reader("short", "", 200ms)).acquired);
    std::this_thread::sleep_for(400ms);
    CHECK_FALSE(ok(b->renew({job_keys(), "owner-short", "hold-short", 30s, true})));
}

TEST_CASE("releasing a shared hold twice changes nothing the second time", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, reader("r1")).acquired);
    REQUIRE(try_acquire(*b, reader("r2")).acquired);
    CHECK(release_shared(*b, "r1") == 0);
    CHECK_FALSE(release_shared(*b, "r1"));
    CHECK(server->cmd({"ZCARD", job_keys().readers}).integer() == 1);
    CHECK_FALSE(ok(b->release(job_keys(), releasing("owner-x", "hold-r2", true))));
    CHECK(server->cmd({"ZCARD", job_keys().readers}).integer() == 1);
}

TEST_CASE("a reader re-enters at once even with a writer queued", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, reader("r")).acquired);
    REQUIRE_FALSE(try_acquire(*b, writer("w", "wait-w")).acquired);
    auto nested = request("owner-r", "hold-r-nested", 30s, "", 3s, "r");
    nested.shared = true;
    auto again = try_acquire(*b, nested);
    CHECK(again.acquired);
    CHECK(again.holds == 2);
    // A replay of the same request adds nothing.
    CHECK(try_acquire(*b, nested).holds == 2);
}

TEST_CASE("a shared hold cannot be upgraded to exclusive", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    REQUIRE(try_acquire(*b, reader("r")).acquired);
    auto upgrade = b->acquire(job_keys(), request("owner-r", "hold-up"));
    REQUIRE_FALSE(upgrade);
    CHECK(upgrade.error().fault == dlock::Fault::bad_input);
    CHECK_FALSE(server->cmd({"EXISTS", job_keys().lock}).integer());
}

TEST_CASE("an exclusive owner asking for shared re-enters exclusively", "[shared]") {
    REQUIRE_REDIS(server);
    auto b = open_backend(*server);
    auto first = try_acquire(*b, writer("w"));
    REQUIRE(first.acquired);
    auto nested = request("owner-w", "hold-w2");
    nested.shared = true;
    auto again = try_acquire(*b, nested);
    CHECK(again.acquired);
    CHECK_FALSE(again.shared);
    CHECK(again.holds == 2);
    CHECK(again.fence == first.fence);
}
