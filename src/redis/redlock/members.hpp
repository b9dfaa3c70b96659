#pragma once

#include "lock/quorum.hpp"
#include "redis/scripts/script_session.hpp"
#include "redis/topology/deployment.hpp"
#include "util/fan_out.hpp"

#include <fmt/format.h>
#include <functional>
#include <string>
#include <vector>

namespace dlock::redis {

// The inspection calls under Redlock (status, history, release --force) ask every member.

// "member 2 (h:6380)".
std::string member_name(const std::vector<Deployment>& members, size_t member);

// Runs `ask` on a session of each member at once; one result per member, in order. When fewer
// than a majority answered, an `unavailable` Error naming each failure.
template <typename T>
Result<std::vector<Result<T>>>
on_every_member(const std::vector<Deployment>& members,
                const std::function<Result<T>(ScriptSession&)>& ask) {
    const size_t n = members.size();
    std::vector<Result<T>> answers(n);
    fan_out(n, [&](size_t i) {
        ScriptSession session(members[i]);
        answers[i] = ask(session);
    });
    std::string failures;
    size_t answered = 0;
    bool transient = false;
    for (size_t i = 0; i < n; ++i) {
        if (answers[i]) {
            ++answered;
            continue;
        }
        transient = transient || answers[i].error().transient;
        failures += fmt::format("{}{}: {}", failures.empty() ? "" : "; ", member_name(members, i),
                                answers[i].error().message);
    }
    if (answered < lock::quorum(n))
        return fail(Fault::unavailable,
                    fmt::format("no majority of the {} Redis members answered ({} needed): {}", n,
                                lock::quorum(n), failures),
                    transient);
    return answers;
}

} // namespace dlock::redis
