#include "cli/run_options.hpp"

#include "cli/compat_option.hpp"
#include "cli/once_per_options.hpp"
#include "lock/describe.hpp"
#include "lock/keys.hpp"
#include "util/log.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace dlock::cli {
namespace {

// Every name validated; a name given twice is taken once (the names are a set: `run a a` is
// `run a`), in the order of first appearance.
Result<std::vector<std::string>> distinct_names(const std::vector<std::string>& given) {
    for (const auto& text : given)
        TRY(lock::validate_name(text));
    return lock::distinct(given);
}

// What to exec: the command after "--", or -c's STRING under /bin/sh.
Result<void> parse_command(const RunArgs& args, app::RunOptions& o) {
    const auto shell_command = args.value("--command");
    if (args.kind == RunKind::acquire) {
        if (!args.command.empty() || shell_command)
            return usage_error("acquire takes no command; use dlock run NAME -- COMMAND to run "
                               "one under the lock");
        return {};
    }
    if (shell_command) {
        if (shell_command->empty())
            return usage_error("-c: the shell command must not be empty");
        if (!args.name_after_shell_command.empty())
            return usage_error(fmt::format(
                "'{}' after -c STRING is not an argument of the command (as with sh -c) but one "
                "more lock name: give every name before -c, and the command's arguments after "
                "--: dlock run NAME... -c STRING -- ARG...",
                args.name_after_shell_command));
        // `--`: a STRING starting with - or + is the command, not options of sh's (`-e` would
        // make sh read its commands from stdin). dash and bash both take it.
        o.argv = {"/bin/sh", "-c", "--", std::string(*shell_command), "sh"};
        o.argv.insert(o.argv.end(), args.command.begin(), args.command.end());
        o.command_line = lock::command_line({std::string(*shell_command)});
        return {};
    }
    if (args.command.empty()) {
        const bool semaphore = args.kind == RunKind::semaphore;
        return usage_error(fmt::format("missing command: use {0} {1} -- COMMAND [ARG...] or "
                                       "{0} {1} -c 'shell command'",
                                       semaphore ? "sem run" : "run",
                                       semaphore ? "NAME" : "NAME..."));
    }
    o.argv = args.command;
    o.command_line = lock::command_line(args.command);
    return {};
}

// The options given together that cannot be, and a required one missing (which CLI11 finds
// first on a command line).
Result<void> check_given(const RunArgs& args) {
    for (const auto& row : run_option_table()) {
        if (row.required && row.taken_by(args.kind) && !args.has(row.long_name()))
            return usage_error(fmt::format("{} is required", row.long_name()));
        if (!row.excludes.empty() && args.has(row.long_name()) && args.has(row.excludes))
            return usage_error(fmt::format("{} excludes {}", row.excludes, row.long_name()));
    }
    if (args.has("--wait") && args.has("--timeout"))
        return usage_error(
            "-w/--wait and --timeout are the same option (--timeout is flock's name): give one");
    return {};
}

} // namespace

void RunArgs::set(std::string_view long_name, std::string value) {
    for (auto& [name, text] : given)
        if (name == long_name) {
            text = std::move(value);
            return;
        }
    given.emplace_back(std::string(long_name), std::move(value));
}

std::optional<std::string_view> RunArgs::value(std::string_view long_name) const {
    for (const auto& [name, text] : given)
        if (name == long_name)
            return text;
    return std::nullopt;
}

Result<app::RunOptions> parse_run_options(const RunArgs& args) {
    app::RunOptions o;
    TRY_ASSIGN(o.names,
               args.has("--compat") ? compat_names(args.names) : distinct_names(args.names));
    TRY(parse_command(args, o));
    TRY(check_given(args));
    // In table order: a row's check may read what the rows above it set (--kill-after the TTL).
    for (const auto& row : run_option_table())
        if (const auto value = args.value(row.long_name()); value && row.apply != nullptr)
            TRY(row.apply(*value, o));
    TRY(parse_once_per(args, o));
    TRY(check_compat(args.kind, o));
    if (o.ephemeral && o.once_per)
        return usage_error("--ephemeral: not with --once-per (the slot done is what --once-per "
                           "keeps, and --ephemeral would forget it)");
    if (o.ephemeral && o.compat)
        return usage_error("--ephemeral: not with --compat (the lease is the other side's key, "
                           "which dlock does not forget)");
    return o;
}

Result<void> check_reply_timeout(Millis ttl, const app::Target& target,
                                 const config::Setting& timeout) {
    const Millis reply = target.redis.command_timeout;
    if (!target.quorum.empty() || ttl >= 2 * reply)
        return {};
    if (ttl < reply && timeout.origin != "default")
        return usage_error(fmt::format("--ttl {} is shorter than --redis-timeout {} ({}): one "
                                       "slow reply to a renewal would lose the lease; give "
                                       "--ttl {} or more, or a shorter --redis-timeout",
                                       format_duration(ttl), format_duration(reply), timeout.origin,
                                       format_duration(2 * reply)));
    const auto level = isatty(STDERR_FILENO) ? log::Level::warn : log::Level::info;
    log::at(level,
            "--ttl {} is less than twice --redis-timeout {}: one slow reply to a renewal could "
            "lose the lease (give --redis-timeout {} or less)",
            format_duration(ttl), format_duration(reply), format_duration(ttl / 2));
    return {};
}

} // namespace dlock::cli
