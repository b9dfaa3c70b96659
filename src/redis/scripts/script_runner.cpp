#include "redis/scripts/script_runner.hpp"

#include "redis/protocol/server_error.hpp"
#include "redis/scripts/server_version.hpp"

#include <fmt/format.h>
#include <string>

namespace dlock::redis {
namespace {

bool is_noscript(const Result<Reply>& reply) {
    return !reply && server_code(reply.error()) == ServerErrorCode::noscript;
}

std::vector<std::string> evalsha(const EmbeddedScript& script, const ScriptCall& call) {
    std::vector<std::string> argv;
    argv.reserve(3 + call.keys.size() + call.args.size());
    argv.emplace_back("EVALSHA");
    argv.emplace_back(script.sha1);
    argv.push_back(std::to_string(call.keys.size()));
    argv.insert(argv.end(), call.keys.begin(), call.keys.end());
    argv.insert(argv.end(), call.args.begin(), call.args.end());
    return argv;
}

// Sends `commands` (ASKING before each when asking, WAIT after them when asked) in one round
// trip; the replies of `commands` only, and WAIT's.
ScriptReplies send(Connection& conn, std::vector<std::vector<std::string>> commands,
                   const ScriptOptions& options) {
    const size_t count = commands.size();
    std::vector<std::vector<std::string>> batch;
    batch.reserve(count * 2 + 1);
    for (auto& command : commands) {
        if (options.asking)
            batch.push_back({"ASKING"});
        batch.push_back(std::move(command));
    }
    const bool wait = options.wait && options.wait->min_replicas > 0;
    if (wait)
        batch.push_back({"WAIT", std::to_string(options.wait->min_replicas),
                         std::to_string(options.wait->timeout.count())});

    ScriptReplies out;
    auto replies = conn.pipeline(batch, wait ? options.wait->timeout : Millis(0));
    if (!replies) {
        for (size_t i = 0; i < count; ++i)
            out.replies.emplace_back(tl::unexpected(replies.error()));
        if (wait)
            out.acks = tl::unexpected(replies.error());
        return out;
    }
    const size_t step = options.asking ? 2 : 1;
    for (size_t i = 0; i < count; ++i)
        out.replies.push_back(std::move((*replies)[i * step + step - 1]));
    if (wait) {
        auto& last = replies->back();
        if (!last)
            out.acks = tl::unexpected(last.error());
        else if (!last->is_integer() || last->integer() < 0)
            out.acks =
                fail(Fault::unavailable, fmt::format("{} answered WAIT with an unexpected reply",
                                                     peer_name(conn.options())));
        else
            out.acks = last->integer();
    }
    return out;
}

} // namespace

Error classify_server_error(Error error) {
    // Redis refuses every command this way while it loads its data set after a restart
    // (LOADING) and while a script runs past busy-reply-threshold (BUSY), and every write while
    // fewer replicas than its min-replicas-to-write are connected (NOREPLICAS); all pass.
    if (const auto code = server_code(error); code && server_busy(*code) && !error.transient) {
        error.fault = Fault::unavailable;
        error.transient = true;
    }
    return error;
}

Error script_error(Error error, const EmbeddedScript& script) {
    if (client_limit(error))
        return error; // the connection was refused: the script never ran
    if (error.fault == Fault::internal || error.transient)
        error.message = fmt::format("script {}.lua failed: {}", script.name, error.message);
    return error;
}

ScriptReplies run_script_pipelined(Connection& conn, const EmbeddedScript& script,
                                   std::span<const ScriptCall> calls, ScriptOptions options) {
    std::vector<std::vector<std::string>> commands;
    commands.reserve(calls.size());
    for (const auto& call : calls)
        commands.push_back(evalsha(script, call));
    ScriptReplies out = send(conn, std::move(commands), options);

    // Not cached (first use since Redis started, SCRIPT FLUSH, a Cluster node we just met): load
    // it, then run again the calls it refused; none of them ran. (WAIT is asked again after
    // them: the first one may have come before their writes.)
    std::vector<size_t> refused;
    for (size_t i = 0; i < out.replies.size(); ++i)
        if (is_noscript(out.replies[i]))
            refused.push_back(i);
    if (!refused.empty()) {
        std::vector<std::vector<std::string>> again{{"SCRIPT", "LOAD", std::string(script.body)}};
        for (size_t i : refused)
            again.push_back(evalsha(script, calls[i]));
        ScriptOptions load = options;
        load.asking = false; // ASKING goes before the scripts only, never before SCRIPT LOAD
        std::vector<std::vector<std::string>> with_asking;
        for (size_t j = 0; j < again.size(); ++j) {
            if (options.asking && j > 0)
                with_asking.push_back({"ASKING"});
            with_asking.push_back(std::move(again[j]));
        }
        ScriptReplies retried = send(conn, std::move(with_asking), load);
        // Where the scripts' replies are in `with_asking`: after SCRIPT LOAD, every other one
        // when asking.
        for (size_t j = 0; j < refused.size(); ++j) {
            const size_t at = options.asking ? 2 + 2 * j : 1 + j;
            out.replies[refused[j]] = std::move(retried.replies[at]);
        }
        if (retried.acks)
            out.acks = std::move(retried.acks);
    }
    for (auto& reply : out.replies)
        if (!reply)
            reply = tl::unexpected(
                explain_old_server(conn, classify_server_error(std::move(reply.error()))));
    return out;
}

Result<Reply> run_script(Connection& conn, const EmbeddedScript& script,
                         const std::vector<std::string_view>& keys,
                         const std::vector<std::string_view>& args) {
    const ScriptCall call{keys, args};
    auto out = run_script_pipelined(conn, script, std::span<const ScriptCall>(&call, 1));
    return std::move(out.replies.front());
}

} // namespace dlock::redis
