#include "redis/protocol/command_stats.hpp"

#include <charconv>

namespace dlock::redis {

CommandCalls parse_command_stats(std::string_view info) {
    // Lines look like "cmdstat_evalsha:calls=12,usec=34,...".
    CommandCalls calls;
    constexpr std::string_view prefix = "cmdstat_", key = ":calls=";
    size_t pos = 0;
    while (pos < info.size()) {
        size_t end = info.find('\n', pos);
        std::string_view line = info.substr(pos, end == std::string_view::npos ? end : end - pos);
        pos = end == std::string_view::npos ? info.size() : end + 1;
        if (!line.starts_with(prefix))
            continue;
        size_t colon = line.find(key);
        if (colon == std::string_view::npos)
            continue;
        int64_t n = 0;
        std::string_view digits = line.substr(colon + key.size());
        std::from_chars(digits.data(), digits.data() + digits.size(), n);
        calls[std::string(line.substr(prefix.size(), colon - prefix.size()))] = n;
    }
    return calls;
}

Result<CommandCalls> command_stats(Connection& conn) {
    auto reply = conn.command({"INFO", "commandstats"});
    TRY(reply);
    return parse_command_stats(reply->str());
}

CommandCalls calls_between(const CommandCalls& before, const CommandCalls& after) {
    CommandCalls delta;
    for (const auto& [name, n] : after) {
        auto it = before.find(name);
        int64_t d = n - (it == before.end() ? 0 : it->second);
        if (d > 0)
            delta[name] = d;
    }
    return delta;
}

} // namespace dlock::redis
