// app::run against a fake store: the exit status of each way a run ends, with no Redis.

#include "app/run.hpp"
#include "unit/lock/fake_store.hpp"
#include "util/exit_codes.hpp"

#include <catch2/catch.hpp>
#include <csignal>

using namespace dlock;
using dlock::test::FakeBackend;
using dlock::test::FakeStore;

namespace {

// The supervisor blocks the signals it handles for the rest of dlock's life; the other tests of
// this process need them back.
struct SignalMaskGuard {
    sigset_t saved;
    SignalMaskGuard() { pthread_sigmask(SIG_SETMASK, nullptr, &saved); }
    ~SignalMaskGuard() { pthread_sigmask(SIG_SETMASK, &saved, nullptr); }
};

Result<int> run(FakeStore& store, const app::RunOptions& options) {
    SignalMaskGuard guard;
    return app::run(store, app::Target{}, options);
}

app::RunOptions run_true(const std::string& name = "job") {
    app::RunOptions options;
    options.names = {name};
    options.argv = {"true"};
    options.command_line = "true";
    return options;
}

} // namespace

TEST_CASE("run: a lock held by another ends in the conflict status, the command not run") {
    FakeStore store; // acquire answers "held by web-9" by default
    const auto status = run(store, run_true());
    REQUIRE(status);
    CHECK(*status == exit_code::busy);
    CHECK(store.backend.acquire_calls.size() == 1);
    CHECK(store.backend.release_calls.empty());
}

TEST_CASE("run: the lock taken, the command runs and its status is returned, the lease freed") {
    FakeStore store;
    store.backend.acquire_replies.push_back(FakeBackend::acquired(7));
    const auto status = run(store, run_true());
    REQUIRE(status);
    CHECK(*status == 0);
    REQUIRE(store.backend.release_calls.size() == 1);
    CHECK(store.backend.release_calls[0].lock == lock::Keys::of("dlock", "job").lock);
}

TEST_CASE("run: a lease found gone at the release ends in 76") {
    FakeStore store;
    store.backend.acquire_replies.push_back(FakeBackend::acquired(7));
    store.backend.release_default = std::optional<int64_t>(); // not ours any more
    const auto status = run(store, run_true());
    REQUIRE(status);
    CHECK(*status == exit_code::lease_lost);
}

TEST_CASE("run: what the store does not offer is refused before it is asked for anything") {
    FakeStore store;
    store.offered = FakeStore::exclusive_only();
    auto options = run_true();
    options.shared = true;
    auto status = run(store, options);
    REQUIRE_FALSE(status);
    CHECK(status.error().fault == Fault::bad_input);
    CHECK(status.error().message == "a shared lock (-s) is not available with several --redis (a "
                                    "Redlock quorum): it offers exclusive locks only");

    options = run_true();
    options.min_hold = Millis(1000);
    status = run(store, options);
    REQUIRE_FALSE(status);
    CHECK(status.error().message.rfind("--min-hold is not available", 0) == 0);
    CHECK(store.backend.acquire_calls.empty());
    CHECK(store.lease_permits.empty());
}

TEST_CASE("run: a semaphore run takes a permit of the store's semaphore") {
    FakeStore store;
    store.backend.acquire_replies.push_back(FakeBackend::acquired(3));
    auto options = run_true();
    options.permits = 2;
    const auto status = run(store, options);
    REQUIRE(status);
    CHECK(*status == 0);
    CHECK(store.lease_permits == std::vector<int64_t>{2});
}
