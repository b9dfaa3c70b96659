#include "app/acquire.hpp"

#include "app/keeper.hpp"
#include "app/run_environment.hpp"
#include "app/run_history.hpp"
#include "app/run_report.hpp"
#include "app/take_leases.hpp"
#include "lock/acquire_all.hpp"
#include "lock/describe.hpp"
#include "lock/self_info.hpp"
#include "process/calling_script.hpp"
#include "process/fd_budget.hpp"
#include "process/hold_channel.hpp"
#include "util/exit_codes.hpp"
#include "util/log.hpp"
#include "util/output.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace dlock::app {
namespace {

// How long `dlock release` waits for the keeper's answer: its release retries an unreachable
// Redis for a few seconds, each try bounded by the command timeout.
constexpr Millis kKeeperAnswerWait{30'000};

// What the hold is told as: the variables of a `dlock run` command (export_leases sets them
// in this process's environment), the hold and the keeper.
HoldVariables hold_variables(const std::string& hold, pid_t keeper) {
    HoldVariables variables;
    for (const char* name : {"DLOCK_NAME", "DLOCK_OWNER", "DLOCK_HELD", "DLOCK_FENCING_TOKEN",
                             "DLOCK_FENCING_TOKENS", "DLOCK_TTL_MS"})
        if (const char* value = getenv(name))
            variables.emplace_back(name, value);
    variables.emplace_back("DLOCK_HOLD", hold);
    variables.emplace_back("DLOCK_KEEPER_PID", std::to_string(keeper));
    return variables;
}

// Forks the keeper, which never returns here; the keeper's pid. The stop signals are blocked
// from before the fork on: the keeper inherits them blocked and takes them through its
// signalfd, so none can end it between fork() and its setup with the lock still held. This
// process keeps them blocked too: it only prints the hold, and then ends.
Result<pid_t> start_keeper(const Keeping& keeping) {
    // Opened here, where a failure can still be reported: the keeper must not keep the caller's
    // stdout (a `$(...)` would never return).
    const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0)
        return fail(Fault::internal,
                    fmt::format("cannot start the keeper: /dev/null: {}", strerror(errno)));
    sigset_t stops, before;
    sigemptyset(&stops);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT})
        sigaddset(&stops, s);
    sigprocmask(SIG_BLOCK, &stops, &before);
    keeping.leases.pause_renewals(); // a thread does not survive fork(): the keeper starts its own
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        sigprocmask(SIG_SETMASK, &before, nullptr);
        close(null);
        return fail(Fault::internal,
                    fmt::format("cannot start the keeper: fork: {}", strerror(error)));
    }
    if (pid == 0) {
        detach_from_caller(null);
        keep(keeping);
    }
    close(null);
    close(keeping.listener);
    return pid;
}

// Prints the hold and ends this process, leaving the Redis connections to the keeper (a
// destructor would close a TLS session under it). Output that cannot be written: nobody will
// know the hold, so the keeper is asked to release it, as `dlock release` would.
[[noreturn]] void hand_over(const std::string& hold, pid_t keeper, HoldFormat format) {
    out::write(format_hold(hold_variables(hold, keeper), format));
    const bool written = out::flush();
    const int status = out::finish(0);
    if (!written) {
        const auto answer = process::ask_keeper(hold, kKeeperAnswerWait);
        if (!answer)
            log::error("the hold could not be printed, and its keeper (process {}) could not be "
                       "asked to release it: {}; the lock expires if the owner exits",
                       keeper, answer.error().message);
        _exit(status != 0 ? status : exit_code::internal);
    }
    log::info("holding; kept by process {}", keeper);
    _exit(status);
}

} // namespace

Result<int> acquire(lock::Store& store, const Target& target, AcquireOptions options) {
    RunOptions& run = options.run;
    TRY(check_offered(store, run));
    // Before anything is written to the store: a connection per server, twice.
    TRY(check_fd_budget(kAcquireFds + 2 * (store.servers() - 1)));
    // Opened before the acquire: an owner that dies meanwhile is seen by the keeper.
    const pid_t script = process::calling_script();
    if (!options.owner && script == 1 && !process::in_container_pid_namespace())
        return usage_error("the process that started dlock acquire has exited already: there is "
                           "no owner to keep the lock for (give --pid PID)");
    TRY_ASSIGN(const auto owner, process::Owner::open(options.owner.value_or(script)));
    auto argv = owner.argv();
    for (auto& word : argv) // a `sh -c` script: shown on one line, in messages and status
        for (char& c : word)
            if (c == '\n' || c == '\r' || c == '\t')
                c = ' ';
    run.command_line =
        argv.empty() ? fmt::format("process {}", owner.pid()) : lock::command_line(argv);
    const auto owners = RunOwners::resolve(run.names);
    lock::HolderInfo self = self_info(run.command_line);
    self.pid = owner.pid();
    auto [lease_backend, factory] = store.leases(0, self, run.ttl);
    lock::Backend& backend = *lease_backend;
    lock::LeaseSet leases(std::move(factory), run.ttl, run.kill_after, lock::kWaiterHeartbeat);
    TRY_ASSIGN(const auto refused, take_leases(backend, leases, target, run, owners, self));
    if (refused)
        return *refused;
    export_leases(run, owners, leases);
    const std::string hold = process::new_hold_id();
    auto keeper = process::listen_for_hold(hold).and_then([&](int listener) {
        return start_keeper({backend, leases, run, self, owner, script, listener});
    });
    if (!keeper) {
        leases.release_all(backend);
        return tl::unexpected(keeper.error());
    }
    hand_over(hold, *keeper, options.format);
}

Result<int> release_hold(const std::string& hold, bool inherited) {
    TRY_ASSIGN(const auto answer, process::ask_keeper(hold, kKeeperAnswerWait,
                                                      inherited ? process::calling_script() : 0));
    if (!answer)
        return fail(Fault::lease_lost,
                    fmt::format("hold {} was released already or its keeper died; the lease is "
                                "not held",
                                hold));
    if (answer->status == 0)
        log::info("{}", answer->message);
    else
        log::error("{}", answer->message);
    return answer->status;
}

} // namespace dlock::app
