#include "cli/command_line.hpp"

#include "cli/dynamic_needs.hpp"
#include "cli/missing_separator.hpp"
#include "process/dynamic_handover.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"
#include "util/static_glibc.hpp"

#include <string_view>

namespace dlock::cli {

CommandLine::CommandLine(const std::vector<std::string>& words) {
    for (const auto& word : words) {
        if (!separated_ && word == "--")
            separated_ = true;
        else
            (separated_ ? command_ : args_).push_back(word);
    }
}

Result<bool> CommandLine::prepare() {
    // `dlock --version` alone needs no parser, which would cost more than the rest of the
    // start-up: what the full parser would print.
    if (!separated_ && args_.size() == 1 && args_[0] == "--version") {
        out::write(std::string(kVersionLine) + "\n");
        return false;
    }
    // Only the subcommand named, and the global options the line may use, are built when that
    // parses; anything else (help and version too) gets the full parser, so what is printed is
    // about the whole command line.
    const std::string_view only = named_subcommand(args_);
    parser_ = std::make_unique<Parser>(only, &args_);
    auto parsed = parser_->parse(args_, !only.empty());
    if ((!parsed || !*parsed) && !only.empty()) {
        parser_ = std::make_unique<Parser>();
        parsed = parser_->parse(args_);
    }
    if (parsed && !*parsed)
        return parsed;
    // Without "--" (or -c) a run has no command and fails anyway: its message can say how to
    // write it, whatever else is wrong.
    const auto hint = separated_ ? std::nullopt : missing_separator(parser_->app(), args_);
    // `dlock acquire -- NAME`: what went wrong is the "--", not the NAME it took away.
    if (!parsed && separated_ && only == "acquire")
        return usage_error("acquire takes no command; use dlock run NAME -- COMMAND to run one "
                           "under the lock");
    if (!parsed)
        return hint ? usage_error(*hint) : parsed;
    TRY(parser_->globals().load());
    if (hint)
        return usage_error(*hint);
    subcommand_ = parser_->parsed();
    if (subcommand_ == nullptr) // CLI11 requires one; this is only a safety net
        return usage_error("missing subcommand (see dlock --help)");
    return true;
}

Result<int> CommandLine::execute() {
    return subcommand_->execute(parser_->globals(), command_);
}

Result<void> CommandLine::check() const {
    return subcommand_->check(parser_->globals(), command_);
}

Result<int> CommandLine::run(char* const* argv) {
    TRY_ASSIGN(const bool ready, prepare());
    if (!ready)
        return exit_code::ok; // help or version was printed
    // Settings are loaded, nothing has been sent to Redis yet: the moment to hand over. URLs
    // that do not parse are left to the subcommand, which reports them.
    if (is_static_build())
        if (auto members = parser_->globals().deployments())
            if (auto need = app::dynamic_build_need(*members))
                return tl::unexpected(process::hand_over_to_dynamic_build(argv, *need));
    return execute();
}

bool CommandLine::output_is_evaluated() const {
    if (named_subcommand(args_) != "acquire")
        return false;
    for (size_t i = 0; i < args_.size(); ++i)
        if (args_[i] == "--format=json" ||
            (args_[i] == "--format" && i + 1 < args_.size() && args_[i + 1] == "json"))
            return false;
    return true;
}

} // namespace dlock::cli
