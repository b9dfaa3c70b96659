#pragma once

#include "redis/protocol/reply.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

struct redisReader;

namespace dlock::redis {

// The most one reply may hold: its bytes not parsed yet plus the reply tree built so far. No
// reply dlock asks for comes near it (the largest is a CLUSTER SHARDS of a big Cluster, a few
// MiB); it only stops a broken or hostile server from growing dlock without bound. Documented
// in docs/production.md ("Safety") and man/dlock.1 (EXIT STATUS, 69).
inline constexpr size_t kMaxReplyBytes = size_t{64} << 20;
inline constexpr std::string_view kMaxReplyText = "64 MiB";

// hiredis's RESP parser with a budget: fed bytes, it hands out complete replies, and fails
// (too_large) the moment a reply needs more than kMaxReplyBytes. hiredis 0.14 has no limit of
// its own: it buffers a bulk string of any announced length until it is complete, allocates an
// array of any announced count at once, and builds a broken reply from a negative count.
class ReplyReader {
  public:
    ReplyReader();
    ~ReplyReader();
    ReplyReader(ReplyReader&&) noexcept;
    ReplyReader& operator=(ReplyReader&&) noexcept;

    enum class Failure { none, protocol, too_large };
    // Appends bytes received from the server.
    void feed(std::string_view bytes);
    // The next complete reply, nullopt when more bytes are needed (or on failure: see failure()).
    std::optional<Reply> next();
    // Why next() failed; the reader is unusable after a failure.
    Failure failure() const;
    // hiredis's description of a protocol failure.
    std::string_view protocol_error() const;

    // The hiredis reader and the budget (reply_reader.cpp); named here for hiredis's callbacks.
    struct State;

  private:
    std::unique_ptr<State> state_; // on the heap: hiredis keeps a pointer to it
};

} // namespace dlock::redis
