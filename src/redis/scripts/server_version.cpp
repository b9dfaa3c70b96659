#include "redis/scripts/server_version.hpp"

#include "redis/protocol/server_error.hpp"

#include <charconv>
#include <fmt/format.h>

namespace dlock::redis {

namespace {

// What servers older than kOldestServerMajor answer a script of dlock's.
bool may_be_old_server(const Error& error) {
    if (!server_code(error) || !error.server)
        return false;
    const std::string& text = error.server->text;
    for (std::string_view sign : {"Unknown Redis command called from Lua", "replicate_commands",
                                  "wrong number of arguments", "unknown command"})
        if (text.find(sign) != std::string::npos)
            return true;
    return false;
}

int major_of(std::string_view version) {
    int major = 0;
    const auto [end, ec] = std::from_chars(version.data(), version.data() + version.size(), major);
    return ec == std::errc() && end != version.data() ? major : -1;
}

} // namespace

std::optional<std::string> version_in_info(std::string_view info) {
    constexpr std::string_view kField = "redis_version:";
    const size_t at = info.find(kField);
    if (at == std::string_view::npos || (at > 0 && info[at - 1] != '\n'))
        return std::nullopt;
    std::string_view rest = info.substr(at + kField.size());
    rest = rest.substr(0, std::min(rest.find_first_of("\r\n"), size_t{32}));
    if (rest.empty() || major_of(rest) < 0)
        return std::nullopt;
    return std::string(rest);
}

Error explain_old_server(Connection& conn, Error error) {
    if (!may_be_old_server(error))
        return error;
    auto info = conn.command({"INFO", "server"});
    if (!info || !info->is_string())
        return error;
    const auto version = version_in_info(info->str());
    if (!version || major_of(*version) >= kOldestServerMajor)
        return error;
    return Error{Fault::unavailable,
                 fmt::format("{} runs Redis {}: dlock needs Redis {}.0 or later (its scripts keep "
                             "the history in streams and read TIME before they write)",
                             peer_name(conn.options()), *version, kOldestServerMajor)};
}

} // namespace dlock::redis
