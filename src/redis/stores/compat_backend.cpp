#include "redis/stores/compat_backend.hpp"

#include "redis/scripts/script_reply.hpp"
#include "util/log.hpp"

#include <algorithm>

namespace dlock::redis {
namespace {

std::string ms(Millis d) {
    return std::to_string(d.count());
}

Millis since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - t);
}

} // namespace

void CompatBackend::record(const lock::Keys& keys, const lock::HistoryFields& fields) {
    if (auto written = append(keys, fields); !written)
        log::info("could not write the history of {}: {}", keys.history, written.error().message);
}

Result<void> CompatBackend::append(const lock::Keys& keys, const lock::HistoryFields& fields) {
    std::vector<std::string_view> args;
    for (const auto& [name, value] : fields)
        args.insert(args.end(), {name, value});
    TRY(session_.run(scripts::compat_record, {keys.history, keys.runs}, args));
    return {};
}

void CompatBackend::record_refusal(const lock::Keys& keys, const lock::AcquireRequest& r,
                                   const CompatAcquireReply& reply) {
    // A skip is counted once, when it is the caller's final answer (as acquire.lua does).
    if (!r.final_refusal || !r.waiter_id.empty())
        return;
    record(keys, {{"event", "skip"},
                  {"mode", "x"},
                  {"compat", std::string(lock::compat_name(format_))},
                  {"host", r.self.host},
                  {"pid", std::to_string(r.self.pid)},
                  {"user", r.self.user},
                  {"command", r.self.command},
                  {"other_command", reply.holder}});
}

Result<lock::AcquireOutcome> CompatBackend::acquire(const lock::Keys& keys,
                                                    const lock::AcquireRequest& r) {
    const std::string value = lock::compat_owner(format_, r.owner);
    auto reply = take(keys, value, r);
    last_hold_ = r.hold_id;
    TRY(reply);
    lock::AcquireOutcome out;
    if (reply->acquired) {
        out.acquired = true;
        out.holds = reply->holds;
        if (taken_.emplace(r.hold_id, Clock::now()).second)
            record(keys, {{"event", "acquire"},
                          {"mode", "x"},
                          {"compat", std::string(lock::compat_name(format_))},
                          {"owner", value},
                          {"host", r.self.host},
                          {"pid", std::to_string(r.self.pid)},
                          {"user", r.self.user},
                          {"command", r.self.command}});
        return out;
    }
    out.lease_left = Millis(reply->left_ms);
    // Shown as the holder: the other side's owner value (no host or pid in these formats).
    lock::HolderInfo holder;
    out.compat_holder = std::string(lock::compat_name(format_));
    holder.command = reply->holder.empty() ? "(a key of another type)" : reply->holder;
    out.holder = holder;
    record_refusal(keys, r, *reply);
    return out;
}

std::vector<Result<lock::Renewal>>
CompatBackend::renew(std::span<const lock::RenewRequest> requests) {
    std::vector<std::string> values, ttls;
    values.reserve(requests.size());
    ttls.reserve(requests.size());
    for (const auto& r : requests) {
        values.push_back(lock::compat_owner(format_, r.owner));
        ttls.push_back(ms(r.ttl));
    }
    std::vector<ScriptCall> calls;
    calls.reserve(requests.size());
    for (size_t i = 0; i < requests.size(); ++i)
        calls.push_back({{requests[i].keys.lock}, {values[i], ttls[i]}});
    session_.confirm_master(); // a demoted master would accept the renewals for seconds
    return as_renewals(session_.run_each(renew_script(), calls), renew_script());
}

Result<std::optional<int64_t>> CompatBackend::release(const lock::Keys& keys,
                                                      const lock::ReleaseRequest& r) {
    const std::string value = lock::compat_owner(format_, r.owner);
    const auto at = taken_.find(r.hold_id);
    const Millis held = at == taken_.end() ? Millis(0) : since(at->second);
    const Millis keep = r.min_hold > held ? r.min_hold - held : Millis(0);
    auto released = give(keys, value, r, keep);
    TRY(released);
    if (at != taken_.end())
        taken_.erase(at);
    if (*released && **released == 0 && r.outcome)
        record(keys, {{"event", "release"},
                      {"mode", "x"},
                      {"compat", std::string(lock::compat_name(format_))},
                      {"owner", value},
                      {"exit_status", r.exit_status ? std::to_string(*r.exit_status) : ""},
                      {"outcome", std::string(lock::outcome_name(*r.outcome))},
                      {"duration_ms", ms(held)}});
    return released;
}

} // namespace dlock::redis
