#include "app/acquire.hpp"

#include "app/forget.hpp"
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
#include "util/text.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace dlock::app {
namespace {

// How long `dlock release` waits for the keeper's answer: its release retries an unreachable
// Redis for a few seconds, each try bounded by the command timeout.
constexpr Millis kKeeperAnswerWait{30'000};
// How long a keeper may take to say whom it keeps a hold for (it answers at once), and to say
// it holds and guards after the fork.
constexpr Millis kOwnerQueryWait{2'000};
constexpr Millis kKeeperStartWait{10'000};
// How many of the holds listed in $DLOCK_HOLD a new hold joins at most.
constexpr size_t kMaxHolds = 64;

// The holds of this owner that $DLOCK_HOLD lists already (an earlier acquire of the same
// script), oldest first: the new hold joins them, so `dlock release` releases every one. Holds
// whose keeper is gone, or kept for another process (inherited from a parent script), are left.
std::string holds_of(pid_t owner) {
    std::string kept;
    const auto listed = listed_holds(getenv("DLOCK_HOLD"));
    // The newest few: a script holds a handful at once, and each is a question to a keeper.
    const size_t from = listed.size() > kMaxHolds ? listed.size() - kMaxHolds : 0;
    for (size_t i = from; i < listed.size(); ++i) {
        const std::string& hold = listed[i];
        if (!process::valid_hold_id(hold))
            continue;
        const auto holder = process::ask_holder(hold, kOwnerQueryWait);
        if (holder && *holder && (*holder)->owner == owner)
            kept += hold + " ";
    }
    return kept;
}

// What the hold is told as: the variables of a `dlock run` command (export_leases sets them
// in this process's environment), the holds and the keeper.
HoldVariables hold_variables(const std::string& holds, pid_t keeper) {
    HoldVariables variables;
    for (const char* name : {"DLOCK_NAME", "DLOCK_OWNER", "DLOCK_HELD", "DLOCK_FENCING_TOKEN",
                             "DLOCK_FENCING_TOKENS", "DLOCK_TTL_MS"})
        if (const char* value = getenv(name))
            variables.emplace_back(name, value);
    variables.emplace_back("DLOCK_HOLD", holds);
    variables.emplace_back("DLOCK_KEEPER_PID", std::to_string(keeper));
    return variables;
}

// The names `owners` re-enters: held by an outer hold of the script already.
std::vector<std::string> reentered(const RunOptions& options, const RunOwners& owners) {
    std::vector<std::string> names;
    for (const auto& name : options.names)
        if (owners.inherited.owner_of(name))
            names.push_back(name);
    return names;
}

// The owner of the hold: `--pid`, else the script. Refused when a lost lease could not stop it
// (another user's process) or would end a login session (an interactive shell, or a process
// in such a shell's group).
Result<process::Owner> open_owner(std::optional<pid_t> given, pid_t script) {
    if (!given && script == 1 && !process::in_container_pid_namespace())
        return usage_error("the process that started dlock acquire has exited already: there is "
                           "no owner to keep the lock for (give --pid PID)");
    TRY_ASSIGN(auto owner, process::Owner::open(given.value_or(script)));
    for (const pid_t shell : {owner.pid(), owner.group()})
        if (process::interactive_shell(shell))
            return usage_error(fmt::format(
                "acquire would keep the lock for the interactive shell {}: a lost lease stops "
                "the owner's process group, your login session; use dlock run NAME -- COMMAND "
                "at a prompt, and dlock acquire in scripts",
                shell));
    if (!owner.can_signal())
        return usage_error(fmt::format(
            "acquire runs as uid {} and cannot signal process {}, the owner of the hold: a lost "
            "lease could not stop it; run dlock acquire as that process's user (not through "
            "runuser, sudo -u or su), or use dlock run",
            geteuid(), owner.pid()));
    return owner;
}

// Waits for the keeper to say it holds and guards the owner's group: its pid, or why not (it
// released the leases then).
Result<pid_t> await_keeper(pid_t keeper, int ready) {
    std::string line;
    char c;
    pollfd p{ready, POLLIN, 0};
    const auto deadline = std::chrono::steady_clock::now() + kKeeperStartWait;
    while (line.size() < 4096 && !line.ends_with('\n')) {
        const auto left = std::chrono::ceil<Millis>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0 ||
            read(ready, &c, 1) != 1)
            break;
        line += c;
    }
    close(ready);
    if (line == "ok\n")
        return keeper;
    return fail(Fault::internal,
                fmt::format("the keeper (process {}) could not start: {}", keeper,
                            line.empty() ? "it did not say it holds the lock" : one_line(line)));
}

// Forks the keeper, which never returns here; the keeper's pid. The stop signals are blocked
// from before the fork on: the keeper inherits them blocked and takes them through its
// signalfd, so none can end it between fork() and its setup with the lock still held. This
// process keeps them blocked too: it only prints the hold, and then ends.
Result<pid_t> start_keeper(const Keeping& keeping) {
    // Opened here, where a failure can still be reported: the keeper must not keep the caller's
    // stdout (a `$(...)` would never return).
    const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    int ready[2];
    if (null < 0 || pipe2(ready, O_CLOEXEC) != 0) {
        const int error = errno;
        if (null >= 0)
            close(null);
        return fail(Fault::internal, fmt::format("cannot start the keeper: {}", strerror(error)));
    }
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
        for (int fd : {null, ready[0], ready[1]})
            close(fd);
        return fail(Fault::internal,
                    fmt::format("cannot start the keeper: fork: {}", strerror(error)));
    }
    if (pid == 0) {
        close(ready[0]);
        detach_from_caller(null);
        keep(keeping, ready[1]);
    }
    for (int fd : {null, ready[1], keeping.listener})
        close(fd);
    return await_keeper(pid, ready[0]);
}

// Prints the hold and ends this process, leaving the Redis connections to the keeper (a
// destructor would close a TLS session under it). Output that cannot be written: nobody will
// know the hold, so the keeper is asked to release it, as `dlock release` would.
[[noreturn]] void hand_over(const std::string& holds, const std::string& hold, pid_t keeper,
                            HoldFormat format) {
    out::write(format_hold(hold_variables(holds, keeper), format));
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

Result<int> acquire_leases(lock::Store& store, const Target& target, AcquireOptions& options) {
    RunOptions& run = options.run;
    TRY(check_offered(store, run));
    // Before anything is written to the store: a connection per server, twice.
    TRY(check_fd_budget(kAcquireFds + 2 * (store.servers() - 1)));
    // Opened before the acquire: an owner that dies meanwhile is seen by the keeper.
    const pid_t script = process::calling_script(process::Output::captured);
    TRY_ASSIGN(const auto owner, open_owner(options.owner, script));
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
    auto [lease_backend, factory] =
        run.compat ? store.compat_leases(*run.compat) : store.leases(0, self, run.ttl);
    lock::Backend& backend = *lease_backend;
    lock::LeaseSet leases(std::move(factory), run.ttl, run.kill_after, lock::kWaiterHeartbeat);
    // A signal that ends a wait (`timeout 10 dlock acquire -w 1m x`) must still end the
    // `eval "$(...)"` of the script: `exit 128+N` first (cli/main.cpp says it for the rest).
    const auto on_signal = [format = options.format](int signal) {
        if (format == HoldFormat::sh)
            out::write(fmt::format("exit {}\n", 128 + signal));
        out::flush();
    };
    TRY_ASSIGN(const auto refused,
               take_leases(backend, leases, target, run, owners, self, on_signal, true));
    if (refused)
        return *refused;
    export_leases(run, owners, leases);
    const std::string hold = process::new_hold_id();
    const std::string holds = holds_of(owner.pid()) + hold;
    auto keeper = process::listen_for_hold(hold).and_then([&](int listener) {
        return start_keeper({backend, leases, run, self, owner, script, listener,
                             reentered(run, owners), run.ephemeral ? &store : nullptr,
                             target.prefix});
    });
    if (!keeper) {
        leases.release_all(backend);
        return tl::unexpected(keeper.error());
    }
    hand_over(holds, hold, *keeper, options.format);
}

} // namespace

Result<int> acquire(lock::Store& store, const Target& target, AcquireOptions options) {
    auto status = acquire_leases(store, target, options);
    // Held, it never returns (its keeper forgets the names after the release); refused, a
    // skip's records are forgotten once the name is free.
    if (options.run.ephemeral && (status || status.error().fault != Fault::unavailable))
        forget_if_free(store, target.prefix, options.run.names);
    return status;
}

std::vector<std::string> listed_holds(const char* text) {
    std::vector<std::string> holds;
    std::string_view rest = text ? text : "";
    while (!rest.empty()) {
        const size_t space = std::min(rest.find(' '), rest.size());
        if (space > 0)
            holds.emplace_back(rest.substr(0, space));
        rest.remove_prefix(std::min(space + 1, rest.size()));
    }
    return holds;
}

namespace {

// The holds of `holds` (newest first) that the script `script` may release from the
// environment: kept for it (or for this very process, which a shell ran by exec), or acquired
// by it. The first one kept for another process, if any, in `inherited`.
std::vector<std::string> own_holds(const std::vector<std::string>& holds, pid_t script,
                                   std::string& inherited) {
    std::vector<std::string> own;
    for (auto it = holds.rbegin(); it != holds.rend(); ++it) {
        const auto holder = process::ask_holder(*it, kOwnerQueryWait);
        if (!holder || !*holder)
            continue; // gone (released earlier), or not answering: the release would say so
        const auto [owner, acquirer] = **holder;
        if (owner == script || acquirer == script || owner == getpid())
            own.push_back(*it);
        else if (inherited.empty())
            inherited = *it;
    }
    return own;
}

// Asks the keeper of `hold` to release it; its status, reported on stderr when not 0.
Result<int> release_one(const std::string& hold, pid_t script, std::optional<int> status) {
    TRY_ASSIGN(const auto answer, process::ask_keeper(hold, kKeeperAnswerWait, script, status));
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

} // namespace

Result<int> release_holds(const std::vector<std::string>& holds, bool inherited,
                          std::optional<int> status) {
    if (!inherited)
        return release_one(holds.front(), 0, status);
    const pid_t script = process::calling_script(process::Output::passed_on);
    if (holds.size() == 1) // the keeper checks whose it is: no need to ask first
        return release_one(holds.front(), script, status);
    std::string kept_for_another;
    const auto own = own_holds(holds, script, kept_for_another);
    if (own.empty()) // the keeper refuses (64, saying why), or none answers (76)
        return release_one(kept_for_another.empty() ? holds.back() : kept_for_another, script,
                           status);
    int worst = exit_code::ok;
    for (const auto& hold : own) {
        const auto released = release_one(hold, script, status);
        if (!released)
            log::error("{}", released.error().message);
        const int code = released ? *released : exit_code::of(released.error().fault);
        if (worst == exit_code::ok)
            worst = code;
    }
    return worst;
}

} // namespace dlock::app
