#include "process/stop_rule.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using process::StopRule;
using namespace std::chrono_literals;

namespace {

const StopRule::Clock::time_point kT0{std::chrono::seconds(1000)};

StopRule::Policy policy(StopRule::Clock::time_point& stop_at) {
    StopRule::Policy p;
    p.stop_at = [&stop_at] { return stop_at; };
    p.grace = Millis(5000);
    return p;
}

} // namespace

TEST_CASE("stop rule: the lost signal at the stop deadline, SIGKILL a grace later", "[stop]") {
    auto stop_at = kT0 + 10s;
    const auto p = policy(stop_at);
    StopRule rule(p);
    CHECK(rule.at(kT0) == StopRule::Action::none);
    CHECK(rule.next() == kT0 + 10s);
    CHECK(rule.at(kT0 + 10s) == StopRule::Action::stop);
    CHECK(rule.stopped());
    CHECK_FALSE(rule.timed_out());
    CHECK(rule.stopped_at() == kT0 + 10s);
    CHECK(rule.next() == kT0 + 15s);
    CHECK(rule.at(kT0 + 12s) == StopRule::Action::none);
    CHECK(rule.at(kT0 + 15s) == StopRule::Action::kill);
    CHECK(rule.next() == StopRule::Clock::time_point::max());
}

TEST_CASE("stop rule: --max-run first, then a loss keeps the earlier SIGKILL", "[stop]") {
    auto stop_at = kT0 + 60s;
    auto p = policy(stop_at);
    p.time_up_at = kT0 + 5s;
    StopRule rule(p);
    CHECK(rule.at(kT0 + 5s) == StopRule::Action::stop);
    CHECK(rule.timed_out());
    CHECK_FALSE(rule.stopped());
    stop_at = kT0 + 6s; // the lease is lost while the job dies
    CHECK(rule.at(kT0 + 6s) == StopRule::Action::stop);
    CHECK(rule.stopped());
    CHECK(rule.next() == kT0 + 10s);
    CHECK(rule.at(kT0 + 10s) == StopRule::Action::kill);
}

TEST_CASE("stop rule: start runs once when due, and a job that ended needs no SIGKILL", "[stop]") {
    auto stop_at = kT0 + 10s;
    auto p = policy(stop_at);
    int started = 0;
    p.start_at = kT0 + 3s;
    p.start = [&started] { ++started; };
    StopRule rule(p);
    CHECK(rule.next() == kT0 + 3s);
    rule.at(kT0 + 3s);
    rule.at(kT0 + 4s);
    CHECK(started == 1);
    CHECK(rule.at(kT0 + 10s) == StopRule::Action::stop);
    rule.ended();
    CHECK(rule.next() == StopRule::Clock::time_point::max());
}
