#include "cli/latch_command.hpp"

#include "app/latch.hpp"
#include "lock/keys.hpp"
#include "util/duration.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

namespace dlock::cli {
namespace {

constexpr const char* kLatchExitStatus = R"(
Exit status:
  0        created or refreshed; counted down; the count is zero (wait); the latch exists (status)
  64       usage error (bad option, name, count, duration; create with a different COUNT)
  66       no such latch (never created, or its TTL ran out)
  69       Redis unreachable, or authentication failed
  70       internal error
  75       wait timed out (change with -E))";

int usage(const std::string& message) {
    log::error("{}", message);
    return exit_code::usage;
}

} // namespace

LatchCommand::LatchCommand(CLI::App& parent) {
    app_ = parent.add_subcommand("latch", "Count-down latches: wait until N things are done");
    app_->require_subcommand(1);
    app_->footer(kLatchExitStatus);

    create_ = app_->add_subcommand(
        "create", "Create latch NAME at COUNT; with the same COUNT again, only refresh its TTL");
    create_->add_option("NAME", name_, "latch name")->required();
    create_->add_option("COUNT", count_, "initial count (1 to 1000000000)")->required();
    create_->add_option("--ttl", ttl_, "lifetime of the latch, refreshed by create (default 24h)");

    count_down_ = app_->add_subcommand("count-down", "Count latch NAME down by N (default 1)");
    count_down_->add_option("NAME", name_, "latch name")->required();
    count_down_->add_option("N", count_, "how much to count down (default 1)");

    wait_ = app_->add_subcommand("wait", "Wait until latch NAME reaches zero");
    wait_->add_option("NAME", name_, "latch name")->required();
    wait_->add_option("-w,--wait", wait_for_,
                      "give up after DURATION (default: until zero or the latch expires)");
    wait_
        ->add_option("-E,--timeout-exit-code", timeout_exit_code_,
                     "exit status on timeout (default 75; 0-255)")
        ->check(CLI::Range(0, 255));

    status_ = app_->add_subcommand("status", "Show latch NAME: count, initial, TTL, waiters");
    status_->add_option("NAME", name_, "latch name")->required();
    status_->add_flag("--json", json_, "print JSON instead of a table");
    for (auto* sub : {create_, count_down_, wait_, status_})
        sub->footer(kLatchExitStatus);
}

int LatchCommand::execute(const GlobalOptions& globals) {
    // Everything is validated before connecting: bad input writes nothing to Redis.
    if (auto name = lock::validate_name(name_); !name)
        return usage(name.error().message);

    app::LatchCreateOptions create{name_};
    app::LatchCountDownOptions count_down{name_};
    app::LatchWaitOptions wait{name_, std::nullopt, timeout_exit_code_};
    if (create_->parsed()) {
        auto count = app::parse_latch_count(count_, "COUNT");
        if (!count)
            return usage(count.error().message);
        create.count = *count;
        auto ttl = parse_duration(ttl_);
        if (!ttl)
            return usage("--ttl: " + ttl.error().message);
        if (*ttl < Millis(1000) || *ttl > app::kMaxLatchTtl)
            return usage(fmt::format("--ttl must be from 1s to 365d, not {}", ttl_));
        create.ttl = *ttl;
    } else if (count_down_->parsed()) {
        if (!count_.empty()) {
            auto n = app::parse_latch_count(count_, "N");
            if (!n)
                return usage(n.error().message);
            count_down.n = *n;
        }
    } else if (wait_->parsed()) {
        if (!wait_for_.empty()) {
            auto limit = parse_wait_duration(wait_for_);
            if (!limit)
                return usage("--wait: " + limit.error().message);
            wait.wait = *limit;
        }
    }

    auto connection = globals.resolve();
    if (!connection) {
        log::error("{}", connection.error().message);
        return connection.error().exit_code;
    }
    if (create_->parsed())
        return app::latch_create(*connection, create);
    if (count_down_->parsed())
        return app::latch_count_down(*connection, count_down);
    if (wait_->parsed())
        return app::latch_wait(*connection, wait);
    return app::latch_status(*connection, {name_, json_});
}

} // namespace dlock::cli
