#include "lock/acquire.hpp"

#include "lock/backoff.hpp"
#include "lock/lease_clock.hpp"
#include "util/log.hpp"
#include "util/random.hpp"

#include <algorithm>
#include <thread>

namespace dlock::lock {
namespace {

using Clock = std::chrono::steady_clock;

Millis until(Clock::time_point deadline) {
    return std::max(Millis(0), std::chrono::duration_cast<Millis>(deadline - Clock::now()));
}

bool abandoned(const AcquireSpec& spec) {
    return spec.abandon && spec.abandon();
}

// dlock gives up on an error. If the last acquire got no reply, its script may still have run
// (or may run later, when a paused Redis resumes): it may have taken the lease, which nobody
// would renew or release, so the name would stay held for a whole TTL, or queued us. Give back
// its hold id (a no-op if it never ran) and leave the queue: one try each, since Redis is
// failing and the caller is about to exit.
void give_up(Backend& backend, const AcquireSpec& spec, bool reply_lost, bool queued) {
    const AcquireRequest& r = spec.request;
    if (reply_lost) {
        log::info("no reply to the acquire of {}: giving back hold {} in case it ran",
                  spec.keys.lock, r.hold_id);
        auto released = give_back(backend, spec.keys, r);
        if (!released) {
            log::info("could not give back hold {}: {}; if the acquire ran, {} expires within {}",
                      r.hold_id, released.error().message, spec.keys.lock, format_duration(r.ttl));
            return;
        }
    }
    if (!r.waiter_id.empty() && (queued || reply_lost))
        (void)backend.leave_queue(spec.keys, r.waiter_id, r.heartbeat);
}

// One acquire call. A hold granted unreplicated is given back here and becomes its error, with
// `given_back` set: its reply was not lost, so giving up must not give it back again.
Result<AcquireOutcome> try_acquire(Backend& backend, const AcquireSpec& spec, bool& given_back) {
    auto outcome = backend.acquire(spec.keys, spec.request);
    given_back = false;
    if (!outcome || !outcome->acquired || !outcome->unreplicated)
        return outcome;
    const Error why = *outcome->unreplicated;
    (void)give_back(backend, spec.keys, spec.request);
    given_back = true;
    return tl::unexpected(why);
}

// How long a waiter refused with `last` blocks before it asks again: until woken, but never
// past our deadline, our next heartbeat, or the moment what blocks us may end without a wake-up
// (+ a little slack): the holder's lease expiring without a release, or a dead waiter ahead of
// us being dropped.
Millis block_for(const AcquireOutcome& last, Millis left, Millis slice) {
    Millis block = std::min(left, slice);
    if (last.lease_left.count() >= 0)
        block = std::min(block, last.lease_left + Millis(5));
    return std::max(block, Millis(1));
}

// The lease a wake-up granted us, if any and if we may start on it at once. A release grants
// the lease after the script of our last refused acquire ran (a later one would have found it
// ours), so the lease lasts at least until that acquire's send time + TTL. Trusted while no
// more than a renewal interval of that has passed: the watchdog renews it then at once, and the
// command is not stopped for want of time (the stop comes at least a safety margin and a
// --kill-after, itself at most an interval, before the end). An older grant is confirmed by the
// next acquire (our own request replayed) with a fresh send time.
std::optional<Acquired> granted(const Wake& wake, const AcquireSpec& spec,
                                Clock::time_point refused_sent_at) {
    if (!wake.granted_fence || spec.request.shared)
        return std::nullopt;
    if (Clock::now() - refused_sent_at > renewal_interval(spec.request.ttl))
        return std::nullopt;
    return Acquired{*wake.granted_fence, 1, false, refused_sent_at, 0, 0};
}

// Blocks until woken, handed the lease (returned), or due to ask again: never past `deadline`,
// nor past our heartbeat window (a third of it, so a slow reply still comes in time). A nudge
// (we are next in the queue) only shortens the wait: the server now expects us within a
// heartbeat.
std::optional<Acquired> wait_turn(Backend& backend, const AcquireSpec& spec,
                                  const AcquireOutcome& last, Clock::time_point refused_sent_at,
                                  Clock::time_point deadline, Backoff& backoff) {
    const Millis slice = spec.request.heartbeat / 3;
    Millis block = last.heartbeat_window > Millis(0) ? last.heartbeat_window / 3 : slice;
    for (;;) {
        auto woken = backend.await_grant(spec.keys, spec.request.waiter_id,
                                         block_for(last, until(deadline), block));
        if (!woken) {
            log::debug("waiting for {}: {}; retrying", spec.keys.lock, woken.error().message);
            std::this_thread::sleep_for(std::min(backoff.next(), until(deadline)));
            return std::nullopt;
        }
        if (auto grant = granted(*woken, spec, refused_sent_at))
            return grant;
        if (!woken->nudged || until(deadline) == Millis(0) || abandoned(spec))
            return std::nullopt;
        block = slice;
    }
}

} // namespace

AcquireResult acquire(Backend& backend, AcquireSpec spec) {
    const bool may_wait = !spec.wait || spec.wait->count() > 0;
    const auto deadline = spec.wait ? Clock::now() + *spec.wait : Clock::time_point::max();
    if (may_wait)
        spec.request.waiter_id = random_hex(8);
    AcquireOutcome last;
    Clock::time_point refused_sent_at; // when the acquire of `last` was sent
    bool queued = false;               // a reply said we were queued
    Backoff backoff;
    for (;;) {
        const auto sent_at = Clock::now();
        bool given_back = false;
        auto outcome = try_acquire(backend, spec, given_back);
        if (!outcome) {
            // A transient error (reset connection, timeout, Redis loading or busy) is retried
            // within the wait, with the same hold id and waiter id: if the lost call ran, the
            // retry is a replay. A server never reached is not transient: reported at once.
            const Error& error = outcome.error();
            if (error.transient && may_wait && until(deadline) > Millis(0) && !abandoned(spec)) {
                const Millis pause = std::min(backoff.next(), until(deadline));
                log::debug("acquire {}: {}; retrying in {}", spec.keys.lock, error.message,
                           format_duration(pause));
                std::this_thread::sleep_for(pause);
                continue;
            }
            give_up(backend, spec, error.transient && !given_back, queued);
            return tl::unexpected(outcome.error());
        }
        backoff.reset();
        if (outcome->acquired)
            return Acquired{outcome->fence, outcome->holds,        outcome->shared,
                            sent_at,        outcome->permit_limit, outcome->permits_held};
        last = *outcome;
        queued = may_wait;
        refused_sent_at = sent_at;
        if (last.paused) // whatever the wait; the store took us out of its queue
            return Refused{last, false};

        const Millis left = until(deadline);
        if (!may_wait || left == Millis(0) || abandoned(spec)) {
            if (may_wait)
                (void)backend.leave_queue(spec.keys, spec.request.waiter_id,
                                          spec.request.heartbeat);
            return Refused{last, may_wait};
        }
        if (spec.on_wait)
            spec.on_wait(last);
        if (auto grant = wait_turn(backend, spec, last, refused_sent_at, deadline, backoff))
            return *grant;
    }
}

Result<std::optional<int64_t>> give_back(Backend& backend, const Keys& keys,
                                         const AcquireRequest& r) {
    auto release = [&](bool shared) {
        return backend.release(
            keys, ReleaseRequest{r.owner, r.hold_id, r.heartbeat, shared, std::nullopt, Millis(0)});
    };
    auto released = release(r.shared);
    // An exclusive owner asking for shared re-enters exclusively.
    if (released && !*released && r.shared)
        released = release(false);
    return released;
}

} // namespace dlock::lock
