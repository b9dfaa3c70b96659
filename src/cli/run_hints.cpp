#include "cli/run_hints.hpp"

#include "cli/app_tree.hpp"
#include "cli/run_option_table.hpp"
#include "util/duration.hpp"

#include <array>
#include <cctype>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

struct FlockOption {
    std::string_view short_name;
    std::string_view long_name;
    std::string_view instead;
};

// flock(1)'s options that have no dlock counterpart, and why none is needed.
constexpr std::array kFlockOnly{
    FlockOption{"-o", "--close",
                "the command never holds a lock descriptor: dlock holds the lease in Redis and "
                "keeps it until the command and its process group are done"},
    FlockOption{"-F", "--no-fork",
                "dlock stays as the command's parent: it renews the lease while the command "
                "runs and releases it when the command exits"},
    FlockOption{"-u", "--unlock",
                "release the hold of dlock acquire with dlock release, or break a lock with "
                "dlock release --force NAME"},
};

// The kind of run a chain ends in, if it ends in one.
std::optional<RunKind> run_kind(const std::vector<const CLI::App*>& chain) {
    const std::string path = path_of(chain);
    if (path == "run")
        return RunKind::run;
    if (path == "sem run")
        return RunKind::semaphore;
    if (path == "acquire")
        return RunKind::acquire;
    return std::nullopt;
}

bool names(std::string_view flag, std::string_view name) {
    for (size_t start = 0; start <= flag.size();) {
        const size_t end = std::min(flag.find(',', start), flag.size());
        if (flag.substr(start, end - start) == name)
            return true;
        start = end + 1;
    }
    return false;
}

// "--once-per is not supported for semaphores (sem run): it is an option of dlock run".
std::string not_taken(const RunOptionRow& row, std::string_view given, RunKind kind) {
    std::string takers;
    for (const auto& [other, name] :
         {std::pair{RunKind::run, "dlock run"}, std::pair{RunKind::semaphore, "dlock sem run"},
          std::pair{RunKind::acquire, "dlock acquire"}})
        if (row.taken_by(other))
            takers += (takers.empty() ? "" : " and ") + std::string(name);
    return fmt::format("{} is not supported {}: it is an option of {}", given,
                       kind == RunKind::semaphore ? "for semaphores (sem run)" : "by acquire",
                       takers);
}

} // namespace

std::optional<std::string> foreign_run_option(const std::vector<const CLI::App*>& chain) {
    const auto kind = run_kind(chain);
    if (!kind)
        return std::nullopt;
    for (const auto& extra : chain.back()->remaining(false)) {
        const std::string_view name = option_name(extra);
        for (const auto& flock : kFlockOnly)
            if (name == flock.short_name || name == flock.long_name)
                return fmt::format("{} is an option of flock(1) that dlock does without: {}", name,
                                   flock.instead);
        for (const auto& row : run_option_table())
            if (!row.taken_by(*kind) && names(row.flag, name))
                return not_taken(row, name, *kind);
    }
    return std::nullopt;
}

std::optional<std::pair<std::string, std::string>>
short_option_typo(const CLI::App& app, const std::vector<std::string>& extras) {
    for (const auto& extra : extras) {
        if (extra.size() != 2 || extra[0] != '-' ||
            !std::isalpha(static_cast<unsigned char>(extra[1])))
            continue;
        const char letter = extra[1];
        const char other = std::islower(static_cast<unsigned char>(letter))
                               ? static_cast<char>(std::toupper(letter))
                               : static_cast<char>(std::tolower(letter));
        const std::string meant{'-', other};
        if (!is_option_of(app, extra) && is_option_of(app, meant))
            return std::pair{extra, meant};
    }
    return std::nullopt;
}

std::optional<std::string> name_taken_as_duration(const std::vector<const CLI::App*>& chain,
                                                  const Redactor& redactor) {
    if (!run_kind(chain))
        return std::nullopt;
    for (const auto& row : run_option_table()) {
        if (row.metavar != "DURATION")
            continue;
        const auto* option = chain.back()->get_option_no_throw(std::string(row.long_name()));
        if (option == nullptr || option->count() == 0 || option->results().empty())
            continue;
        const std::string& value = option->results().back();
        if (parse_wait_duration(value))
            continue;
        const std::string_view flag = row.flag.substr(0, row.flag.find(','));
        return fmt::format("NAME is required: {0} took {1} as its DURATION, and it is not one "
                           "(e.g. dlock {2} {0} 30s NAME ...)",
                           flag, redactor.argument(value), path_of(chain));
    }
    return std::nullopt;
}

} // namespace dlock::cli
