#include "cli/missing_separator.hpp"

#include "cli/app_tree.hpp"
#include "cli/redactor.hpp"

#include <cstdlib>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace dlock::cli {
namespace {

bool is_executable_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
}

// A program the shell would run for `word`: a path to an executable file, or one on PATH.
bool names_program(const std::string& word) {
    if (word.find('/') != std::string::npos)
        return is_executable_file(word);
    const char* path = std::getenv("PATH");
    for (std::string_view dirs = path ? path : ""; !dirs.empty();) {
        const auto colon = dirs.find(':');
        const auto dir = dirs.substr(0, colon);
        dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
        if (!dir.empty() && is_executable_file(std::string(dir) + "/" + word))
            return true;
    }
    return false;
}

// The subcommand `run` (or `sem run`) and the index of the first word after its name; nullptr
// when the command line names another one.
std::pair<const CLI::App*, size_t> find_run(const CLI::App& top,
                                            const std::vector<std::string>& args) {
    const CLI::App* app = &top;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].starts_with('-') && args[i].size() > 1) {
            if (takes_separate_value(*app, args[i]))
                ++i;
            continue;
        }
        app = find_subcommand(*app, args[i]);
        if (app == nullptr || app->get_name() == "run")
            return {app, i + 1};
    }
    return {nullptr, 0};
}

// Where run's -c is among `args` from `start` on; npos when it is not there.
size_t shell_option_at(const CLI::App& run, const std::vector<std::string>& args, size_t start) {
    const auto* shell = run.get_option_no_throw("-c");
    for (size_t i = start; shell != nullptr && i < args.size(); ++i)
        if (args[i].starts_with('-') &&
            run.get_option_no_throw(std::string(option_name(args[i]))) == shell)
            return i;
    return std::string::npos;
}

// The index of the word the command starts at (see missing_separator), or nullopt.
std::optional<size_t> command_start(const CLI::App& run, const std::vector<std::string>& args,
                                    size_t start) {
    const size_t shell = shell_option_at(run, args, start);
    size_t names = 0, last = 0; // the positional words so far, and where the last one is
    for (size_t i = start; i < args.size(); ++i) {
        // "job bash -c 'sleep 2'": the -c of the program just before it, not run's.
        if (i == shell)
            return names > 1 && last + 1 == i && names_program(args[last]) ? std::optional(last)
                                                                           : std::nullopt;
        if (args[i].starts_with('-') && args[i].size() > 1) {
            if (!is_option_of(run, args[i])) { // "./backup.sh --full": the path's own option
                const bool path =
                    names > 1 && last + 1 == i && args[last].find('/') != std::string::npos;
                return path ? std::optional(last) : std::nullopt;
            }
            if (takes_separate_value(run, args[i]))
                ++i;
            continue;
        }
        if (names++ > 0 && shell == std::string::npos && names_program(args[i]))
            return i;
        last = i;
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> missing_separator(const CLI::App& top,
                                             const std::vector<std::string>& args) {
    const auto [run, start] = find_run(top, args);
    if (run == nullptr)
        return std::nullopt;
    const auto command = command_start(*run, args, start);
    if (!command)
        return std::nullopt;
    const Redactor redactor(args);
    std::string line = "dlock";
    for (size_t i = 0; i < args.size(); ++i)
        line += (i == *command ? " -- " : " ") + redactor.word(args[i]);
    return "missing '--' before the command: " + line;
}

} // namespace dlock::cli
