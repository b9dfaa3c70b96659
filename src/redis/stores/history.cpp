#include "redis/stores/history.hpp"

#include <charconv>

namespace dlock::redis {
std::string_view HistoryEntry::field(std::string_view name) const {
    for (const auto& [k, v] : fields)
        if (k == name)
            return v;
    return {};
}

int64_t HistoryEntry::number(std::string_view name) const {
    const auto text = field(name);
    int64_t n = 0;
    std::from_chars(text.data(), text.data() + text.size(), n);
    return n;
}

std::optional<lock::HolderInfo> HistoryEntry::other() const {
    if (field("other_host").empty() && field("other_pid").empty())
        return std::nullopt;
    return lock::HolderInfo{std::string(field("other_host")), number("other_pid"),
                            std::string(field("other_user")), std::string(field("other_command")),
                            number("other_since_ms"),         number("other_fence")};
}

Result<void> append_history(ScriptSession& session, const std::string& key,
                            const HistoryFields& fields) {
    std::vector<std::string_view> args;
    for (const auto& [name, value] : fields)
        args.insert(args.end(), {name, value});
    auto reply = session.run(scripts::history_add, {key}, args);
    TRY(reply);
    return {};
}

Result<std::vector<HistoryEntry>> read_history(ScriptSession& session, const std::string& key,
                                               int64_t count) {
    const std::string n = std::to_string(count);
    auto reply = session.command(key, {"XREVRANGE", key, "+", "-", "COUNT", n});
    TRY(reply);
    std::vector<HistoryEntry> out;
    for (size_t i = 0; i < reply->size(); ++i) {
        const auto item = (*reply)[i];
        if (item.size() != 2)
            return fail(Fault::internal, "unexpected reply from XREVRANGE");
        HistoryEntry entry;
        entry.id = std::string(item[0].str());
        std::from_chars(entry.id.data(), entry.id.data() + entry.id.size(), entry.time_ms);
        const auto pairs = item[1];
        for (size_t f = 0; f + 1 < pairs.size(); f += 2)
            entry.fields.emplace_back(std::string(pairs[f].str()), std::string(pairs[f + 1].str()));
        out.push_back(std::move(entry));
    }
    return out;
}

} // namespace dlock::redis
