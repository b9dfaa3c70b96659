#pragma once

#include "cli/global_options.hpp"
#include "lock/store.hpp"

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

namespace dlock::cli {

// Validates the lock `names`, then resolves the global options; both before anything talks to
// Redis, so bad input changes nothing.
Result<app::Target> target_for(const GlobalOptions& globals, const std::vector<std::string>& names);

// The store of `target` (one deployment or a Redlock quorum), handed to the use case: it
// connects on first use.
std::unique_ptr<lock::Store> store_for(const app::Target& target);

// The shape of a subcommand that runs no command of its own: `Command::plan` finds every usage
// error before anything is sent (so check() is plan() alone, for the parser's tests), then
// `Command::run` does the work with the plan.
template <typename Command>
class PlannedCommand {
  public:
    CLI::App* app() const { return app_; }
    Result<void> check(const GlobalOptions& globals) const {
        return self().plan(globals).map([](const auto&) {});
    }
    Result<int> execute(const GlobalOptions& globals) {
        TRY_ASSIGN(const auto plan, self().plan(globals));
        return self().run(plan);
    }

  protected:
    CLI::App* app_ = nullptr;

  private:
    const Command& self() const { return static_cast<const Command&>(*this); }
    Command& self() { return static_cast<Command&>(*this); }
};

} // namespace dlock::cli
