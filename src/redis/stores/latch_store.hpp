#pragma once

#include "lock/keys.hpp"
#include "lock/latches.hpp"
#include "lock/status.hpp"
#include "redis/scripts/script_session.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlock::redis {

// lock::Latches with the latch scripts (lua/latch_*.lua) over one ScriptSession. Each script is
// retried on transient errors (3 tries, 200 ms apart) with the same arguments, which
// lock::Latches makes safe. A server never reached is reported at once.
class LatchStore final : public lock::Latches {
  public:
    explicit LatchStore(Deployment deployment) : session_(std::move(deployment)) {}

    Result<Created> create(const lock::LatchKeys& keys, int64_t count, Millis ttl,
                           std::string_view reset_id = {}) override;
    Result<CountedDown> count_down(const lock::LatchKeys& keys, int64_t n,
                                   std::string_view request_id, Millis wake_ttl) override;
    Result<Round> wait_round(const lock::LatchKeys& keys, std::string_view waiter_id,
                             Millis heartbeat) override;
    Result<void> leave(const lock::LatchKeys& keys, std::string_view waiter_id) override;
    // A transient error counts as no token, after a pause: the next round reconnects.
    Result<bool> await_token(const lock::LatchKeys& keys, std::string_view waiter_id,
                             Millis block) override;
    Result<std::optional<lock::LatchStatus>> status(const lock::LatchKeys& keys) override;

  private:
    Result<Reply> run(const EmbeddedScript& script, const std::vector<std::string_view>& keys,
                      const std::vector<std::string_view>& args);

    ScriptSession session_;
};

} // namespace dlock::redis
