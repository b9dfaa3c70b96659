#include "app/status.hpp"

#include "app/quorum_status.hpp"
#include "app/status_view.hpp"
#include "redis/stores/status_reader.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"

#include <fmt/format.h>

namespace dlock::app {

Result<int> status(const Target& target, const StatusOptions& options) {
    if (!target.quorum.empty())
        return quorum_status(target, options);
    redis::ScriptSession session(target.redis);
    TRY(session.connect());
    std::vector<std::string> names = options.names;
    if (names.empty()) {
        auto found = redis::scan_names(session, target.prefix);
        TRY(found);
        names = std::move(*found);
    }
    if (options.names_only) {
        for (const auto& name : names)
            out::print("{}\n", name);
        return names.empty() ? exit_code::nothing : exit_code::ok;
    }

    auto state = redis::read_status(session, target.prefix, names);
    TRY(state);
    if (options.json)
        out::print("{}\n", status_json(*state));
    else if (state->names.empty())
        out::print("nothing under prefix {}\n", target.prefix);
    else
        out::print("{}", status_table(*state));
    for (const auto& name : state->names)
        if (name.in_use())
            return exit_code::ok;
    return exit_code::nothing;
}

} // namespace dlock::app
