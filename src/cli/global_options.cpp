#include "cli/global_options.hpp"

#include "lock/keys.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace dlock::cli {
namespace {

std::string env_or(const char* name, std::string fallback) {
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : fallback;
}

Result<std::string> read_password_file(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        return usage_error(
            fmt::format("cannot read password file {}: {}", path, std::strerror(errno)));
    std::stringstream content;
    content << in.rdbuf();
    std::string password = content.str();
    // One trailing newline (as `echo secret > file` writes) is not part of the password.
    if (password.ends_with('\n'))
        password.pop_back();
    if (password.ends_with('\r'))
        password.pop_back();
    return password;
}

Result<Millis> positive_duration(const std::string& option, const std::string& text) {
    auto d = parse_duration(text);
    if (!d)
        return usage_error(fmt::format("{}: {}", option, d.error().message));
    if (d->count() <= 0)
        return usage_error(fmt::format("{} must be greater than zero", option));
    return *d;
}

} // namespace

void GlobalOptions::add_to(CLI::App& app) {
    redis_option_ =
        app.add_option("--redis", redis_url,
                       "Redis URL: redis://[user[:password]@]host[:port][/db] or "
                       "unix:///path/to/sock[?db=N] (env DLOCK_REDIS_URL, REDIS_URL; default "
                       "redis://127.0.0.1:6379)")
            ->option_text("URL");
    password_file_option_ =
        app.add_option("--password-file", password_file,
                       "read the Redis password from FILE (or set DLOCK_REDIS_PASSWORD)")
            ->option_text("FILE");
    prefix_option_ =
        app.add_option("--prefix", prefix, "key prefix (env DLOCK_PREFIX; default dlock)")
            ->option_text("PREFIX");
    app.add_option("--connect-timeout", connect_timeout,
                   "give up connecting to Redis after DURATION (default 2s)")
        ->option_text("DURATION");
    app.add_option("--timeout", timeout, "give up on a Redis command after DURATION (default 2s)")
        ->option_text("DURATION");
    app.add_flag("-v,--verbose", verbose, "more output on stderr: -v info, -vv debug");
    app.add_flag("-q,--quiet", quiet, "print errors only (not refusals or warnings)");
}

Result<app::Connection> GlobalOptions::resolve() const {
    app::Connection out;
    std::string url = redis_url;
    if (redis_option_->count() == 0)
        url = env_or("DLOCK_REDIS_URL", env_or("REDIS_URL", "redis://127.0.0.1:6379"));
    auto endpoint = redis::parse_url(url);
    if (!endpoint)
        return tl::unexpected(endpoint.error());
    out.redis.endpoint = std::move(*endpoint);

    if (password_file_option_->count() > 0) {
        auto password = read_password_file(password_file);
        if (!password)
            return tl::unexpected(password.error());
        out.redis.endpoint.password = std::move(*password);
    } else if (const char* env = std::getenv("DLOCK_REDIS_PASSWORD"); env && *env) {
        out.redis.endpoint.password = env;
    }

    auto checked_prefix = lock::validate_prefix(
        prefix_option_->count() == 0 ? env_or("DLOCK_PREFIX", "dlock") : prefix);
    if (!checked_prefix)
        return tl::unexpected(checked_prefix.error());
    out.prefix = std::move(*checked_prefix);

    auto connect = positive_duration("--connect-timeout", connect_timeout);
    if (!connect)
        return tl::unexpected(connect.error());
    auto command = positive_duration("--timeout", timeout);
    if (!command)
        return tl::unexpected(command.error());
    out.redis.connect_timeout = *connect;
    out.redis.command_timeout = *command;
    return out;
}

} // namespace dlock::cli
