#include "process/stop_rule.hpp"

#include <algorithm>

namespace dlock::process {

StopRule::Action StopRule::at(Clock::time_point now) {
    if (!started_ && now >= policy_.start_at) {
        started_ = true;
        policy_.start();
    }
    const bool lost = !stopped_ && now >= policy_.stop_at();
    const bool time_up = !stopped_ && !timed_out_ && now >= policy_.time_up_at;
    if (lost || time_up) {
        stopped_ = lost;
        timed_out_ = timed_out_ || time_up;
        stopped_at_ = now;
        // A loss after --max-run's stop keeps the earlier SIGKILL: it is before the expiry.
        kill_at_ = std::min(kill_at_, now + policy_.grace);
        return Action::stop;
    }
    if (now >= kill_at_) {
        kill_at_ = Clock::time_point::max();
        return Action::kill;
    }
    return Action::none;
}

StopRule::Clock::time_point StopRule::next() const {
    auto next = kill_at_;
    if (!stopped_)
        next = std::min({next, policy_.stop_at(), timed_out_ ? next : policy_.time_up_at});
    if (!started_)
        next = std::min(next, policy_.start_at);
    return next;
}

} // namespace dlock::process
