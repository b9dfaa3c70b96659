#include "redis/stores/history.hpp"

#include <charconv>

namespace dlock::redis {
Result<void> append_history(ScriptSession& session, const std::string& key, const std::string& runs,
                            const HistoryFields& fields) {
    std::vector<std::string_view> args;
    for (const auto& [name, value] : fields)
        args.insert(args.end(), {name, value});
    auto reply = runs.empty() ? session.run(scripts::history_add, {key}, args)
                              : session.run(scripts::history_add, {key, runs}, args);
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
