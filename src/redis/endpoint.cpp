#include "redis/endpoint.hpp"

#include "util/text.hpp"

#include <cctype>
#include <charconv>
#include <fmt/format.h>
#include <optional>
#include <sys/un.h>

namespace dlock::redis {
namespace {

// sizeof(sockaddr_un::sun_path), with its terminating NUL.
constexpr size_t kMaxSocketPath = sizeof(sockaddr_un{}.sun_path);

std::optional<int> parse_int(std::string_view text, int min, int max) {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
        return std::nullopt;
    return value;
}

std::optional<std::string> percent_decode(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out.push_back(text[i]);
            continue;
        }
        if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
            !std::isxdigit(static_cast<unsigned char>(text[i + 2])))
            return std::nullopt;
        int value = 0;
        std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
        out.push_back(static_cast<char>(value));
        i += 2;
    }
    return out;
}

} // namespace

std::string Endpoint::display() const {
    if (!unix_path.empty())
        return unix_path;
    if (host.find(':') != std::string::npos)
        return fmt::format("[{}]:{}", host, port);
    return fmt::format("{}:{}", host, port);
}

std::string redact_url(std::string_view url) {
    return redact_credentials(url);
}

Result<Endpoint> parse_url(std::string_view url) {
    auto invalid = [&](std::string_view why) {
        return usage_error(fmt::format("invalid Redis URL {}: {}", quote(redact_url(url)), why));
    };

    Endpoint ep;
    if (url.starts_with("unix://")) {
        std::string_view rest = url.substr(7);
        auto query = rest.find('?');
        ep.unix_path = std::string(rest.substr(0, query));
        if (ep.unix_path.empty() || ep.unix_path[0] != '/')
            return invalid("expected unix:///absolute/path/to/socket");
        if (ep.unix_path.size() >= kMaxSocketPath)
            return invalid(
                fmt::format("the socket path is longer than {} bytes", kMaxSocketPath - 1));
        if (query != std::string_view::npos) {
            std::string_view q = rest.substr(query + 1);
            if (!q.starts_with("db="))
                return invalid("the only query parameter supported is db=N");
            auto db = parse_int(q.substr(3), 0, 1 << 20);
            if (!db)
                return invalid("db must be a non-negative number");
            ep.db = *db;
        }
        return ep;
    }
    if (url.starts_with("rediss://"))
        return invalid("TLS (rediss://) is not supported by this build");
    if (!url.starts_with("redis://"))
        return invalid("expected redis://host[:port][/db] or unix:///path");

    std::string_view rest = url.substr(8);
    auto slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    if (slash != std::string_view::npos) {
        std::string_view db_text = rest.substr(slash + 1);
        if (!db_text.empty()) {
            auto db = parse_int(db_text, 0, 1 << 20);
            if (!db)
                return invalid("the database after '/' must be a non-negative number");
            ep.db = *db;
        }
    }
    auto at = authority.rfind('@');
    if (at != std::string_view::npos) {
        std::string_view userinfo = authority.substr(0, at);
        authority = authority.substr(at + 1);
        auto colon = userinfo.find(':');
        auto user = percent_decode(userinfo.substr(0, colon));
        auto pass = colon == std::string_view::npos ? std::optional<std::string>("")
                                                    : percent_decode(userinfo.substr(colon + 1));
        if (!user || !pass)
            return invalid("bad percent-encoding in the credentials");
        ep.user = *user;
        ep.password = *pass;
    }
    std::string_view port_text;
    if (authority.starts_with('[')) {
        auto close = authority.find(']');
        if (close == std::string_view::npos)
            return invalid("unterminated '[' in IPv6 address");
        ep.host = std::string(authority.substr(1, close - 1));
        std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after[0] != ':')
                return invalid("expected ':' after ']'");
            port_text = after.substr(1);
        }
    } else {
        auto colon = authority.find(':');
        ep.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos)
            port_text = authority.substr(colon + 1);
    }
    if (ep.host.empty())
        return invalid("missing host");
    if (!port_text.empty() || authority.ends_with(':')) {
        auto port = parse_int(port_text, 1, 65535);
        if (!port)
            return invalid("port must be a number from 1 to 65535");
        ep.port = *port;
    }
    return ep;
}

} // namespace dlock::redis
