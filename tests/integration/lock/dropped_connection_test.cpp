// A waiter whose connection is dropped (CLIENT KILL) after a refused attempt and before it
// blocks does not lose the wake-up that the release sends meanwhile: it gets the lock promptly,
// not after its heartbeat slice or the holder's lease.

#include "integration/lock_helpers.hpp"
#include "lock/acquire.hpp"

#include <csignal>

using namespace dlock;
using namespace dlock::test;

namespace {

// The waiter's backend. After the first refused acquire, before lock::acquire goes on to block,
// it runs `between` once (which kills the connection and releases the holder). With
// `reconnect_first`, the wait then runs on a new connection, as after a reconnect that happened
// before the block; otherwise on the dead one, which the waiter must notice.
class DropAfterRefusal : public lock::Backend {
  public:
    DropAfterRefusal(const RedisServer& server, std::function<void()> between, bool reconnect_first)
        : server_(server), inner_(open_backend(server)), between_(std::move(between)),
          reconnect_first_(reconnect_first) {}

    std::vector<Result<bool>> awaits;

    Result<lock::AcquireOutcome> acquire(const lock::Keys& k,
                                         const lock::AcquireRequest& r) override {
        auto outcome = inner_->acquire(k, r);
        if (outcome && !outcome->acquired && between_) {
            std::exchange(between_, nullptr)();
            if (reconnect_first_)
                inner_ = open_backend(server_);
        }
        return outcome;
    }
    Result<bool> await_wake(const lock::Keys& k, std::string_view w, Millis timeout) override {
        awaits.push_back(inner_->await_wake(k, w, timeout));
        return awaits.back();
    }
    Result<void> leave_queue(const lock::Keys& k, std::string_view w, Millis hb) override {
        return inner_->leave_queue(k, w, hb);
    }
    std::vector<Result<lock::Renewal>>
    renew(std::span<const lock::RenewRequest> requests) override {
        return inner_->renew(requests);
    }
    Result<std::optional<int64_t>> release(const lock::Keys& k,
                                           const lock::ReleaseRequest& r) override {
        return inner_->release(k, r);
    }

  private:
    const RedisServer& server_;
    std::unique_ptr<redis::LockBackend> inner_;
    std::function<void()> between_;
    bool reconnect_first_;
};

} // namespace

TEST_CASE("a connection dropped between a refusal and the wait does not lose the wake-up",
          "[lock::acquire][dropped]") {
    signal(SIGPIPE, SIG_IGN); // as dlock's main() does
    REQUIRE_REDIS(server);
    const bool reconnect_first = GENERATE(false, true);
    INFO((reconnect_first ? "reconnected before blocking" : "blocking on the dead connection"));
    // A 60 s lease, and a 30 s waiter heartbeat (so 10 s blocks): a lost wake-up would cost
    // seconds.
    REQUIRE(try_acquire(*open_backend(*server), request("owner-h", "hold-h", 60s)).acquired);

    int64_t killed = 0;
    DropAfterRefusal waiter(
        *server,
        [&] {
            killed = server->cmd({"CLIENT", "KILL", "TYPE", "normal"}).integer();
            REQUIRE(release_hold(*open_backend(*server), "owner-h", "hold-h") == 0);
        },
        reconnect_first);
    const auto start = Clock::now();
    auto result = lock::acquire(
        waiter, {job_keys(), request("owner-w", "hold-w", 30s, "", 30s, "waiter"), Millis(20'000)});
    const auto elapsed = elapsed_since(start);

    CHECK(killed >= 1);
    REQUIRE(result);
    REQUIRE(std::holds_alternative<lock::Acquired>(*result));
    CHECK(elapsed < 3s);
    CHECK(hget(*server, job_keys().lock, "owner") == "owner-w");
    REQUIRE_FALSE(waiter.awaits.empty());
    if (reconnect_first) {
        // The token the release pushed was waiting in Redis.
        REQUIRE(waiter.awaits[0]);
        CHECK(*waiter.awaits[0]);
    } else {
        // The dead connection fails fast; the next attempt takes the free lock.
        CHECK_FALSE(waiter.awaits[0]);
    }
    // Nothing of the wait is left behind.
    CHECK(zrange(*server, job_keys().queue).empty());
    CHECK(server->cmd({"KEYS", job_keys().wake + "*"}).size() == 0);
}
