#pragma once

#include "lock/slots.hpp"
#include "redis/scripts/script_session.hpp"

namespace dlock::redis {

// lock::Slots with lua/slot.lua over one ScriptSession. The script is retried on transient
// errors (3 tries, 200 ms apart) with the same arguments, which lock::Slots makes safe.
class SlotStore final : public lock::Slots {
  public:
    explicit SlotStore(Deployment deployment) : session_(std::move(deployment)) {}

    Result<lock::SlotAnswer> claim(const lock::Keys& keys, const lock::SlotRule& rule,
                                   const lock::SlotHolder& holder) override;
    Result<lock::SlotAnswer> mark_done(const lock::Keys& keys, const lock::SlotRule& rule,
                                       const lock::SlotHolder& holder, int64_t slot) override;
    Result<lock::SlotAnswer> peek(const lock::Keys& keys, const lock::SlotRule& rule) override;

  private:
    Result<lock::SlotAnswer> run(std::string_view op, const lock::Keys& keys,
                                 const lock::SlotRule& rule, const lock::SlotHolder& holder,
                                 int64_t slot);

    ScriptSession session_;
};

} // namespace dlock::redis
