// An acquire whose script ran but whose reply never arrived (the connection was reset, or the
// reply timed out). lock::acquire retries it with the same hold id and waiter id, so the retry
// is a replay: it finds the hold the lost call took, or the queue entry it made. When dlock
// gives up instead, it gives back that hold id and leaves the queue.

#include "integration/lock_helpers.hpp"
#include "lock/acquire.hpp"
#include "redis/stores/semaphore_backend.hpp"

#include <csignal>
#include <functional>
#include <future>
#include <mutex>

using namespace dlock;
using namespace dlock::test;

namespace {

using Opener = std::function<std::unique_ptr<lock::Backend>()>;

// Forwards to a real backend, but the first `lose` acquire replies are lost: the script runs,
// then the caller gets "connection lost" and, as after a real I/O error, the next call goes
// over a new connection.
class LosingReplies : public lock::Backend {
  public:
    LosingReplies(Opener open, int lose) : open_(std::move(open)), inner_(open_()), lose_(lose) {}

    std::vector<lock::AcquireRequest> calls() {
        std::lock_guard lock(mutex_);
        return calls_;
    }

    Result<lock::AcquireOutcome> acquire(const lock::Keys& k,
                                         const lock::AcquireRequest& r) override {
        {
            std::lock_guard lock(mutex_);
            calls_.push_back(r);
        }
        auto outcome = inner_->acquire(k, r);
        if (!outcome || lose_ == 0)
            return outcome;
        --lose_;
        inner_ = open_();
        return fail(dlock::Fault::unavailable, "EVALSHA failed on Redis: connection lost", true);
    }
    std::vector<Result<lock::Renewal>>
    renew(std::span<const lock::RenewRequest> requests) override {
        return inner_->renew(requests);
    }
    Result<std::optional<int64_t>> release(const lock::Keys& k,
                                           const lock::ReleaseRequest& r) override {
        return inner_->release(k, r);
    }
    Result<bool> await_wake(const lock::Keys& k, std::string_view w, Millis timeout) override {
        return inner_->await_wake(k, w, timeout);
    }
    Result<void> leave_queue(const lock::Keys& k, std::string_view w, Millis hb) override {
        return inner_->leave_queue(k, w, hb);
    }

  private:
    Opener open_;
    std::unique_ptr<lock::Backend> inner_;
    int lose_;
    std::mutex mutex_;
    std::vector<lock::AcquireRequest> calls_;
};

std::unique_ptr<lock::Backend> open_semaphore(const RedisServer& server, int64_t limit) {
    auto backend = std::make_unique<redis::SemaphoreBackend>(connect_options(server.url()), limit);
    if (auto ok = backend->connect(); !ok)
        FAIL(ok.error().message);
    return backend;
}

Opener locks(const RedisServer& server) {
    return [&server]() -> std::unique_ptr<lock::Backend> { return open_backend(server); };
}

lock::AcquireSpec spec_for(const std::string& who, std::optional<Millis> wait,
                           bool shared = false) {
    auto r = request("owner-" + who, "hold-" + who, 30s, "", 3s, who);
    r.shared = shared;
    return lock::AcquireSpec{job_keys(), r, wait};
}

} // namespace

TEST_CASE("a lost reply to a successful acquire is replayed by its hold id", "[lost_reply]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_REDIS(server);
    const std::string kind = GENERATE("exclusive", "shared", "semaphore");
    INFO(kind);
    LosingReplies backend(kind == "semaphore" ? Opener([&] { return open_semaphore(*server, 2); })
                                              : locks(*server),
                          2);

    auto result = lock::acquire(backend, spec_for("a", 5s, kind == "shared"));
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    CHECK(std::get<lock::Acquired>(*result).holds == 1);
    const auto calls = backend.calls();
    REQUIRE(calls.size() == 3); // two lost, one answered
    for (const auto& call : calls) {
        CHECK(call.hold_id == "hold-a");
        CHECK(call.waiter_id == calls[0].waiter_id);
    }
    // Three scripts ran, one hold was taken.
    const auto keys = job_keys();
    if (kind == "exclusive")
        CHECK(hget(*server, keys.lock, "holds") == "1");
    else if (kind == "shared")
        CHECK(hget(*server, keys.rinfo, "o:owner-a") == "1");
    else
        CHECK(server->cmd({"ZCARD", keys.permits}).integer() == 1);

    lock::ReleaseRequest release{"owner-a", "hold-a", 3s, kind != "exclusive", std::nullopt, 0ms};
    auto released = backend.release(keys, release);
    REQUIRE(released);
    CHECK(*released == std::optional<int64_t>(0));
    CHECK_FALSE(exists(*server, keys.lock));
    CHECK_FALSE(exists(*server, keys.readers));
    CHECK_FALSE(exists(*server, keys.permits));
}

TEST_CASE("a waiter whose queued reply was lost keeps its place and is served at the release",
          "[lost_reply]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_REDIS(server);
    const auto keys = job_keys();
    auto holder = open_backend(*server);
    REQUIRE(try_acquire(*holder, request("owner-h", "hold-h", 60s)).acquired);

    LosingReplies backend(locks(*server), 1);
    auto waiting =
        std::async(std::launch::async, [&] { return lock::acquire(backend, spec_for("w", 20s)); });
    // The lost call queued the waiter; its retry found that entry and made no second one.
    REQUIRE(eventually([&] { return backend.calls().size() >= 2; }, 5s));
    CHECK(zrange(*server, keys.queue) == std::vector<std::string>{backend.calls()[0].waiter_id});

    // A second waiter queues behind it.
    auto second_backend = open_backend(*server);
    auto second = std::async(std::launch::async, [&] {
        return lock::acquire(*second_backend, spec_for("second", 20s));
    });
    REQUIRE(eventually([&] { return zrange(*server, keys.queue).size() == 2; }, 5s));
    CHECK(zrange(*server, keys.queue)[0] == backend.calls()[0].waiter_id);

    const auto released = Clock::now();
    REQUIRE(release_hold(*holder, "owner-h", "hold-h") == 0);
    auto result = waiting.get();
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    // At the release, not after a heartbeat or the holder's 60 s lease.
    CHECK(elapsed_since(released) < 1s);
    CHECK(hget(*server, keys.lock, "owner") == "owner-w");
    REQUIRE(release_hold(*open_backend(*server), "owner-w", "hold-w") == 0);
    auto then = second.get();
    REQUIRE(then);
    CHECK(std::holds_alternative<lock::Acquired>(*then));
    CHECK(zrange(*server, keys.queue).empty());
}

TEST_CASE("a caller giving up after a lost reply gives back the hold and leaves the queue",
          "[lost_reply]") {
    signal(SIGPIPE, SIG_IGN);
    REQUIRE_REDIS(server);
    const auto keys = job_keys();
    const bool held = GENERATE(false, true);
    const std::optional<Millis> wait =
        GENERATE(std::optional<Millis>(0ms), std::optional<Millis>(300ms));
    INFO((held ? "held by another" : "free") << ", wait " << wait->count() << " ms");
    auto holder = open_backend(*server);
    if (held)
        REQUIRE(try_acquire(*holder, request("owner-h", "hold-h", 60s)).acquired);

    LosingReplies backend(locks(*server), 1'000);
    auto result = lock::acquire(backend, spec_for("w", wait));
    REQUIRE_FALSE(result);
    CHECK(result.error().fault == dlock::Fault::unavailable);
    CHECK(result.error().transient);
    // The lost calls did run: free, they took the lock; held, they queued the waiter. Neither
    // outlives the give-up.
    CHECK(hget(*server, keys.lock, "owner") == (held ? "owner-h" : ""));
    CHECK(zrange(*server, keys.queue).empty());
}
