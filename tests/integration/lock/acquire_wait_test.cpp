#include "integration/lock_helpers.hpp"
#include "lock/acquire.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

lock::AcquireSpec spec_for(std::string who, std::optional<Millis> wait, Millis ttl = 30s) {
    return lock::AcquireSpec{job_keys(), request("owner-" + who, "hold-" + who, ttl, "", 3s, who),
                             wait};
}

// Releases `owner`'s hold after `delay`, from another thread with its own connection.
std::thread release_later(const RedisServer& server, std::string owner, std::string hold,
                          Millis delay) {
    return std::thread([&server, owner, hold, delay] {
        auto backend = open_backend(server);
        std::this_thread::sleep_for(delay);
        (void)backend->release(job_keys(), releasing(owner, hold));
    });
}

int64_t zcard(const RedisServer& server, const std::string& key) {
    return server.cmd({"ZCARD", key}).integer();
}

} // namespace

TEST_CASE("lock::acquire takes a free lock with one hold and a token", "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto result = lock::acquire(*backend, spec_for("a", 0ms));
    REQUIRE(result);
    auto* acquired = std::get_if<lock::Acquired>(&*result);
    REQUIRE(acquired);
    CHECK(acquired->holds == 1);
    CHECK(acquired->fence > 0);
    CHECK(hget(*server, job_keys().lock, "owner") == "owner-a");
}

TEST_CASE("lock::acquire without wait is refused at once with the holder", "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h", 30s, "", 3s, "holder")).acquired);
    const auto start = Clock::now();
    auto result = lock::acquire(*backend, spec_for("b", 0ms));
    REQUIRE(result);
    auto* refused = std::get_if<lock::Refused>(&*result);
    REQUIRE(refused);
    CHECK_FALSE(refused->timed_out);
    REQUIRE(refused->last.holder);
    CHECK(refused->last.holder->host == "holder-host");
    CHECK(elapsed_since(start) < 1s);
    CHECK_FALSE(exists(*server, job_keys().queue));
}

TEST_CASE("a waiter gets the lock soon after the holder releases it", "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    auto releaser = release_later(*server, "owner-h", "hold-h", 300ms);

    const auto start = Clock::now();
    auto result = lock::acquire(*backend, spec_for("w", 5s));
    const auto elapsed = elapsed_since(start);
    releaser.join();
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    CHECK(elapsed >= 250ms);
    CHECK(elapsed < 2s);
    CHECK(hget(*server, job_keys().lock, "owner") == "owner-w");
    CHECK(zcard(*server, job_keys().queue) == 0);
    CHECK(server->cmd({"KEYS", job_keys().wake + "*"}).size() == 0);
}

TEST_CASE("a waiter without a deadline gets the lock after the release", "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    auto releaser = release_later(*server, "owner-h", "hold-h", 300ms);
    const auto start = Clock::now();
    auto result = lock::acquire(*backend, spec_for("w", std::nullopt));
    releaser.join();
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::Acquired>(*result));
    CHECK(elapsed_since(start) < 2s);
}

TEST_CASE("a waiter gets the lock when the holder's lease expires unreleased", "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h", 500ms)).acquired);
    const auto start = Clock::now();
    auto result = lock::acquire(*backend, spec_for("w", 5s));
    const auto elapsed = elapsed_since(start);
    REQUIRE(result);
    CHECK(std::holds_alternative<lock::Acquired>(*result));
    CHECK(elapsed >= 300ms);
    CHECK(elapsed < 3s);
}

TEST_CASE("a waiter that times out is refused as timed out and leaves the queue",
          "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h", 30s, "", 3s, "holder")).acquired);
    const auto start = Clock::now();
    auto result = lock::acquire(*backend, spec_for("w", 500ms));
    const auto elapsed = elapsed_since(start);
    REQUIRE(result);
    auto* refused = std::get_if<lock::Refused>(&*result);
    REQUIRE(refused);
    CHECK(refused->timed_out);
    REQUIRE(refused->last.holder);
    CHECK(refused->last.holder->host == "holder-host");
    CHECK(refused->last.waiters == 1);
    CHECK(elapsed >= 450ms);
    CHECK(elapsed < 3s);
    CHECK(zcard(*server, job_keys().queue) == 0);
    CHECK(zcard(*server, job_keys().alive) == 0);
    CHECK(hget(*server, job_keys().lock, "owner") == "owner-h");
}

TEST_CASE("waiters get the lock in the order they queued", "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto holder = open_backend(*server);
    REQUIRE(try_acquire(*holder, request("owner-h", "hold-h")).acquired);

    std::mutex mutex;
    std::vector<std::string> order;
    auto wait_for_lock = [&](std::string who) {
        return std::thread([&, who] {
            auto backend = open_backend(*server);
            auto result = lock::acquire(*backend, spec_for(who, 10s));
            if (!result || !std::holds_alternative<lock::Acquired>(*result))
                return;
            {
                std::lock_guard lock(mutex);
                order.push_back(who);
            }
            std::this_thread::sleep_for(100ms);
            (void)backend->release(job_keys(), releasing("owner-" + who, "hold-" + who));
        });
    };
    auto a = wait_for_lock("a");
    REQUIRE(eventually([&] { return zrange(*server, job_keys().queue).size() == 1; }, 5s));
    auto b = wait_for_lock("b");
    REQUIRE(eventually([&] { return zrange(*server, job_keys().queue).size() == 2; }, 5s));
    auto c = wait_for_lock("c");
    REQUIRE(eventually([&] { return zrange(*server, job_keys().queue).size() == 3; }, 5s));
    REQUIRE(release_hold(*holder, "owner-h", "hold-h") == 0);
    a.join();
    b.join();
    c.join();
    CHECK(order == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("lock::acquire re-enters a lease held by the same owner without waiting",
          "[lock::acquire]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto outer = lock::acquire(*backend, spec_for("a", 0ms));
    REQUIRE(outer);
    auto spec = spec_for("a", 5s);
    spec.request.hold_id = "hold-inner";
    const auto start = Clock::now();
    auto inner = lock::acquire(*backend, spec);
    REQUIRE(inner);
    auto* acquired = std::get_if<lock::Acquired>(&*inner);
    REQUIRE(acquired);
    CHECK(acquired->holds == 2);
    CHECK(acquired->fence == std::get<lock::Acquired>(*outer).fence);
    CHECK(elapsed_since(start) < 1s);
}

TEST_CASE("lock::acquire reports an unreachable server at once, even when waiting",
          "[lock::acquire]") {
    REQUIRE_REDIS(server);
    const std::string url = server->url();
    server->stop();
    redis::LockBackend backend(connect_options(url));
    const auto start = Clock::now();
    auto result = lock::acquire(backend, spec_for("a", 10s));
    REQUIRE_FALSE(result);
    CHECK(result.error().fault == dlock::Fault::unavailable);
    CHECK(elapsed_since(start) < 2s);
}
