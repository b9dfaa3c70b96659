#include "redis/script_runner.hpp"

#include <fmt/format.h>
#include <string>

namespace dlock::redis {

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
    if (!reply && !reply.error().transient && reply.error().message.starts_with("NOSCRIPT")) {
        argv[0] = "EVAL";
        argv[1] = script.body;
        reply = conn.command(argv);
    }
    if (!reply && !reply.error().transient && reply.error().exit_code == exit_code::internal)
        reply.error().message =
            fmt::format("script {}.lua failed: {}", script.name, reply.error().message);
    return reply;
}

} // namespace dlock::redis
