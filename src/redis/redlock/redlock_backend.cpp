#include "redis/redlock/redlock_backend.hpp"

#include "lock/acquire.hpp"
#include "lock/quorum.hpp"
#include "util/fan_out.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <map>
#include <random>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

// A waiter's pause between rounds: no queue to wake it, and members' queues would disagree.
constexpr Millis kMinRetry{50};
constexpr Millis kMaxRetry{250};
constexpr Millis kMinMemberTimeout{100};

// Transient when any failure is: a retry may then reach a majority. Members never reached at
// all (Redis down, a wrong URL) are not: that is reported at once.
template <typename T>
bool any_transient(const std::vector<Result<T>>& results) {
    return std::any_of(results.begin(), results.end(),
                       [](const Result<T>& r) { return !r && r.error().transient; });
}

// Lease `k` as a majority found it, no longer ours: with the `release --force` that broke it when
// a member's history recorded it (every member's force names the same forcer).
lock::Renewal lost_on_majority(const std::vector<std::vector<Result<lock::Renewal>>>& votes,
                               size_t k) {
    for (const auto& member : votes)
        if (member[k] && member[k]->forced)
            return *member[k];
    return lock::Renewal{false, std::nullopt};
}

} // namespace

RedlockBackend::RedlockBackend(const std::vector<Deployment>& members, lock::HolderInfo self,
                               Millis ttl)
    : self_(std::move(self)) {
    const Millis short_timeout = std::max(ttl / 10, kMinMemberTimeout);
    for (Deployment member : members) {
        member.connect_timeout = std::min(member.connect_timeout, short_timeout);
        member.command_timeout = std::min(member.command_timeout, short_timeout);
        members_.push_back(std::make_unique<LockBackend>(std::move(member)));
    }
}

std::string RedlockBackend::name_of(size_t member) const {
    return fmt::format("member {} ({})", member + 1, members_[member]->display());
}

template <typename T>
std::string RedlockBackend::failures(const std::vector<Result<T>>& results) const {
    std::string out;
    for (size_t i = 0; i < results.size(); ++i)
        if (!results[i])
            out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", name_of(i),
                               results[i].error().message);
    return out;
}

Result<void> RedlockBackend::connect() {
    const size_t n = members_.size();
    std::vector<Result<void>> connected(n);
    fan_out(n, [&](size_t i) { connected[i] = members_[i]->connect(); });
    const auto reached = static_cast<size_t>(
        std::count_if(connected.begin(), connected.end(), [](const auto& r) { return r; }));
    if (reached >= lock::quorum(n)) {
        if (reached < n)
            log::info("Redlock: {} of {} members reached: {}", reached, n, failures(connected));
        return {};
    }
    return fail(Fault::unavailable,
                fmt::format("no majority of the {} Redis members can be reached ({} needed): {}", n,
                            lock::quorum(n), failures(connected)),
                any_transient(connected));
}

void RedlockBackend::drop_absurd_fences(const lock::Keys& keys,
                                        std::vector<Result<lock::AcquireOutcome>>& votes,
                                        std::vector<size_t>& granted) const {
    std::vector<int64_t> tokens;
    tokens.reserve(granted.size());
    for (size_t i : granted)
        tokens.push_back(votes[i]->fence);
    const auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    const int64_t bound = lock::fence_bound(tokens, members_.size(), now_us);
    std::erase_if(granted, [&](size_t i) {
        const int64_t token = votes[i]->fence;
        if (lock::sane_fence(token, bound))
            return false;
        const std::string why = fmt::format(
            "granted {} with fencing token {}, outside the sane range 1..{} (a year past the "
            "clock): not used (a poisoned {} or a clock far ahead)",
            keys.lock, token, bound, keys.fence);
        log::warn("Redlock: {}: {}", name_of(i), why);
        // A failed member for this acquire: it neither votes nor gets the token committed (its
        // counter, restarted from its clock, would not keep it). It is given back there if the
        // lease is not held; if it is, the lease there is ours and goes with the release.
        votes[i] = fail(Fault::unavailable, why, false);
        return true;
    });
}

std::vector<Result<lock::AcquireOutcome>> RedlockBackend::votes_for(const lock::Keys& keys,
                                                                    const lock::AcquireRequest& r) {
    std::vector<Result<lock::AcquireOutcome>> votes(members_.size());
    fan_out(members_.size(), [&](size_t i) {
        votes[i] = members_[i]->acquire(keys, r);
        // Granted but not replicated as --min-replicas asks: given back there, a failed vote.
        if (votes[i] && votes[i]->acquired && votes[i]->unreplicated) {
            const Error why = *votes[i]->unreplicated;
            (void)lock::give_back(*members_[i], keys, r);
            votes[i] = tl::unexpected(why);
        }
    });
    return votes;
}

std::optional<lock::AcquireOutcome>
RedlockBackend::commit(const lock::Keys& keys, const lock::AcquireRequest& r,
                       const std::vector<Result<lock::AcquireOutcome>>& votes,
                       const std::vector<size_t>& granted, Clock::time_point sent_at) {
    const size_t n = members_.size(), q = lock::quorum(n);
    // The token: the largest counter of the majority, committed back where we hold it.
    lock::AcquireOutcome held = *votes[granted.front()];
    for (size_t i : granted) {
        held.fence = std::max(held.fence, votes[i]->fence);
        held.holds = std::max(held.holds, votes[i]->holds);
    }
    std::vector<Result<bool>> commits(granted.size());
    fan_out(granted.size(), [&](size_t j) {
        commits[j] = members_[granted[j]]->commit_fence(keys, r.owner, held.fence);
    });
    const auto committed = static_cast<size_t>(std::count_if(
        commits.begin(), commits.end(), [](const Result<bool>& c) { return c && *c; }));
    const Millis left = lock::validity(r.ttl, Clock::now() - sent_at);
    if (committed >= q && left > Millis(0))
        return held;
    log::info("Redlock: {} of {} members committed fencing token {} of {} with {} left; "
              "giving it back",
              committed, n, held.fence, keys.lock, format_duration(std::max(left, Millis(0))));
    return std::nullopt;
}

Result<lock::AcquireOutcome>
RedlockBackend::refusal(const lock::Keys& keys, const lock::AcquireRequest& r,
                        const std::vector<Result<lock::AcquireOutcome>>& votes) const {
    const size_t n = members_.size(), q = lock::quorum(n);
    const auto errors =
        static_cast<size_t>(std::count_if(votes.begin(), votes.end(), [](auto& v) { return !v; }));
    if (errors > n - q)
        return fail(Fault::unavailable,
                    fmt::format("no majority of the {} Redis members answered ({} needed): {}", n,
                                q, failures(votes)),
                    any_transient(votes));

    // The holder most members saw.
    std::map<std::tuple<std::string, int64_t, int64_t>, size_t> seen;
    const lock::AcquireOutcome* refused = nullptr;
    size_t best = 0;
    for (const auto& vote : votes) {
        if (!vote || vote->acquired || !vote->holder)
            continue;
        const auto& h = *vote->holder;
        const size_t count = ++seen[{h.host, h.pid, h.fence}];
        if (count > best) {
            best = count;
            refused = &*vote;
        }
    }
    if (!refused)
        // Granted by enough members, but too slowly (or not committed in time): try again.
        return fail(Fault::unavailable,
                    fmt::format("the lease on {} could not be held on a majority of the {} Redis "
                                "members within its validity (--ttl {}){}",
                                keys.lock, n, format_duration(r.ttl),
                                errors > 0 ? "; " + failures(votes) : ""),
                    true);
    lock::AcquireOutcome out = *refused;
    out.waiters = 0;
    return out;
}

Result<lock::AcquireOutcome> RedlockBackend::acquire(const lock::Keys& keys,
                                                     const lock::AcquireRequest& request) {
    lock::AcquireRequest r = request;
    // No member queues us: a waiter polls, and only its last refusal is a skip (recorded by it).
    r.final_refusal = request.waiter_id.empty();
    r.waiter_id.clear();
    const auto sent_at = Clock::now();
    auto votes = votes_for(keys, r);
    // A pause on a majority shows in every majority: one member that says paused is enough.
    const auto paused = std::find_if(votes.begin(), votes.end(),
                                     [](const auto& vote) { return vote && vote->paused; });
    if (paused != votes.end()) {
        lock::AcquireOutcome out = **paused;
        fan_out(members_.size(), [&](size_t i) { (void)lock::give_back(*members_[i], keys, r); });
        return out;
    }

    std::vector<size_t> granted;
    for (size_t i = 0; i < votes.size(); ++i)
        if (votes[i] && votes[i]->acquired)
            granted.push_back(i);
    drop_absurd_fences(keys, votes, granted);
    if (granted.size() >= lock::quorum(members_.size()) &&
        lock::validity(r.ttl, Clock::now() - sent_at) > Millis(0))
        if (auto held = commit(keys, r, votes, granted, sent_at))
            return *held;

    // Not held: give the hold back on every member, answered or not (a lost reply may have
    // taken it). By hold id, so a member that did not take it is untouched.
    fan_out(members_.size(), [&](size_t i) { (void)lock::give_back(*members_[i], keys, r); });
    return refusal(keys, r, votes);
}

void RedlockBackend::retake(size_t member, const lock::RenewRequest& request) {
    lock::AcquireRequest repair;
    repair.owner = request.owner;
    repair.hold_id = request.hold_id;
    repair.ttl = request.ttl;
    repair.heartbeat = lock::kWaiterHeartbeat;
    repair.self = self_;
    repair.final_refusal = false; // a repair, not a run: a busy name is no skip
    auto again = members_[member]->acquire(request.keys, repair);
    if (again && again->acquired)
        log::info("Redlock: {} had lost {}: taken again", name_of(member), request.keys.lock);
}

std::vector<Result<lock::Renewal>>
RedlockBackend::renew(std::span<const lock::RenewRequest> requests) {
    const size_t n = members_.size(), q = lock::quorum(n);
    const auto sent_at = Clock::now();
    std::vector<std::vector<Result<lock::Renewal>>> votes(n);
    fan_out(n, [&](size_t i) {
        votes[i] = members_[i]->renew(requests);
        votes[i].resize(requests.size(),
                        tl::unexpected(Error{Fault::internal, "no answer for this lease", true}));
    });
    auto count = [&](size_t k, bool renewed) {
        return static_cast<size_t>(std::count_if(votes.begin(), votes.end(), [&](const auto& v) {
            return v[k] && v[k]->renewed == renewed;
        }));
    };

    // A minority that lost a lease the majority still has restarted empty (or its key was
    // evicted): take it again there if the name is free, so that one more failure does not cost
    // the majority. A majority that lost it means the lease is gone (expired, or broken by
    // `release --force`): never taken again then.
    std::vector<std::pair<size_t, size_t>> repairs; // (member, request)
    for (size_t k = 0; k < requests.size(); ++k)
        if (count(k, true) >= q)
            for (size_t i = 0; i < n; ++i)
                if (votes[i][k] && !votes[i][k]->renewed)
                    repairs.emplace_back(i, k);
    fan_out(repairs.size(),
            [&](size_t j) { retake(repairs[j].first, requests[repairs[j].second]); });

    std::vector<Result<lock::Renewal>> out;
    out.reserve(requests.size());
    for (size_t k = 0; k < requests.size(); ++k) {
        const size_t yes = count(k, true), no = count(k, false);
        const bool in_time = lock::validity(requests[k].ttl, Clock::now() - sent_at) > Millis(0);
        if (yes >= q && in_time) {
            out.emplace_back(lock::Renewal{true, std::nullopt});
            continue;
        }
        if (no >= q) {
            out.emplace_back(lost_on_majority(votes, k));
            continue;
        }
        std::vector<Result<lock::Renewal>> of_this;
        for (size_t i = 0; i < n; ++i)
            of_this.push_back(votes[i][k]);
        out.emplace_back(fail(Fault::unavailable,
                              fmt::format("renewed on {} of {} Redis members ({} needed{}){}", yes,
                                          n, q, in_time ? "" : ", and too late",
                                          yes + no < n ? ": " + failures(of_this) : ""),
                              true));
    }
    return out;
}

Result<std::optional<int64_t>> RedlockBackend::release(const lock::Keys& keys,
                                                       const lock::ReleaseRequest& r) {
    const size_t n = members_.size(), q = lock::quorum(n);
    std::vector<Result<std::optional<int64_t>>> answers(n);
    fan_out(n, [&](size_t i) { answers[i] = members_[i]->release(keys, r); });
    size_t ours = 0, not_ours = 0;
    int64_t holds_left = 0;
    for (const auto& a : answers) {
        if (a && *a) {
            ++ours;
            holds_left = std::max(holds_left, **a);
        } else if (a) {
            ++not_ours;
        }
    }
    if (ours >= q)
        return std::optional<int64_t>(holds_left);
    if (not_ours >= q) // expired or broken on a majority: the lease was no longer ours
        return std::optional<int64_t>();
    return fail(Fault::unavailable,
                fmt::format("released on {} of {} Redis members, not ours on {} ({} needed): {}",
                            ours, n, not_ours, q, failures(answers)),
                true);
}

Result<bool> RedlockBackend::await_wake(const lock::Keys&, std::string_view, Millis timeout) {
    // Jitter, so that competing waiters do not retry in step; not a secret.
    thread_local std::minstd_rand rng(
        static_cast<unsigned>(Clock::now().time_since_epoch().count()) ^
        static_cast<unsigned>(getpid()));
    std::uniform_int_distribution<int64_t> pause(kMinRetry.count(), kMaxRetry.count());
    std::this_thread::sleep_for(std::min(timeout, Millis(pause(rng))));
    return false;
}

Result<void> RedlockBackend::leave_queue(const lock::Keys&, std::string_view, Millis) {
    return {}; // never queued
}

Result<void> RedlockBackend::append(const lock::Keys& keys, const lock::HistoryFields& fields) {
    const size_t n = members_.size();
    std::vector<Result<void>> written(n);
    fan_out(n, [&](size_t i) { written[i] = members_[i]->append(keys, fields); });
    if (std::any_of(written.begin(), written.end(), [](const auto& w) { return w.has_value(); }))
        return {};
    return fail(Fault::unavailable,
                fmt::format("no Redis member recorded the event: {}", failures(written)), true);
}

lock::BackendFactory redlock_factory(std::vector<Deployment> members, lock::HolderInfo self,
                                     Millis ttl) {
    return [members = std::move(members), self = std::move(self),
            ttl]() -> Result<std::unique_ptr<lock::Backend>> {
        auto backend = std::make_unique<RedlockBackend>(members, self, ttl);
        TRY(backend->connect());
        return std::unique_ptr<lock::Backend>(std::move(backend));
    };
}

} // namespace dlock::redis
