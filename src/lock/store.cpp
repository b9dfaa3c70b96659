#include "lock/store.hpp"

#include <charconv>
#include <fmt/format.h>

namespace dlock::lock {

Result<void> require(bool offered, const Capabilities& capabilities, std::string_view what) {
    if (offered)
        return {};
    return usage_error(fmt::format("{} {}", what, capabilities.lacking));
}

Result<CompatReading> Store::compat_status(CompatFormat, const std::string&) {
    return usage_error(fmt::format("--compat {}", capabilities().lacking));
}

Result<CompatReading> Store::compat_force_release(CompatFormat, const std::string&, const Keys&,
                                                  const HolderInfo&) {
    return usage_error(fmt::format("--compat {}", capabilities().lacking));
}

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

std::optional<HolderInfo> HistoryEntry::other() const {
    if (field("other_host").empty() && field("other_pid").empty())
        return std::nullopt;
    return HolderInfo{std::string(field("other_host")), number("other_pid"),
                      std::string(field("other_user")), std::string(field("other_command")),
                      number("other_since_ms"),         number("other_fence")};
}

std::vector<const NameStatus*> StatusReading::of(std::string_view name) const {
    std::vector<const NameStatus*> found;
    for (const auto& member : members)
        if (member.report)
            for (const auto& s : member.report->names)
                if (s.name == name)
                    found.push_back(&s);
    return found;
}

std::optional<Pause> StatusReading::pause_of(std::string_view name) const {
    for (const NameStatus* s : of(name))
        if (s->paused)
            return s->paused;
    return std::nullopt;
}

Result<int64_t> StatusReading::server_now_ms() const {
    std::string why = "no member answered";
    for (const auto& member : members) {
        if (member.report)
            return member.report->server_now_ms;
        why = member.report.error().message;
    }
    return fail(Fault::unavailable, why);
}

} // namespace dlock::lock
