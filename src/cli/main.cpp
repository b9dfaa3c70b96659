#include "cli/main.hpp"

#include "cli/parser.hpp"
#include "util/log.hpp"

#include <csignal>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

int main(int argc, char** argv) {
    // hiredis writes to its socket with write(2): a dropped connection must be an error
    // reply, not a fatal SIGPIPE. The command gets SIGPIPE back to default before exec.
    std::signal(SIGPIPE, SIG_IGN);

    // Everything after the first "--" is the command, verbatim; CLI11 sees what precedes it.
    std::vector<std::string> args, command;
    bool in_command = false;
    for (int i = 1; i < argc; ++i) {
        if (!in_command && std::strcmp(argv[i], "--") == 0)
            in_command = true;
        else
            (in_command ? command : args).emplace_back(argv[i]);
    }

    // Only the subcommand named is built when that parses; anything else (help and version
    // too) gets the full parser, so what is printed is about the whole command line.
    const std::string_view only = named_subcommand(args);
    auto parser = std::make_unique<Parser>(only);
    auto stop = parser->parse(args, !only.empty());
    if (stop && !only.empty()) {
        parser = std::make_unique<Parser>();
        stop = parser->parse(args);
    }
    if (stop)
        return *stop;
    if (auto loaded = parser->globals().load(); !loaded) {
        log::error("{}", loaded.error().message);
        return loaded.error().exit_code;
    }
    Subcommand* subcommand = parser->parsed();
    return subcommand ? subcommand->execute(parser->globals(), command) : exit_code::usage;
}

} // namespace dlock::cli
