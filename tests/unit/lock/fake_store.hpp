#pragma once

#include "lock/store.hpp"
#include "unit/lock/fake_backend.hpp"

#include <memory>

namespace dlock::test {

// A lock::Store whose leases are a FakeBackend (the run's backend and every watchdog backend
// forward to it). Capabilities are what the test sets; the inspection calls fail, since the
// use cases that make them have their own tests against Redis.
class FakeStore : public lock::Store {
  public:
    FakeBackend backend;
    FakeFactory factory{backend};
    lock::Capabilities offered{true, true, true, true, true, true, ""};
    int server_count = 1;
    std::vector<int64_t> lease_permits; // the `permits` of each leases() call

    // Only exclusive leases, refused as a Redlock quorum refuses the rest.
    static lock::Capabilities exclusive_only() {
        lock::Capabilities c;
        c.lacking = "is not available with several --redis (a Redlock quorum): it offers "
                    "exclusive locks only";
        return c;
    }

    lock::Capabilities capabilities() const override { return offered; }
    int servers() const override { return server_count; }
    lock::Leases leases(int64_t permits, const lock::HolderInfo&, Millis) override {
        lease_permits.push_back(permits);
        auto opened = factory.make()();
        return {std::move(*opened), factory.make()};
    }

    Result<std::vector<std::string>> names(const std::string&, lock::NameScope) override {
        return unused();
    }
    Result<lock::StatusReading> status(const std::string&,
                                       const std::vector<std::string>&) override {
        return unused();
    }
    Result<std::vector<lock::HistoryEntry>> history(const lock::Keys&, int64_t) override {
        return unused();
    }
    Result<std::vector<lock::MemberBroken>>
    force_release(const lock::Keys&, const lock::HolderInfo&, Millis) override {
        return unused();
    }
    Result<std::vector<lock::MemberForgotten>> forget(const lock::Keys&) override { return {}; }
    Result<std::vector<lock::MemberPaused>> pause(const lock::Keys&,
                                                  const lock::PauseRequest&) override {
        return {};
    }
    Result<std::vector<lock::MemberResumed>> resume(const lock::Keys&,
                                                    const lock::HolderInfo&) override {
        return {};
    }
    Result<lock::SemaphorePermits> semaphore(const std::string&, const std::string&) override {
        return unused();
    }
    Result<lock::BrokenPermits> force_release_permits(const lock::Keys&, std::string_view,
                                                      const lock::HolderInfo&, Millis) override {
        return unused();
    }
    std::unique_ptr<lock::Latches> latches() override { return nullptr; }

  private:
    static tl::unexpected<Error> unused() { return fail(Fault::internal, "not used by this test"); }
};

} // namespace dlock::test
