#include "redis/script_runner.hpp"

#include <fmt/format.h>
#include <string>

namespace dlock::redis {
namespace {

bool is_noscript(const Result<Reply>& reply) {
    return !reply && !reply.error().transient && reply.error().message.starts_with("NOSCRIPT");
}

// Redis refuses every command this way while it loads its data set after a restart (LOADING)
// and while a script runs past busy-reply-threshold (BUSY); both pass.
bool server_busy(std::string_view message) {
    return message.starts_with("LOADING ") || message.starts_with("BUSY ");
}

// Names the script in a script error, and classifies LOADING and BUSY.
Result<Reply> finish(Result<Reply> reply, const EmbeddedScript& script) {
    if (reply || reply.error().transient)
        return reply;
    Error error = classify_server_error(std::move(reply.error()));
    if (error.exit_code == exit_code::internal || error.transient)
        error.message = fmt::format("script {}.lua failed: {}", script.name, error.message);
    return tl::unexpected(std::move(error));
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

} // namespace

Error classify_server_error(Error error) {
    if (!error.transient && server_busy(error.message)) {
        error.exit_code = exit_code::unavailable;
        error.transient = true;
    }
    return error;
}

Result<Reply> run_script(Connection& conn, const EmbeddedScript& script,
                         const std::vector<std::string_view>& keys,
                         const std::vector<std::string_view>& args) {
    const std::string numkeys = std::to_string(keys.size());
    std::vector<std::string_view> argv;
    argv.reserve(3 + keys.size() + args.size());
    argv.insert(argv.end(), {"EVALSHA", script.sha1, numkeys});
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());

    auto reply = conn.command(argv);
    if (is_noscript(reply)) {
        argv[0] = "EVAL";
        argv[1] = script.body;
        reply = conn.command(argv);
    }
    return finish(std::move(reply), script);
}

std::vector<Result<Reply>> run_script_pipelined(Connection& conn, const EmbeddedScript& script,
                                                std::span<const ScriptCall> calls) {
    std::vector<std::vector<std::string>> commands;
    commands.reserve(calls.size());
    for (const auto& call : calls)
        commands.push_back(evalsha(script, call));
    auto replies = conn.pipeline(commands);
    if (!replies) {
        std::vector<Result<Reply>> failed;
        for (size_t i = 0; i < calls.size(); ++i)
            failed.emplace_back(tl::unexpected(replies.error()));
        return failed;
    }

    // Not cached (first use since Redis started, or SCRIPT FLUSH): load it, then run again
    // the calls it refused; none of them ran.
    std::vector<size_t> refused;
    for (size_t i = 0; i < replies->size(); ++i)
        if (is_noscript((*replies)[i]))
            refused.push_back(i);
    if (!refused.empty()) {
        std::vector<std::vector<std::string>> again{{"SCRIPT", "LOAD", std::string(script.body)}};
        for (size_t i : refused)
            again.push_back(std::move(commands[i]));
        auto retried = conn.pipeline(again);
        for (size_t j = 0; j < refused.size(); ++j)
            (*replies)[refused[j]] = retried ? std::move((*retried)[j + 1])
                                             : Result<Reply>(tl::unexpected(retried.error()));
    }
    for (auto& reply : *replies)
        reply = finish(std::move(reply), script);
    return std::move(*replies);
}

} // namespace dlock::redis
