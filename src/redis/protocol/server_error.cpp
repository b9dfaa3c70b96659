#include "redis/protocol/server_error.hpp"

#include <array>
#include <utility>

namespace dlock::redis {
namespace {

// The error codes that are a word of their own. ASK and MOVED are not here: they are codes only
// with a redirect that parses.
constexpr std::array<std::pair<std::string_view, ServerErrorCode>, 13> kWords{{
    {"TRYAGAIN", ServerErrorCode::tryagain},
    {"CLUSTERDOWN", ServerErrorCode::clusterdown},
    {"NOSCRIPT", ServerErrorCode::noscript},
    {"LOADING", ServerErrorCode::loading},
    {"BUSY", ServerErrorCode::busy},
    {"READONLY", ServerErrorCode::readonly},
    {"MASTERDOWN", ServerErrorCode::masterdown},
    {"NOREPLICAS", ServerErrorCode::noreplicas},
    {"UNBLOCKED", ServerErrorCode::unblocked},
    {"NOAUTH", ServerErrorCode::noauth},
    {"WRONGPASS", ServerErrorCode::auth},
    {"NOPERM", ServerErrorCode::noperm},
    {"WRONGTYPE", ServerErrorCode::wrongtype},
}};

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// An ERR reply (or one whose word we do not know): its text is all there is.
ServerErrorCode from_text(std::string_view text) {
    // Redis drops an unauthenticated client that sends a long command with "ERR Protocol error:
    // unauthenticated multibulk length".
    if (contains(text, "unauthenticated"))
        return ServerErrorCode::noauth;
    // Servers before ACLs (6.0): "ERR invalid password"; "ERR AUTH <password> called without
    // any password configured".
    if (text.starts_with("ERR invalid password") || text.starts_with("ERR AUTH"))
        return ServerErrorCode::auth;
    // Redis and Valkey: "ERR max number of clients reached", sent to a connection it then closes.
    if (contains(text, "max number of clients reached"))
        return ServerErrorCode::maxclients;
    if (contains(text, "cluster support disabled"))
        return ServerErrorCode::cluster_disabled;
    if (contains(text, "not allowed in cluster mode"))
        return ServerErrorCode::cluster_mode;
    if (contains(text, "cannot be used with replica"))
        return ServerErrorCode::replica_refused;
    return ServerErrorCode::other;
}

} // namespace

ServerError classify(std::string_view reply_text) {
    ServerError out{ServerErrorCode::other, std::string(reply_text), std::nullopt};
    const std::string_view word = reply_text.substr(0, reply_text.find(' '));
    if (word == "MOVED" || word == "ASK") {
        out.redirect = parse_redirect(reply_text);
        if (out.redirect)
            out.code = out.redirect->ask ? ServerErrorCode::ask : ServerErrorCode::moved;
        return out;
    }
    for (const auto& [known, code] : kWords) {
        if (word == known) {
            out.code = code;
            return out;
        }
    }
    out.code = from_text(reply_text);
    return out;
}

std::optional<ServerErrorCode> server_code(const Error& error) {
    if (!error.server)
        return std::nullopt;
    return error.server->code;
}

std::optional<Redirect> redirect_of(const Error& error) {
    if (!error.server)
        return std::nullopt;
    return error.server->redirect;
}

bool cluster_busy(const Error& error) {
    return error.server && cluster_busy(error.server->code);
}

bool not_master(const Error& error) {
    return error.server && not_master(error.server->code);
}

bool is_code(const Error& error, ServerErrorCode code) {
    return error.server && error.server->code == code;
}

bool client_limit(const Error& error) {
    return is_code(error, ServerErrorCode::maxclients);
}

bool is_redirect(ServerErrorCode code) {
    return code == ServerErrorCode::moved || code == ServerErrorCode::ask;
}

bool cluster_busy(ServerErrorCode code) {
    return code == ServerErrorCode::tryagain || code == ServerErrorCode::clusterdown;
}

bool not_master(ServerErrorCode code) {
    return code == ServerErrorCode::readonly || code == ServerErrorCode::masterdown ||
           code == ServerErrorCode::unblocked;
}

bool server_busy(ServerErrorCode code) {
    return code == ServerErrorCode::loading || code == ServerErrorCode::busy ||
           code == ServerErrorCode::noreplicas;
}

bool access_denied(ServerErrorCode code) {
    return code == ServerErrorCode::noauth || code == ServerErrorCode::auth ||
           code == ServerErrorCode::noperm;
}

} // namespace dlock::redis
