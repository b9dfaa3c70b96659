#include "redis/protocol/server_reply.hpp"

#include <charconv>

namespace dlock::redis {
namespace {

template <typename T>
bool parse_number(std::string_view text, T& value) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

std::optional<Redirect> parse_redirect(std::string_view message) {
    Redirect r;
    if (message.starts_with("MOVED "))
        message.remove_prefix(6);
    else if (message.starts_with("ASK "))
        message.remove_prefix(4), r.ask = true;
    else
        return std::nullopt;
    const auto space = message.find(' ');
    const auto colon = message.rfind(':');
    if (space == std::string_view::npos || colon == std::string_view::npos || colon < space)
        return std::nullopt;
    unsigned slot = 0;
    if (!parse_number(message.substr(0, space), slot) || slot >= 16384 ||
        !parse_number(message.substr(colon + 1), r.port) || r.port <= 0 || r.port > 65535)
        return std::nullopt;
    r.slot = static_cast<uint16_t>(slot);
    std::string_view host = message.substr(space + 1, colon - space - 1);
    if (host.starts_with('[') && host.ends_with(']')) // an IPv6 address, as some versions send it
        host = host.substr(1, host.size() - 2);
    if (host.size() > 255) // no DNS name is longer: not a redirect from a Redis server
        return std::nullopt;
    r.host = std::string(host);
    return r;
}

} // namespace dlock::redis
