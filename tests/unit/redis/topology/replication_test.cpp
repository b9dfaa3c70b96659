// --min-replicas: what WAIT's answer makes of an acquisition and of renewals, and the replies of
// a demoted master (Sentinel).

#include "redis/protocol/server_error.hpp"
#include "redis/topology/replication.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using namespace dlock::redis;

namespace {

Replication replicas(int n, Millis timeout = Millis(1000)) {
    return Replication{n, timeout};
}

std::optional<Result<int64_t>> acks(int64_t n) {
    return Result<int64_t>(n);
}

// WAIT refused by an error reply (decoded, as Connection does), or a transient I/O failure.
std::optional<Result<int64_t>> wait_failed(std::string message, bool transient = false) {
    Error error{dlock::Fault::internal, std::move(message), transient};
    if (!transient)
        error.server = std::make_shared<const ServerError>(classify(error.message));
    return Result<int64_t>(tl::unexpected(std::move(error)));
}

} // namespace

TEST_CASE("an acquisition counts once enough replicas acknowledged it", "[replication]") {
    CHECK(check_acknowledged(acks(1), replicas(1), "the lock"));
    CHECK(check_acknowledged(acks(3), replicas(2), "the lock"));
    CHECK(check_acknowledged(std::nullopt, replicas(0), "the lock")); // off: no WAIT sent
    CHECK(check_acknowledged(acks(0), replicas(0), "the lock"));

    auto short_of = check_acknowledged(acks(0), replicas(1, Millis(250)), "the lock");
    REQUIRE_FALSE(short_of);
    CHECK(short_of.error().fault == Fault::unavailable);
    CHECK(short_of.error().transient); // replicas catch up: tried again within --wait
    CHECK(short_of.error().message.starts_with(
        "only 0 of 1 replicas acknowledged the lock within 250ms (--min-replicas"));

    Replication automatic = replicas(1, Millis(250));
    automatic.automatic = true;
    auto short_of_auto = check_acknowledged(acks(0), automatic, "the lock");
    REQUIRE_FALSE(short_of_auto);
    CHECK(short_of_auto.error().message.find("--min-replicas auto") != std::string::npos);
}

TEST_CASE("WAIT refused is an error naming --min-replicas", "[replication]") {
    auto unknown = check_acknowledged(
        wait_failed("ERR unknown command 'WAIT', with args beginning with: '1' '1000' "),
        replicas(1), "the lock");
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().fault == Fault::unavailable);
    CHECK_FALSE(unknown.error().transient);
    CHECK(unknown.error().message == "WAIT, which --min-replicas needs, failed: ERR unknown "
                                     "command 'WAIT', with args beginning with: '1' '1000'");
    // On a replica (a master demoted since): transient, the master is asked for again.
    auto replica = check_acknowledged(
        wait_failed("ERR WAIT cannot be used with replica instances."), replicas(1), "the lock");
    REQUIRE_FALSE(replica);
    CHECK(replica.error().transient);
}

TEST_CASE("a renewal short of the replicas does not count, a lost lease stays lost",
          "[replication]") {
    std::vector<Result<lock::Renewal>> renewed{lock::Renewal{true, std::nullopt},
                                               lock::Renewal{false, std::nullopt},
                                               fail(Fault::unavailable, "reset", true)};
    auto enough = acknowledged(renewed, acks(2), replicas(2));
    CHECK(*enough[0]);
    CHECK_FALSE(*enough[1]);
    CHECK_FALSE(enough[2]);

    auto short_of = acknowledged(renewed, acks(1), replicas(2, Millis(200)));
    REQUIRE_FALSE(short_of[0]);
    CHECK(short_of[0].error().transient); // the watchdog tries again, the deadline unmoved
    CHECK(short_of[0].error().message.starts_with(
        "only 1 of 2 replicas acknowledged the renewal within 200ms"));
    REQUIRE(short_of[1]);
    CHECK_FALSE(*short_of[1]);
    CHECK(short_of[2].error().message == "reset");

    auto refused = acknowledged({lock::Renewal{true, std::nullopt}},
                                wait_failed("NOPERM no permissions to run 'wait'"), replicas(1));
    REQUIRE_FALSE(refused[0]);
    CHECK(refused[0].error().transient);
}

TEST_CASE("a demoted master's replies say it is no master", "[replication]") {
    CHECK(not_master(classify("READONLY You can't write against a read only replica.").code));
    CHECK(not_master(classify("MASTERDOWN Link with MASTER is down and replica-serve-stale-data "
                              "is set to 'no'.")
                         .code));
    // A BLPOP blocked on a master that turns replica.
    CHECK(not_master(classify("UNBLOCKED force unblock from blocking operation, instance state "
                              "changed (master -> replica?)")
                         .code));
    CHECK_FALSE(not_master(classify("ERR unknown command").code));
}
