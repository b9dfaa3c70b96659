#include "redis/redlock/quorum_status.hpp"

#include "lock/quorum.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace dlock::redis {
namespace {

// One vote per member for the exclusive holder of `name` that it reports.
void count_votes(const std::vector<Result<lock::StatusReport>>& reports, const std::string& name,
                 lock::MajorityHolder& best) {
    std::map<std::tuple<std::string, int64_t, std::string>, size_t> votes;
    for (const auto& report : reports) {
        if (!report)
            continue;
        for (const auto& s : report->names) {
            if (s.name != name || s.lock.state != lock::LockStatus::State::exclusive ||
                s.lock.holders.empty())
                continue;
            const auto& h = s.lock.holders.front();
            const size_t n = ++votes[{h.info.host, h.info.pid, h.info.command}];
            if (n > best.members) {
                best.members = n;
                best.holder = h;
                best.now_ms = report->server_now_ms;
            } else if (n == best.members && best.holder && h.info.fence > best.holder->info.fence) {
                best.holder->info.fence = h.info.fence; // the committed token is the largest
            }
        }
    }
}

// Under Redlock every member records the same event in its own stream, at its own time. Entries
// of different members with the same event, host, pid and mode less than kSameEvent apart are
// one event: shown once, newest first, with "members": "K/N", and the largest token (a new
// holder's token is the largest counter of its majority).
constexpr int64_t kSameEventMs = 2000;

} // namespace

std::vector<lock::HistoryEntry>
merge_members(const std::vector<Result<std::vector<lock::HistoryEntry>>>& per_member,
              size_t count) {
    struct Seen {
        lock::HistoryEntry entry;
        std::vector<size_t> members;
    };
    std::vector<std::pair<size_t, const lock::HistoryEntry*>> all;
    for (size_t m = 0; m < per_member.size(); ++m)
        if (per_member[m])
            for (const auto& e : *per_member[m])
                all.emplace_back(m, &e);
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return a.second->time_ms > b.second->time_ms;
    });
    auto same = [](const lock::HistoryEntry& a, const lock::HistoryEntry& b) {
        for (std::string_view f : {"event", "host", "pid", "mode", "permit"})
            if (a.field(f) != b.field(f))
                return false;
        return std::abs(a.time_ms - b.time_ms) < kSameEventMs;
    };
    std::vector<Seen> events;
    for (const auto& [member, e] : all) {
        auto found = std::find_if(events.begin(), events.end(), [&](const Seen& s) {
            return same(s.entry, *e) &&
                   std::find(s.members.begin(), s.members.end(), member) == s.members.end();
        });
        if (found == events.end()) {
            events.push_back({*e, {member}});
            continue;
        }
        found->members.push_back(member);
        if (e->number("fence") > found->entry.number("fence"))
            for (auto& [k, v] : found->entry.fields)
                if (k == "fence")
                    v = std::string(e->field("fence"));
    }
    std::vector<lock::HistoryEntry> out;
    for (auto& seen : events) {
        if (out.size() == count)
            break;
        seen.entry.fields.emplace_back(
            "members", fmt::format("{}/{}", seen.members.size(), per_member.size()));
        out.push_back(std::move(seen.entry));
    }
    return out;
}

std::vector<lock::MajorityHolder> majorities(const std::vector<Result<lock::StatusReport>>& reports,
                                             const std::vector<std::string>& names, size_t total) {
    std::vector<lock::MajorityHolder> out;
    for (const auto& name : names) {
        lock::MajorityHolder best{name, 0, std::nullopt, 0, false};
        count_votes(reports, name, best);
        best.held = best.holder && best.members >= lock::quorum(total);
        out.push_back(std::move(best));
    }
    return out;
}

} // namespace dlock::redis
