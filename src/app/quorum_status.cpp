#include "app/quorum_status.hpp"

#include "app/quorum.hpp"
#include "app/status_view.hpp"
#include "lock/describe.hpp"
#include "redis/stores/status_reader.hpp"
#include "util/exit_codes.hpp"
#include "util/json.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

#include <map>
#include <set>
#include <tuple>

namespace dlock::app {
namespace {

// The exclusive holder of a name as the majority sees it.
struct Majority {
    std::string name;
    size_t members = 0;                       // that agree on `holder` (the most that agree)
    std::optional<lock::HolderStatus> holder; // the newest report of it
    int64_t now_ms = 0;                       // of that report
};

std::vector<Majority> majorities(const std::vector<Result<lock::StatusReport>>& reports,
                                 const std::set<std::string>& names) {
    std::vector<Majority> out;
    for (const auto& name : names) {
        Majority best{name, 0, std::nullopt, 0};
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
                } else if (n == best.members && best.holder &&
                           h.info.fence > best.holder->info.fence) {
                    best.holder->info.fence = h.info.fence; // the committed token is the largest
                }
            }
        }
        out.push_back(std::move(best));
    }
    return out;
}

std::string majority_json(const Majority& m, size_t quorum) {
    std::string holder = "null";
    if (m.holder && m.members >= quorum) {
        const auto& i = m.holder->info;
        holder = fmt::format("{{\"host\":{},\"pid\":{},\"user\":{},\"command\":{},"
                             "\"since_ms\":{},\"fence\":{}}}",
                             json_string(i.host), i.pid, json_string(i.user),
                             json_string(i.command), i.since_ms, i.fence);
    }
    return fmt::format("{{\"name\":{},\"held\":{},\"members\":{},\"holder\":{}}}",
                       json_string(m.name), m.members >= quorum, m.members, holder);
}

std::string majority_line(const Majority& m, size_t quorum, size_t total) {
    if (m.holder && m.members >= quorum)
        return fmt::format("{}: held by {} on {} of {} members\n", one_line(m.name),
                           lock::describe_holder(m.holder->info, m.now_ms), m.members, total);
    if (m.members > 0)
        return fmt::format("{}: not held (held by one holder on only {} of {} members)\n",
                           one_line(m.name), m.members, total);
    return fmt::format("{}: not held\n", one_line(m.name));
}

} // namespace

Result<int> quorum_status(const Target& target, const StatusOptions& options) {
    const size_t total = target.quorum.size(), quorum = lock::quorum(total);
    auto read = [&](redis::ScriptSession& session) -> Result<lock::StatusReport> {
        std::vector<std::string> names = options.names;
        if (names.empty()) {
            TRY_ASSIGN(names, redis::scan_names(session, target.prefix));
        }
        return redis::read_status(session, target.prefix, names);
    };
    TRY_ASSIGN(const auto reports, on_every_member<lock::StatusReport>(target, read));
    std::set<std::string> names(options.names.begin(), options.names.end());
    for (const auto& report : reports)
        if (report)
            for (const auto& s : report->names)
                if (s.in_use() || !options.names.empty())
                    names.insert(s.name);
    if (options.names_only) {
        for (const auto& name : names)
            out::print("{}\n", name);
        return names.empty() ? exit_code::nothing : exit_code::ok;
    }

    const auto held = majorities(reports, names);
    if (options.json) {
        std::string members, majority;
        for (size_t i = 0; i < total; ++i)
            members += fmt::format(
                "{}{{\"member\":{},{}}}", i ? "," : "", json_string(target.quorum[i].display()),
                reports[i] ? "\"status\":" + status_json(*reports[i])
                           : "\"error\":" + json_string(reports[i].error().message));
        for (const auto& m : held) {
            if (!majority.empty())
                majority += ',';
            majority += majority_json(m, quorum);
        }
        out::print("{{\"members\":[{}],\"quorum\":{},\"majority\":[{}]}}\n", members, quorum,
                   majority);
    } else {
        std::string text;
        for (size_t i = 0; i < total; ++i) {
            text += member_name(target, i) + ":\n";
            if (!reports[i])
                text += "  unreachable: " + reports[i].error().message + "\n";
            else if (reports[i]->names.empty())
                text += "  nothing under prefix " + target.prefix + "\n";
            else
                text += status_table(*reports[i]);
        }
        text += fmt::format("majority ({} of {} members):\n", quorum, total);
        if (held.empty())
            text += "  nothing under prefix " + target.prefix + "\n";
        for (const auto& m : held)
            text += "  " + majority_line(m, quorum, total);
        out::write(text);
    }
    for (const auto& m : held)
        if (m.holder && m.members >= quorum)
            return exit_code::ok;
    return exit_code::nothing;
}

} // namespace dlock::app
