#pragma once

#include "app/run.hpp"
#include "lock/backend.hpp"
#include "lock/lease_set.hpp"
#include "lock/store.hpp"
#include "process/owner.hpp"

#include <string>
#include <vector>

namespace dlock::app {

// What the keeper of a `dlock acquire` keeps: the leases, for `owner`, answering releases on
// `listener` (process/hold_channel.hpp).
struct Keeping {
    lock::Backend& backend;
    lock::LeaseSet& leases;
    const RunOptions& options;
    const lock::HolderInfo& self;
    const process::Owner& owner;
    pid_t script; // the script that ran dlock acquire (often the owner)
    int listener;
    // The names this hold re-entered (an outer hold of the script keeps them after its release).
    std::vector<std::string> reentered;
    // --ephemeral: where the names are forgotten after the release (nullptr: they are kept).
    lock::Store* ephemeral = nullptr;
    std::string prefix;
};

// The keeper, in the child of fork(): renews the leases until the owner exits (then releases
// them, the run counted with its status unknown) or a release request comes (then releases
// them, counted with the status the request gives, and answers). A lease lost meanwhile, or
// --max-run passed: the owner's whole process group gets --lost-signal before the lease can
// expire and SIGKILL after --kill-after (the stop rule of `dlock run`, process/stop_rule.hpp),
// the loss goes to the history, and a later release request is answered 76 (124). A guardian
// (process/guardian.hpp) SIGKILLs the group should the keeper die. Once it holds and guards, it
// writes "ok" and a newline to `ready` (else the reason, after releasing) and closes it.
// Never returns.
[[noreturn]] void keep(const Keeping& keeping, int ready);

// Detaches this (forked) process from the caller: a session of its own, 0-2 on `null` (an open
// /dev/null, closed here), every descriptor it inherited from the caller closed (dlock opens all
// of its own close-on-exec, so one without that flag came with the caller's exec), and "/" as its
// working directory, so that it pins neither the caller's directory nor its mount.
void detach_from_caller(int null);

} // namespace dlock::app
