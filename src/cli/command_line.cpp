#include "cli/command_line.hpp"

#include "util/log.hpp"

#include <string_view>

namespace dlock::cli {

CommandLine::CommandLine(const std::vector<std::string>& words) {
    bool in_command = false;
    for (const auto& word : words) {
        if (!in_command && word == "--")
            in_command = true;
        else
            (in_command ? command_ : args_).push_back(word);
    }
}

std::optional<int> CommandLine::prepare() {
    // Only the subcommand named is built when that parses; anything else (help and version
    // too) gets the full parser, so what is printed is about the whole command line.
    const std::string_view only = named_subcommand(args_);
    parser_ = std::make_unique<Parser>(only);
    auto stop = parser_->parse(args_, !only.empty());
    if (stop && !only.empty()) {
        parser_ = std::make_unique<Parser>();
        stop = parser_->parse(args_);
    }
    if (stop)
        return stop;
    if (auto loaded = parser_->globals().load(); !loaded) {
        log::error("{}", loaded.error().message);
        return loaded.error().exit_code;
    }
    subcommand_ = parser_->parsed();
    if (subcommand_ == nullptr) { // CLI11 requires one; this is only a safety net
        log::error("missing subcommand (see dlock --help)");
        return exit_code::usage;
    }
    return std::nullopt;
}

int CommandLine::execute() {
    return subcommand_->execute(parser_->globals(), command_);
}

Result<void> CommandLine::check() const {
    return subcommand_->check(parser_->globals(), command_);
}

} // namespace dlock::cli
