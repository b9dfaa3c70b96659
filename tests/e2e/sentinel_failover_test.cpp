// SENTINEL FAILOVER under running dlock processes. Each test case fails its own deployment over
// (~2.2 s to start, ~1.1 s to fail over). After a failover the old master still takes writes
// for ~11 s: dlock must renew, release and wait on the new one.

#include "e2e/e2e_helpers.hpp"
#include "support/sentinel_deployment.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

int64_t pttl_on(const RedisNode& node, const std::string& k) {
    return node.cmd({"PTTL", k}).integer();
}

bool has_key(const RedisNode& node, const std::string& k) {
    return node.cmd({"EXISTS", k}).integer() == 1;
}

std::unique_ptr<Process> start_on(const SentinelDeployment& d, std::vector<std::string> args,
                                  const TempDir& dir) {
    return e2e::start_on(d.url(), std::move(args), {{"D", dir.path()}});
}

// Holds `name` until $D/go exists (start_holder_on); its pid in $D/NAME.held.
std::unique_ptr<Process> start_sentinel_holder(SentinelDeployment& d, const TempDir& dir,
                                               const std::string& name, const std::string& ttl) {
    auto holder = start_holder_on(d.url(), dir, name, {"--ttl", ttl});
    REQUIRE(has_key(d.master(), key(name)));
    return holder;
}

} // namespace

TEST_CASE("a holder whose lease reached the replica survives SENTINEL FAILOVER",
          "[e2e][sentinel][failover]") {
    REQUIRE_SENTINEL(d);
    TempDir dir;
    RedisNode& old_master = d->data(0);
    auto holder = start_sentinel_holder(*d, dir, "job", "6s");
    REQUIRE(eventually([&] { return has_key(d->data(1), key("job")); }));

    RedisNode& new_master = d->failover();
    const auto failed_over = Clock::now();
    REQUIRE(&new_master == &d->data(1));
    // Two renewals (every 2 s) later: renewed on the new master, not on the old one, which still
    // takes writes.
    std::this_thread::sleep_for(4500ms - since(failed_over));
    const int64_t renewed = pttl_on(new_master, key("job"));
    const int64_t stale = pttl_on(old_master, key("job"));
    INFO("PTTL on the new master " << renewed << " ms, on the old one " << stale << " ms");
    CHECK(renewed > 3500);
    CHECK(stale < 3000);
    CHECK(holder->running());

    touch(dir / "go");
    auto r = holder->wait(15s);
    INFO("holder stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(has_key(new_master, key("job")));
}

TEST_CASE("a holder whose lease the failover lost is stopped with 76",
          "[e2e][sentinel][failover]") {
    REQUIRE_SENTINEL(d);
    TempDir dir;
    auto holder = start_sentinel_holder(*d, dir, "job", "6s");
    REQUIRE(eventually([&] { return has_key(d->data(1), key("job")); }));

    RedisNode& new_master = d->failover();
    // As if the acquire had not reached the replica before its promotion.
    new_master.cmd({"DEL", key("job")});
    const auto lost = Clock::now();
    auto r = holder->wait(20s);
    INFO("holder stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(r.err.find("lost the lease on job") != std::string::npos);
    // Noticed at the next renewal on the new master (every 2 s), not when the old master's copy
    // expires.
    CHECK(since(lost) < 4s);
}

TEST_CASE("waiters get the lock after SENTINEL FAILOVER, one at a time",
          "[e2e][sentinel][failover]") {
    REQUIRE_SENTINEL(d);
    TempDir dir;
    auto holder = start_sentinel_holder(*d, dir, "mx", "6s");
    const std::string section = "echo \"start $$ $DLOCK_FENCING_TOKEN\" >> \"$D/log\"; sleep 0.3; "
                                "echo \"end $$ $DLOCK_FENCING_TOKEN\" >> \"$D/log\"";
    std::vector<std::unique_ptr<Process>> waiters;
    for (int i = 0; i < 2; ++i)
        waiters.push_back(start_on(*d, {"run", "-w", "60s", "mx", "-c", section}, dir));
    // Both queued, and their place in the queue replicated: they block on the old master.
    REQUIRE(eventually([&] {
        return d->data(1).cmd({"ZCARD", key("mx", "queue")}).integer() == 2;
    }));

    RedisNode& new_master = d->failover();
    // One more waiter, which finds the new master from the start.
    waiters.push_back(start_on(*d, {"run", "-w", "60s", "mx", "-c", section}, dir));
    REQUIRE(eventually([&] {
        return new_master.cmd({"ZCARD", key("mx", "queue")}).integer() == 3;
    }));
    const auto released = Clock::now();
    touch(dir / "go");
    auto r = holder->wait(15s);
    INFO("holder stderr: " << r.err);
    CHECK(r.exit_code == 0);
    for (auto& w : waiters) {
        auto result = w->wait(30s);
        INFO("waiter stderr: " << result.err);
        CHECK(result.exit_code == 0);
    }
    // Woken by their bound on the old master (1 s) at worst, then 3 sections of 0.3 s.
    CHECK(since(released) < 5s);

    check_sections_in_turn(dir / "log", 3);
    CHECK_FALSE(has_key(new_master, key("mx")));
}
