#include "cli/latch_command.hpp"

#include "app/latch.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_help.hpp"
#include "cli/numbers.hpp"
#include "lock/keys.hpp"
#include "util/duration.hpp"
#include "util/exit_codes.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock::cli {

LatchCommand::LatchCommand(CLI::App& parent) {
    app_ = parent.add_subcommand("latch", "Count-down latches: wait until N things are done");
    app_->require_subcommand(1);
    app_->footer(exit_status_help(HelpPage::latch));

    create_ = app_->add_subcommand(
        "create", "Create latch NAME at COUNT (the same COUNT again refreshes its TTL; a new "
                  "round after it reached zero needs --reset)");
    create_->add_option("NAME", name_, "latch name")->required();
    create_->add_option("COUNT", count_, "initial count (1 to 1000000000)")->required();
    create_->add_option("--ttl", ttl_, "lifetime of the latch, refreshed by create (default 24h)")
        ->option_text("DURATION");
    create_->add_flag("--reset", reset_,
                      "start a new round at COUNT, finished or not (waiters then wait for it)");

    count_down_ = app_->add_subcommand("count-down", "Count latch NAME down by N (default 1)");
    count_down_->add_option("NAME", name_, "latch name")->required();
    count_down_n_ = count_down_->add_option("N", count_, "how much to count down (default 1)");

    wait_ = app_->add_subcommand("wait", "Wait until latch NAME reaches zero");
    wait_->add_option("NAME", name_, "latch name")->required();
    wait_for_option_ =
        wait_
            ->add_option("-w,--wait", wait_for_,
                         "give up after DURATION (default: until zero or the latch expires)")
            ->option_text("DURATION");
    wait_
        ->add_option("-E,--timeout-exit-code", timeout_exit_code_,
                     "exit status on timeout (default 75; 0-255)")
        ->option_text("N");

    status_ = app_->add_subcommand("status", "Show latch NAME: count, initial, TTL, waiters");
    status_->add_option("NAME", name_, "latch name")->required();
    status_->add_flag("--json", json_, "print JSON instead of a table");
    for (auto* sub : {create_, count_down_, wait_, status_})
        sub->footer(exit_status_help(HelpPage::latch));
}

Result<LatchCommand::Plan> LatchCommand::plan(const GlobalOptions& globals) const {
    // Everything is validated before connecting: bad input writes nothing to Redis.
    TRY(lock::validate_name(name_));

    Plan p{{}, {name_}, {name_}, {name_, std::nullopt, exit_code::busy}};
    if (create_->parsed()) {
        TRY_ASSIGN(p.create.count, app::parse_latch_count(count_, "COUNT"));
        auto ttl = parse_duration(ttl_);
        if (!ttl)
            return usage_error("--ttl: " + ttl.error().message);
        if (*ttl < Millis(1000) || *ttl > app::kMaxLatchTtl)
            return usage_error(fmt::format("--ttl must be from 1s to 365d, not {}", quote(ttl_)));
        p.create.ttl = *ttl;
        p.create.reset = reset_;
    } else if (count_down_->parsed()) {
        if (count_down_n_->count() > 0) {
            TRY_ASSIGN(p.count_down.n, app::parse_latch_count(count_, "N"));
        }
    } else if (wait_->parsed()) {
        if (wait_for_option_->count() > 0) { // -w '' is an error, not "no limit"
            auto limit = parse_wait_duration(wait_for_);
            if (!limit)
                return usage_error("--wait: " + limit.error().message);
            p.wait.wait = *limit;
        }
        TRY_ASSIGN(p.wait.timeout_exit_code,
                   parse_exit_status(timeout_exit_code_, "--timeout-exit-code"));
    }

    TRY_ASSIGN(p.target, globals.resolve());
    return p;
}

Result<int> LatchCommand::run(const Plan& p) {
    const auto store = store_for(p.target);
    if (create_->parsed())
        return app::latch_create(*store, p.target, p.create);
    if (count_down_->parsed())
        return app::latch_count_down(*store, p.target, p.count_down);
    if (wait_->parsed())
        return app::latch_wait(*store, p.target, p.wait);
    return app::latch_status(*store, p.target, {name_, json_});
}

} // namespace dlock::cli
