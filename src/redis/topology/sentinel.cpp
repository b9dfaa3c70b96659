#include "redis/topology/sentinel.hpp"

#include "redis/protocol/server_error.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

namespace dlock::redis {
namespace {

// A sentinel that does not answer quickly is skipped for the next: there are others.
constexpr Millis kSentinelTimeout{500};

// Where a failure of a sentinel's connection comes from, for its message: Connection words
// what it sees itself naming the sentinel (ConnectOptions::peer), but passes some failures on as
// they are, which name nothing.
enum class Source {
    open,    // Connection::open: only a local set-up error (no I/O, no reply) is bare
    command, // our SENTINEL command: an error reply other than a refused access is bare
};

// An error from a sentinel's connection, as the user sees it: it names the sentinel, and a
// missing password is the sentinels' own, set apart from the master's.
Error from_sentinel(Error error, const Endpoint& sentinel, Source source) {
    const auto code = server_code(error);
    if (code == ServerErrorCode::noauth) {
        error.message =
            fmt::format("sentinel {} requires a password (NOAUTH): set "
                        "DLOCK_SENTINEL_PASSWORD, --sentinel-password-file or the config's "
                        "sentinel-password-file",
                        sentinel.display());
        return error;
    }
    // Bare: an error reply ("ERR unknown command 'SENTINEL'": the URL names no sentinel), or a
    // local error (a TLS file).
    const bool bare = source == Source::open ? !code && !error.io : code && !access_denied(*code);
    if (bare)
        error.message = fmt::format("sentinel {}: {}", sentinel.display(), error.message);
    return error;
}

// A field of a flat field/value array (one replica of SENTINEL REPLICAS); "" when absent.
std::string_view field_of(ReplyView fields, std::string_view name) {
    for (size_t f = 0; f + 1 < fields.size(); f += 2)
        if (fields[f].str() == name)
            return fields[f + 1].str();
    return {};
}

// The replicas in a SENTINEL REPLICAS reply that the sentinel considers up (not subjectively or
// objectively down, not disconnected) and replicating (master link ok): the ones a failover may
// promote.
int count_live_replicas(ReplyView replicas) {
    int live = 0;
    for (size_t i = 0; i < replicas.size(); ++i) {
        const std::string_view flags = field_of(replicas[i], "flags");
        if (flags.find("s_down") == std::string_view::npos &&
            flags.find("o_down") == std::string_view::npos &&
            flags.find("disconnected") == std::string_view::npos &&
            field_of(replicas[i], "master-link-status") == "ok")
            ++live;
    }
    return live;
}

} // namespace

Result<Endpoint> SentinelClient::ask(const Endpoint& sentinel) {
    if (conn_ && conn_->broken())
        conn_.reset();
    if (!conn_) {
        ConnectOptions options = deployment_.connect_to(sentinel);
        options.endpoint.user = deployment_.sentinel_user;
        options.endpoint.password = deployment_.sentinel_password;
        options.connect_timeout = std::min(options.connect_timeout, kSentinelTimeout);
        options.command_timeout = std::min(options.command_timeout, kSentinelTimeout);
        options.peer = Peer::sentinel;
        auto opened = Connection::open(options);
        if (!opened)
            return tl::unexpected(from_sentinel(std::move(opened.error()), sentinel, Source::open));
        conn_.emplace(std::move(*opened));
    }
    // With --min-replicas auto, the master's replicas in the same round trip.
    std::vector<std::vector<std::string>> batch{
        {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", deployment_.master_name}};
    if (deployment_.replication.automatic)
        batch.push_back({"SENTINEL", "REPLICAS", deployment_.master_name});
    auto replies = conn_->pipeline(batch);
    if (!replies) {
        replies.error().transient = true;
        return tl::unexpected(from_sentinel(std::move(replies.error()), sentinel, Source::command));
    }
    auto& reply = replies->front();
    if (!reply) {
        reply.error().transient = true;
        return tl::unexpected(from_sentinel(std::move(reply.error()), sentinel, Source::command));
    }
    if (reply->is_nil())
        return fail(Fault::unavailable,
                    fmt::format("sentinel {} knows no master named {}", sentinel.display(),
                                deployment_.master_name),
                    true);
    int port = 0;
    const auto port_text = reply->size() == 2 ? (*reply)[1].str() : std::string_view();
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (reply->size() != 2 || ec != std::errc() || port <= 0 || port > 65535)
        return fail(Fault::unavailable,
                    fmt::format("unexpected reply from sentinel {} to GET-MASTER-ADDR-BY-NAME",
                                sentinel.display()),
                    true);
    Endpoint master = deployment_.master;
    master.host = std::string((*reply)[0].str());
    master.port = port;
    // A sentinel that cannot list the replicas (an error reply): assume one, so WAIT decides.
    if (deployment_.replication.automatic)
        live_replicas_ = replies->back() ? count_live_replicas(*replies->back()) : 1;
    return master;
}

Result<Endpoint> SentinelClient::master() {
    const auto& sentinels = deployment_.nodes;
    std::string reasons;
    const size_t first = current_;
    for (size_t tried = 0; tried < sentinels.size(); ++tried) {
        const size_t i = (first + tried) % sentinels.size();
        if (i != current_)
            conn_.reset();
        current_ = i;
        auto found = ask(sentinels[i]);
        if (found)
            return found;
        conn_.reset();
        reasons += fmt::format("{}{}", reasons.empty() ? "" : "; ", found.error().message);
    }
    return fail(
        Fault::unavailable,
        fmt::format("no sentinel named the master {}: {}", deployment_.master_name, reasons), true);
}

} // namespace dlock::redis
