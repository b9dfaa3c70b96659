#include "lock/watchdog.hpp"

#include "lock/describe.hpp"
#include "util/log.hpp"
#include "util/signal_free_thread.hpp"

#include <algorithm>
#include <optional>

namespace dlock::lock {
namespace {

Millis retry_pause(Millis ttl) {
    return std::clamp(ttl / 20, Millis(50), Millis(500));
}

// "the lease on job", "the leases on a, b", or "the lease" for unnamed leases.
template <typename Entries>
std::string leases_of(const Entries& round) {
    std::string names;
    for (const auto* entry : round)
        if (!entry->name.empty())
            names += (names.empty() ? "" : ", ") + entry->name;
    if (names.empty())
        return round.size() == 1 ? "the lease" : "the leases";
    return fmt::format("{} on {}", round.size() == 1 ? "the lease" : "the leases", names);
}

// "in 1.3s (at 02:00:05)": when the first of `round` must be stopped, on the wall clock.
template <typename Entries>
std::string stop_deadline(const Entries& round) {
    auto stop_at = LeaseClock::Clock::time_point::max();
    for (const auto* entry : round)
        stop_at = std::min(stop_at, entry->clock->stop_at());
    const auto left =
        std::max(Millis(0), std::chrono::duration_cast<Millis>(stop_at - LeaseClock::Clock::now()));
    const int64_t now_ms = wall_now_ms();
    return fmt::format("in {} (at {})", format_duration(left),
                       local_time(now_ms + left.count(), now_ms));
}

} // namespace

Watchdog::Watchdog(BackendFactory open_backend, Millis ttl, std::function<void()> on_change)
    : open_backend_(std::move(open_backend)), ttl_(ttl), on_change_(std::move(on_change)) {}

Watchdog::~Watchdog() {
    stop();
}

void Watchdog::add(const RenewRequest& lease, LeaseClock& clock, std::string name) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_)
            return;
        // The first renewal is due one interval after the acquire was sent.
        entries_.push_back(Entry{lease, &clock, std::move(name),
                                 clock.guaranteed_until() - ttl_ + renewal_interval(ttl_)});
    }
    if (thread_.joinable())
        wakeup_.notify_all();
    else
        start();
}

void Watchdog::start() {
    // The renewal thread never takes a process signal; it may start before the supervisor
    // blocks them (a multi-name run renews while it waits).
    thread_ = signal_free_thread([this] { loop(); });
}

void Watchdog::request_stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wakeup_.notify_all();
}

void Watchdog::stop() {
    request_stop();
    if (thread_.joinable())
        thread_.join();
}

bool Watchdog::wait_for_round(std::vector<Entry*>& round) {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (stopping_)
            return false;
        auto due = Clock::time_point::max();
        for (const auto& entry : entries_)
            if (!entry.done)
                due = std::min(due, entry.due);
        if (due == Clock::time_point::max())
            wakeup_.wait(lock); // nothing to renew until a lease is added
        else if (Clock::now() < due)
            wakeup_.wait_until(lock, due);
        else
            break;
    }
    // Renew every lease, not only those due: one round trip either way, and the leases taken
    // at different times fall into step.
    round.clear();
    const auto now = Clock::now();
    for (auto& entry : entries_) {
        if (!entry.done && entry.clock->expired(now))
            entry.done = true; // too late to matter: the supervisor is stopping the command
        if (!entry.done)
            round.push_back(&entry);
    }
    return true;
}

void Watchdog::renew(std::unique_ptr<Backend>& backend, const std::vector<Entry*>& round) {
    if (!backend) {
        auto opened = open_backend_();
        if (!opened) {
            report_failure(round, opened.error());
            std::lock_guard lock(mutex_);
            for (Entry* entry : round)
                entry->due = Clock::now() + retry_pause(ttl_);
            return;
        }
        backend = std::move(*opened);
    }
    std::vector<RenewRequest> requests;
    requests.reserve(round.size());
    for (const Entry* entry : round)
        requests.push_back(entry->request);

    const auto sent_at = Clock::now();
    auto results = backend->renew(requests);
    if (results.size() != round.size()) {
        results.clear();
        for (size_t i = 0; i < round.size(); ++i)
            results.emplace_back(fail(Fault::internal, "the store answered a renewal badly"));
    }
    std::optional<Error> failure;
    bool lost = false;
    size_t renewed = 0;
    {
        std::lock_guard lock(mutex_);
        for (size_t i = 0; i < round.size(); ++i) {
            Entry& entry = *round[i];
            if (!results[i]) {
                if (!failure || (results[i].error().transient && !failure->transient))
                    failure = results[i].error();
                entry.due = Clock::now() + retry_pause(ttl_);
            } else if (!results[i]->renewed) {
                entry.clock->lost(std::move(results[i]->forced));
                entry.done = true;
                lost = true;
            } else {
                entry.clock->renewed(sent_at);
                entry.due = sent_at + renewal_interval(ttl_);
                ++renewed;
            }
        }
    }
    if (failure) {
        report_failure(round, *failure);
        if (failure->transient)
            backend.reset(); // reconnect on the next try
    } else if (renewed > 0) {
        report_recovery(round);
    }
    if (renewed == 1)
        log::debug("lease renewed");
    else if (renewed > 1)
        log::debug("{} leases renewed", renewed);
    if (lost)
        on_change_();
}

void Watchdog::report_failure(const std::vector<Entry*>& round, const Error& failure) {
    const auto now = Clock::now();
    const bool too_late = std::all_of(
        round.begin(), round.end(), [&](const Entry* entry) { return entry->clock->expired(now); });
    // Once the command is being stopped, the lost-lease error says it all.
    if (failing_ || too_late) {
        log::debug("cannot renew {}: {}; retrying", leases_of(round), failure.message);
        failing_ = true;
        return;
    }
    failing_ = true;
    log::warn("cannot renew {}: {}; retrying, the command will be stopped {} unless a renewal "
              "succeeds",
              leases_of(round), failure.message, stop_deadline(round));
}

void Watchdog::report_recovery(const std::vector<Entry*>& round) {
    if (!failing_)
        return;
    failing_ = false;
    log::warn("renewals recovered: renewed {} again", leases_of(round));
}

void Watchdog::loop() {
    std::unique_ptr<Backend> backend;
    std::vector<Entry*> round;
    while (wait_for_round(round))
        if (!round.empty())
            renew(backend, round);
}

} // namespace dlock::lock
