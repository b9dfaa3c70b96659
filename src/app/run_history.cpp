#include "app/run_history.hpp"

#include "util/log.hpp"

namespace dlock::app {
namespace {

std::string number(int64_t n) {
    return std::to_string(n);
}

lock::HistoryFields about(std::string event, const lock::HolderInfo& self, bool shared) {
    return {{"event", std::move(event)}, {"mode", shared ? "s" : "x"}, {"host", self.host},
            {"pid", number(self.pid)},   {"user", self.user},          {"command", self.command}};
}

void append(lock::History& history, const lock::Keys& keys, const lock::HistoryFields& fields) {
    if (auto added = history.append(keys, fields); !added)
        log::info("could not record history in {}: {}", keys.history, added.error().message);
}

} // namespace

void record_lost_lease(lock::History& history, const lock::Keys& keys, const lock::HolderInfo& self,
                       bool shared, int64_t fence, Millis held_for, int exit_status) {
    auto fields = about("lost", self, shared);
    fields.insert(fields.end(), {{"fence", number(fence)},
                                 {"duration_ms", number(held_for.count())},
                                 {"exit_status", number(exit_status)}});
    append(history, keys, fields);
}

void record_time_up(lock::History& history, const lock::Keys& keys, const lock::HolderInfo& self,
                    bool shared, int64_t fence, Millis max_run) {
    auto fields = about("timeout", self, shared);
    fields.insert(fields.end(),
                  {{"fence", number(fence)}, {"max_run_ms", number(max_run.count())}});
    append(history, keys, fields);
}

void record_timed_out_wait(lock::History& history, const lock::Keys& keys,
                           const lock::HolderInfo& self, bool shared,
                           const lock::AcquireOutcome& last, Millis waited) {
    auto fields = about("skip", self, shared);
    fields.emplace_back("waited_ms", number(waited.count()));
    if (last.holder) {
        const auto& h = *last.holder;
        fields.insert(fields.end(), {{"other_host", h.host},
                                     {"other_pid", number(h.pid)},
                                     {"other_user", h.user},
                                     {"other_command", h.command},
                                     {"other_since_ms", number(h.since_ms)},
                                     {"other_fence", number(h.fence)}});
        if (last.shared_holders > 1)
            fields.emplace_back("other_count", number(last.shared_holders));
        if (last.held_until_ms > 0)
            fields.emplace_back("held_until_ms", number(last.held_until_ms));
    }
    if (last.waiters > 1) // the others: we were queued too
        fields.emplace_back("waiters", number(last.waiters - 1));
    append(history, keys, fields);
}

void record_paused_skip(lock::History& history, const lock::Keys& keys,
                        const lock::HolderInfo& self, bool shared, const lock::Pause& pause) {
    auto fields = about("skip", self, shared);
    fields.insert(fields.end(),
                  {{"reason", "paused"},
                   {"paused_by", pause.host.empty() ? pause.by : pause.by + "@" + pause.host}});
    if (pause.until_ms > 0)
        fields.emplace_back("until_ms", number(pause.until_ms));
    append(history, keys, fields);
}

void record_slot_skip(lock::History& history, const lock::Keys& keys, const lock::HolderInfo& self,
                      const std::string& reason, int64_t slot) {
    auto fields = about("skip", self, false);
    fields.insert(fields.end(), {{"reason", reason}, {"slot", number(slot)}});
    append(history, keys, fields);
}

} // namespace dlock::app
