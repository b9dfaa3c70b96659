#include "redis/topology/deployment.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>
#include <optional>
#include <sys/un.h>

namespace dlock::redis {
namespace {

// sizeof(sockaddr_un::sun_path), with its terminating NUL.
constexpr size_t kMaxSocketPath = sizeof(sockaddr_un{}.sun_path);
constexpr int kSentinelPort = 26379;
constexpr int kMaxDb = 1 << 20;

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

// Parses URLs of one --redis value; every error names the URL, its credentials redacted.
class UrlParser {
  public:
    explicit UrlParser(std::string_view url) : url_(url) {}

    Result<Deployment> parse() {
        if (url_.starts_with("unix://"))
            return parse_unix(url_.substr(7));
        for (const auto& [scheme, sentinel, tls] : kSchemes)
            if (url_.starts_with(scheme))
                return parse_network(url_.substr(scheme.size()), sentinel, tls);
        return invalid("expected redis://, rediss://, redis-sentinel://, rediss-sentinel:// or "
                       "unix://");
    }

  private:
    struct Scheme {
        std::string_view prefix;
        bool sentinel;
        bool tls;
    };
    static constexpr Scheme kSchemes[] = {{"redis://", false, false},
                                          {"rediss://", false, true},
                                          {"redis-sentinel://", true, false},
                                          {"rediss-sentinel://", true, true}};

    tl::unexpected<Error> invalid(std::string_view why) const {
        return usage_error(fmt::format("invalid Redis URL {}: {}", quote(shown()), why));
    }

    // The URL without its secrets: no credentials, and no value of a query parameter other
    // than the two dlock knows (`?password=...` is someone else's convention, but a secret).
    std::string shown() const {
        std::string out = redact_credentials(url_);
        // Without its "://" redact_credentials cannot tell where credentials start: of a URL
        // that is invalid anyway, only what follows the last '@' is shown.
        if (const auto at = out.rfind('@');
            out.find("://") == std::string::npos && at != std::string::npos)
            out = "***" + out.substr(at);
        const auto query = out.find('?');
        if (query == std::string::npos)
            return out;
        const auto end = std::min(out.find('#', query), out.size());
        std::string params;
        for (size_t start = query + 1; start < end;) {
            const size_t amp = std::min(out.find('&', start), end);
            std::string_view param(out.data() + start, amp - start);
            const auto eq = param.find('=');
            const auto key = param.substr(0, eq);
            params += params.empty() ? "" : "&";
            params += key == "db" || key == "sentinelMasterId" || eq == std::string_view::npos
                          ? std::string(param)
                          : std::string(key) + "=***";
            start = amp + 1;
        }
        return out.substr(0, query + 1) + params + out.substr(end);
    }

    Result<Deployment> parse_unix(std::string_view rest) {
        Endpoint ep;
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
            auto db = parse_int(q.substr(3), 0, kMaxDb);
            if (!db)
                return invalid("db must be a non-negative number");
            ep.db = *db;
        }
        Deployment d;
        d.nodes.push_back(std::move(ep));
        return d;
    }

    Result<Deployment> parse_network(std::string_view rest, bool sentinel, bool tls) {
        if (rest.find("://") != std::string_view::npos)
            return invalid("one scheme per URL (several deployments are several --redis options)");
        Deployment d;
        d.kind = sentinel ? Deployment::Kind::sentinel : Deployment::Kind::direct;
        TRY(take_master_name(rest, sentinel, d));

        Endpoint common;
        common.tls = tls;
        auto slash = rest.find('/');
        std::string_view authority = rest.substr(0, slash);
        if (slash != std::string_view::npos)
            TRY(parse_db(rest.substr(slash + 1), common));
        TRY(take_credentials(authority, common));
        TRY(parse_hosts(authority, sentinel, common, d));
        if (sentinel) {
            d.master = common;
        } else if (d.nodes.size() > 1 && common.db != 0) {
            return invalid("several hosts are the seeds of a Redis Cluster, which has only "
                           "database 0");
        }
        return d;
    }

    // The master's name: after '#', or in ?sentinelMasterId=NAME (Lettuce's two forms); both
    // are cut from `rest`.
    Result<void> take_master_name(std::string_view& rest, bool sentinel, Deployment& d) const {
        std::string_view fragment, query;
        if (auto hash = rest.find('#'); hash != std::string_view::npos) {
            fragment = rest.substr(hash + 1);
            rest = rest.substr(0, hash);
        }
        if (auto q = rest.find('?'); q != std::string_view::npos) {
            query = rest.substr(q + 1);
            rest = rest.substr(0, q);
        }
        if (!sentinel && (!fragment.empty() || !query.empty()))
            return invalid("'?' and '#' are for redis-sentinel:// URLs");
        if (!sentinel)
            return {};
        constexpr std::string_view kMasterId = "sentinelMasterId=";
        if (!query.empty() && !query.starts_with(kMasterId))
            return invalid("the only query parameter supported is sentinelMasterId=NAME");
        d.master_name = std::string(query.empty() ? fragment : query.substr(kMasterId.size()));
        if (d.master_name.empty())
            return invalid("a sentinel URL names the master: redis-sentinel://host,host#mymaster");
        return {};
    }

    Result<void> parse_db(std::string_view db_text, Endpoint& ep) const {
        if (db_text.empty())
            return {};
        auto db = parse_int(db_text, 0, kMaxDb);
        if (!db)
            return invalid("the database after '/' must be a non-negative number");
        ep.db = *db;
        return {};
    }

    // user:password@ before the hosts, cut from `authority`.
    Result<void> take_credentials(std::string_view& authority, Endpoint& ep) const {
        auto at = authority.rfind('@');
        if (at == std::string_view::npos)
            return {};
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
        return {};
    }

    // host[:port],host[:port]...: the sentinels, or one server or a Cluster's seeds, which
    // share the credentials and database.
    Result<void> parse_hosts(std::string_view authority, bool sentinel, const Endpoint& common,
                             Deployment& d) const {
        const int default_port = sentinel ? kSentinelPort : 6379;
        for (size_t start = 0;;) {
            const size_t comma = authority.find(',', start);
            Endpoint ep = sentinel ? Endpoint{} : common;
            ep.tls = common.tls;
            ep.port = default_port;
            TRY(parse_host_port(authority.substr(start, comma - start), ep));
            d.nodes.push_back(std::move(ep));
            if (comma == std::string_view::npos)
                return {};
            start = comma + 1;
        }
    }

    Result<void> parse_host_port(std::string_view text, Endpoint& ep) const {
        std::string_view port_text;
        bool has_port = false;
        if (text.starts_with('[')) {
            auto close = text.find(']');
            if (close == std::string_view::npos)
                return invalid("unterminated '[' in IPv6 address");
            ep.host = std::string(text.substr(1, close - 1));
            std::string_view after = text.substr(close + 1);
            if (!after.empty()) {
                if (after[0] != ':')
                    return invalid("expected ':' after ']'");
                port_text = after.substr(1);
                has_port = true;
            }
        } else {
            auto colon = text.find(':');
            ep.host = std::string(text.substr(0, colon));
            if (colon != std::string_view::npos) {
                port_text = text.substr(colon + 1);
                has_port = true;
            }
        }
        if (ep.host.empty())
            return invalid("missing host");
        if (has_port) {
            auto port = parse_int(port_text, 1, 65535);
            if (!port)
                return invalid("port must be a number from 1 to 65535");
            ep.port = *port;
        }
        return {};
    }

    std::string_view url_;
};

std::string join_nodes(const std::vector<Endpoint>& nodes) {
    std::string out;
    for (const auto& node : nodes)
        out += (out.empty() ? "" : ",") + node.display();
    return out;
}

} // namespace

Deployment::Deployment(ConnectOptions single)
    : nodes{std::move(single.endpoint)}, tls(std::move(single.tls)),
      connect_timeout(single.connect_timeout), command_timeout(single.command_timeout) {}

ConnectOptions Deployment::connect_to(const Endpoint& endpoint) const {
    return ConnectOptions{endpoint, tls, connect_timeout, command_timeout};
}

void Deployment::set_password(const std::string& password, const std::string& from) {
    // Whose password the URL names, not how to route: the kind's Topology does that.
    if (kind == Kind::sentinel)
        master.password = password;
    else
        for (auto& node : nodes)
            node.password = password;
    set_password_source(from);
}

void Deployment::set_password_source(const std::string& from) {
    if (kind == Kind::sentinel)
        master.password_from = master.password.empty() ? "" : from;
    else
        for (auto& node : nodes)
            node.password_from = node.password.empty() ? "" : from;
}

std::string Deployment::display() const {
    // What the URL names, not how to route: the kind's Topology does that.
    if (kind == Kind::sentinel)
        return fmt::format("master {} via {}", master_name, join_nodes(nodes));
    return join_nodes(nodes);
}

Result<Deployment> parse_deployment(std::string_view url) {
    return UrlParser(url).parse();
}

Result<Endpoint> parse_url(std::string_view url) {
    TRY_ASSIGN(Deployment d, parse_deployment(url));
    if (d.kind != Deployment::Kind::direct || d.nodes.size() != 1)
        return usage_error(
            fmt::format("invalid Redis URL {}: expected one server", quote(redact_url(url))));
    return std::move(d.nodes.front());
}

} // namespace dlock::redis
