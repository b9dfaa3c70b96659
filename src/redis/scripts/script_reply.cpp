#include "redis/scripts/script_reply.hpp"

#include "util/log.hpp"

#include <fmt/format.h>

namespace dlock::redis {

Error bad_reply(const EmbeddedScript& script) {
    return Error{Fault::internal, fmt::format("unexpected reply from script {}.lua", script.name)};
}

Result<ScriptFields> ScriptFields::of(ReplyView reply, const EmbeddedScript& script) {
    if (!reply.is_array())
        return tl::unexpected(bad_reply(script));
    return ScriptFields(reply, script);
}

Error ScriptFields::bad_field(std::string_view field, std::string_view what) const {
    return Error{Fault::internal, fmt::format("unexpected reply from script {}.lua ({}: {})",
                                              script_->name, field, what)};
}

Result<int64_t> ScriptFields::int_at(size_t i, std::string_view field) const {
    if (i >= size())
        return tl::unexpected(bad_field(field, "missing"));
    if (const auto value = list_[i].to_int())
        return *value;
    return tl::unexpected(bad_field(field, "not an integer"));
}

Result<std::string> ScriptFields::text_at(size_t i, std::string_view field) const {
    if (i >= size())
        return tl::unexpected(bad_field(field, "missing"));
    if (!list_[i].is_string())
        return tl::unexpected(bad_field(field, "not a string"));
    return std::string(list_[i].str());
}

Result<size_t> ScriptFields::one_of_at(size_t i, std::string_view field,
                                       std::initializer_list<std::string_view> values) const {
    if (i >= size())
        return tl::unexpected(bad_field(field, "missing"));
    if (!list_[i].is_string())
        return tl::unexpected(bad_field(field, "not a string"));
    size_t index = 0;
    for (const std::string_view value : values) {
        if (list_[i].str() == value)
            return index;
        ++index;
    }
    return tl::unexpected(bad_field(field, "not one the script sends"));
}

Result<std::optional<std::string>> ScriptFields::text_or_nil_at(size_t i,
                                                                std::string_view field) const {
    if (i < size() && list_[i].is_nil())
        return std::optional<std::string>();
    TRY_ASSIGN(auto text, text_at(i, field));
    return std::optional<std::string>(std::move(text));
}

Result<ScriptFields> ScriptFields::list_at(size_t i, std::string_view field) const {
    if (i >= size())
        return tl::unexpected(bad_field(field, "missing"));
    if (!list_[i].is_array())
        return tl::unexpected(bad_field(field, "not an array"));
    return ScriptFields(list_[i], *script_);
}

Result<lock::HolderInfo> holder_at(const ScriptFields& fields, size_t from) {
    lock::HolderInfo h;
    TRY_ASSIGN(h.host, fields.text_at(from, "holder host"));
    TRY_ASSIGN(h.pid, fields.int_at(from + 1, "holder pid"));
    TRY_ASSIGN(h.user, fields.text_at(from + 2, "holder user"));
    TRY_ASSIGN(h.command, fields.text_at(from + 3, "holder command"));
    TRY_ASSIGN(h.since_ms, fields.int_at(from + 4, "holder since"));
    TRY_ASSIGN(h.fence, fields.int_at(from + 5, "holder fencing token"));
    return h;
}

Result<std::string> history_error_at(const ScriptFields& fields, size_t index) {
    if (index >= fields.size())
        return std::string();
    return fields.text_at(index, "history error");
}

Result<bool> flag_of(ReplyView reply, const EmbeddedScript& script) {
    if (!reply.is_integer() || (reply.integer() != 0 && reply.integer() != 1))
        return tl::unexpected(bad_reply(script));
    return reply.integer() == 1;
}

namespace {

// One renewal's reply (see as_renewals).
Result<lock::Renewal> renewal_of(ReplyView reply, const EmbeddedScript& script) {
    if (!reply.is_array()) {
        TRY_ASSIGN(const bool renewed, flag_of(reply, script));
        return lock::Renewal{renewed, std::nullopt};
    }
    TRY_ASSIGN(const auto f, ScriptFields::of(reply, script));
    if (f.size() != 5)
        return tl::unexpected(f.bad_shape());
    TRY_ASSIGN(const int64_t status, f.int_at(0, "status"));
    if (status != 0)
        return tl::unexpected(f.bad_field("status", "not 0"));
    lock::ForcedRelease forced;
    TRY_ASSIGN(forced.host, f.text_at(1, "forcer's host"));
    TRY_ASSIGN(forced.pid, f.int_at(2, "forcer's pid"));
    TRY_ASSIGN(forced.user, f.text_at(3, "forcer's user"));
    TRY_ASSIGN(forced.at_ms, f.int_at(4, "time of the force"));
    return lock::Renewal{false, std::move(forced)};
}

} // namespace

std::vector<Result<lock::Renewal>> as_renewals(std::vector<Result<Reply>> replies,
                                               const EmbeddedScript& script) {
    std::vector<Result<lock::Renewal>> renewals;
    renewals.reserve(replies.size());
    for (auto& reply : replies) {
        if (!reply)
            renewals.emplace_back(tl::unexpected(std::move(reply.error())));
        else
            renewals.emplace_back(renewal_of(*reply, script));
    }
    return renewals;
}

void note_history_error(std::string_view error, std::string_view history_key) {
    if (!error.empty())
        log::info("could not record history in {}: {}", history_key, error);
}

} // namespace dlock::redis
