#include "app/status.hpp"

#include "app/status_view.hpp"
#include "redis/status_reader.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

namespace dlock::app {
namespace {

int report(const Error& error) {
    log::error("{}", error.message);
    return error.exit_code;
}

} // namespace

int status(const Connection& connection, const StatusOptions& options) {
    auto conn = redis::Connection::open(connection.redis);
    if (!conn)
        return report(conn.error());
    std::vector<std::string> names = options.names;
    if (names.empty()) {
        auto found = redis::scan_names(*conn, connection.prefix);
        if (!found)
            return report(found.error());
        names = std::move(*found);
    }
    if (options.names_only) {
        for (const auto& name : names)
            fmt::print("{}\n", name);
        std::fflush(stdout);
        return names.empty() ? exit_code::nothing : exit_code::ok;
    }

    auto state = redis::read_status(*conn, connection.prefix, names);
    if (!state)
        return report(state.error());
    if (options.json)
        fmt::print("{}\n", status_json(*state));
    else if (state->names.empty())
        fmt::print("nothing under prefix {}\n", connection.prefix);
    else
        fmt::print("{}", status_table(*state));
    std::fflush(stdout);
    for (const auto& name : state->names)
        if (name.in_use())
            return exit_code::ok;
    return exit_code::nothing;
}

} // namespace dlock::app
