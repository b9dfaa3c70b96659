#pragma once

#include "redis/protocol/server_reply.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlock::redis {

// What an error reply means to dlock. Servers start an error reply with a code word ("MOVED",
// "NOSCRIPT"...), then free text that differs between servers and versions (Valkey words
// NOSCRIPT differently): the word decides, never the text. Only the ERR family, where the word
// says nothing, is told apart by its text, here and nowhere else.
enum class ServerErrorCode : uint8_t {
    moved,            // MOVED <slot> <host>:<port>: the slot lives there now
    ask,              // ASK <slot> <host>:<port>: the key is being migrated there
    tryagain,         // a multi-key command during a slot migration
    clusterdown,      // a Cluster failover in progress
    noscript,         // EVALSHA of a script the server has not cached
    loading,          // the server is loading its data set
    busy,             // a script runs past busy-reply-threshold
    readonly,         // a replica refuses writes
    masterdown,       // a replica that lost its master
    noreplicas,       // fewer replicas than min-replicas-to-write
    unblocked,        // a blocked command ended because the server changed role
    noauth,           // no password given (NOAUTH, or dropped as an unauthenticated client)
    auth,             // the password or the user is wrong (WRONGPASS, and older servers' ERR forms)
    noperm,           // an ACL forbids the command
    wrongtype,        // a key holds another type
    cluster_disabled, // a CLUSTER command on a server with cluster support disabled
    cluster_mode,     // a command a Cluster node refuses (SELECT of a database other than 0)
    replica_refused,  // a command a replica refuses (WAIT)
    maxclients,       // the server took the connection over its client limit, answered the first
                      // command with this and closed it (ERR max number of clients reached)
    other,
};

// One error reply, decoded: its code, the text as the server sent it, and for MOVED/ASK where
// to go (a MOVED or ASK whose fields do not parse is no redirect we could follow: `other`).
struct ServerError {
    ServerErrorCode code = ServerErrorCode::other;
    std::string text;
    std::optional<Redirect> redirect; // set exactly when code is moved or ask
};

ServerError classify(std::string_view reply_text);

// The code of the error reply behind `error`; none when it is no error reply (I/O, local).
std::optional<ServerErrorCode> server_code(const Error& error);

// MOVED or ASK (with a redirect to follow).
bool is_redirect(ServerErrorCode code);
// TRYAGAIN and CLUSTERDOWN: the same command succeeds after a short pause.
bool cluster_busy(ServerErrorCode code);
// READONLY, MASTERDOWN and UNBLOCKED: the server is not the master any more, e.g. after a
// Sentinel failover.
bool not_master(ServerErrorCode code);
// LOADING, BUSY and NOREPLICAS: the server refuses every command (every write) for a while;
// a retry passes.
bool server_busy(ServerErrorCode code);
// NOAUTH, a refused password, NOPERM: about who we are or what we may do.
bool access_denied(ServerErrorCode code);

// The server refused the connection for its client limit (maxclients): no command of ours ran.
bool client_limit(const Error& error);

// The same questions about an Error: false (none) when it is no error reply.
std::optional<Redirect> redirect_of(const Error& error);
bool cluster_busy(const Error& error);
bool not_master(const Error& error);
bool is_code(const Error& error, ServerErrorCode code);

} // namespace dlock::redis
