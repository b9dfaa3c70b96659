#include "redis/stores/latch_replies.hpp"

#include <initializer_list>

namespace dlock::redis {
namespace {

// The fields of a latch script's reply: an array of `size` elements.
Result<ScriptFields> fields_of(ReplyView reply, const EmbeddedScript& script, size_t size) {
    TRY_ASSIGN(auto f, ScriptFields::of(reply, script));
    if (f.size() != size)
        return tl::unexpected(f.bad_shape());
    return f;
}

// The status element (the first), one of `known`.
Result<int64_t> status_of(const ScriptFields& f, std::initializer_list<int64_t> known) {
    TRY_ASSIGN(const int64_t status, f.int_at(0, "status"));
    for (const int64_t k : known)
        if (status == k)
            return status;
    return tl::unexpected(f.bad_field("status", "not one the script sends"));
}

} // namespace

Result<lock::Latches::Created> decode_latch_create(ReplyView reply) {
    using Outcome = lock::Latches::Created::Outcome;
    TRY_ASSIGN(const auto f, fields_of(reply, scripts::latch_create, 3));
    TRY_ASSIGN(const int64_t status, status_of(f, {1, 0, -1, -2, 2}));
    lock::Latches::Created out;
    out.outcome = status == 1    ? Outcome::created
                  : status == 2  ? Outcome::reset
                  : status == -1 ? Outcome::conflict
                  : status == -2 ? Outcome::finished
                                 : Outcome::refreshed;
    TRY_ASSIGN(out.count, f.int_at(1, "count"));
    TRY_ASSIGN(out.initial, f.int_at(2, "initial"));
    return out;
}

Result<lock::Latches::CountedDown> decode_latch_count_down(ReplyView reply) {
    TRY_ASSIGN(const auto f, fields_of(reply, scripts::latch_count_down, 3));
    TRY_ASSIGN(const int64_t status, status_of(f, {0, 1, 2}));
    lock::Latches::CountedDown out;
    out.exists = status != 0;
    TRY_ASSIGN(out.count, f.int_at(1, "count"));
    TRY_ASSIGN(out.woken, f.int_at(2, "woken"));
    return out;
}

Result<lock::Latches::Round> decode_latch_wait(ReplyView reply) {
    using State = lock::Latches::Round::State;
    TRY_ASSIGN(const auto f, fields_of(reply, scripts::latch_wait, 2));
    TRY_ASSIGN(const int64_t status, status_of(f, {0, 1, 2}));
    lock::Latches::Round out;
    out.state = status == 0 ? State::missing : status == 1 ? State::done : State::waiting;
    TRY_ASSIGN(out.count, f.int_at(1, "count"));
    return out;
}

Result<std::optional<lock::LatchStatus>> decode_latch_status(ReplyView reply) {
    TRY_ASSIGN(const auto f, fields_of(reply, scripts::latch_status, 5));
    TRY_ASSIGN(const int64_t exists, status_of(f, {0, 1}));
    if (exists == 0)
        return std::optional<lock::LatchStatus>();
    TRY_ASSIGN(auto status, latch_fields_at(f, 1));
    return std::optional<lock::LatchStatus>(status);
}

Result<lock::LatchStatus> latch_fields_at(const ScriptFields& f, size_t from) {
    lock::LatchStatus out;
    TRY_ASSIGN(out.count, f.int_at(from, "latch count"));
    TRY_ASSIGN(out.initial, f.int_at(from + 1, "latch initial count"));
    TRY_ASSIGN(const int64_t ttl, f.int_at(from + 2, "latch ttl ms"));
    out.ttl_left = Millis(ttl);
    TRY_ASSIGN(out.waiters, f.int_at(from + 3, "latch waiters"));
    return out;
}

} // namespace dlock::redis
