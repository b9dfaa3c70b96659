#pragma once

#include "lock/backend.hpp"
#include "redis/protocol/reply.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::redis {

// What every decoder of a script reply shares. Each script's reply is decoded in one place, into
// a named struct (redis/stores/*_replies.hpp, next to the layout its lua/ file documents):
// callers get typed results, never a reply to pick apart by position.

// A reply of the wrong shape: "unexpected reply from script NAME.lua" (Fault::internal, 70).
Error bad_reply(const EmbeddedScript& script);

// The elements of one script's reply (or of an array inside it), read by name. A decoder checks
// the shape the script documents first (bad_reply); then each accessor fails with
// "unexpected reply from script NAME.lua (FIELD: ...)" (Fault::internal) when the element is
// missing or of another type: a garbled field is an error, never a 0.
class ScriptFields {
  public:
    // `reply` must be an array.
    static Result<ScriptFields> of(ReplyView reply, const EmbeddedScript& script);

    size_t size() const { return list_.size(); }
    // An integer, or a string holding exactly one (a number the script read from a hash).
    Result<int64_t> int_at(size_t i, std::string_view field) const;
    // A bulk or status string.
    Result<std::string> text_at(size_t i, std::string_view field) const;
    // A string that is one of `values`: its index there.
    Result<size_t> one_of_at(size_t i, std::string_view field,
                             std::initializer_list<std::string_view> values) const;
    // A string or nil (nil: nullopt).
    Result<std::optional<std::string>> text_or_nil_at(size_t i, std::string_view field) const;
    // An array.
    Result<ScriptFields> list_at(size_t i, std::string_view field) const;
    // The error for a field whose value is not one the script documents.
    Error bad_field(std::string_view field, std::string_view what) const;
    Error bad_shape() const { return bad_reply(*script_); }

  private:
    ScriptFields(ReplyView list, const EmbeddedScript& script) : list_(list), script_(&script) {}
    ReplyView list_;
    const EmbeddedScript* script_;
};

// A holder as the scripts reply with it, from element `from` on: host, pid, user, command,
// since (server ms), fencing token.
inline constexpr size_t kHolderFields = 6;
Result<lock::HolderInfo> holder_at(const ScriptFields& fields, size_t from);

// The error of a failed history write that a script appends to its reply at `index` ("" when
// there is none, or the reply stops before it).
Result<std::string> history_error_at(const ScriptFields& fields, size_t index);

// A script answering 1 or 0 (renew.lua, sem_renew.lua, fence_commit.lua), as true or false.
Result<bool> flag_of(ReplyView reply, const EmbeddedScript& script);
// The replies of a pipeline of renewals: 1 or 0, or renew.lua's {0, host, pid, user, time ms}
// (no longer ours: broken by that `release --force`). A connection error stays as it is.
std::vector<Result<lock::Renewal>> as_renewals(std::vector<Result<Reply>> replies,
                                               const EmbeddedScript& script);

// The history error of a script that wrote one, at -v only: the operation itself succeeded.
void note_history_error(std::string_view error, std::string_view history_key);

} // namespace dlock::redis
