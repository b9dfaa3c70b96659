// lend_connection: the watchdog renews over the run's connection when its own is refused in the
// way the store says (a server at its client limit), and only then.

#include "lock/lent_connection.hpp"
#include "unit/lock/fake_backend.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using namespace dlock::lock;
using dlock::test::FakeBackend;

namespace {

Error refused_error() {
    return Error{Fault::unavailable, "refused the connection", true};
}

bool is_refusal(const Error& error) {
    return error.message == "refused the connection";
}

struct Lent {
    FakeBackend* run = nullptr;
    FakeBackend* own = nullptr;
    Leases leases;
};

// The run's backend and one watchdog backend, as the factory hands it out.
Lent lent() {
    Lent out;
    auto run = std::make_unique<FakeBackend>();
    out.run = run.get();
    auto own = std::make_shared<std::unique_ptr<FakeBackend>>(std::make_unique<FakeBackend>());
    out.own = own->get();
    BackendFactory factory = [own]() -> Result<std::unique_ptr<Backend>> {
        return std::unique_ptr<Backend>(std::move(*own));
    };
    out.leases = lend_connection(Leases{std::move(run), std::move(factory)}, is_refusal);
    return out;
}

const Keys kKeys = Keys::of("dlock", "job");
const RenewRequest kRenew{kKeys, "owner", "hold", Millis(3000), false};

} // namespace

TEST_CASE("a renewal refused its own connection is sent over the run's", "[lent-connection]") {
    Lent l = lent();
    auto watchdog = l.leases.factory();
    REQUIRE(watchdog);
    l.own->renew_replies.push_back(tl::unexpected(refused_error()));
    auto renewed = (*watchdog)->renew(kRenew);
    REQUIRE(renewed);
    CHECK(*renewed);
    CHECK(l.own->renew_batches.size() == 1);
    CHECK(l.run->renew_batches.size() == 1);
    CHECK(l.run->renew_owners == std::vector<std::string>{"owner"});
}

TEST_CASE("any other renewal failure stays the watchdog's own", "[lent-connection]") {
    Lent l = lent();
    auto watchdog = l.leases.factory();
    REQUIRE(watchdog);
    l.own->renew_replies.push_back(FakeBackend::transient());
    auto renewed = (*watchdog)->renew(kRenew);
    CHECK_FALSE(renewed);
    CHECK(l.run->renew_batches.empty());
    // The run's own calls fail as they fail: the wait loop retries them.
    l.run->acquire_default = FakeBackend::transient();
    CHECK_FALSE(l.leases.backend->acquire(kKeys, AcquireRequest{}));
    CHECK(l.own->acquire_calls.empty());
}
