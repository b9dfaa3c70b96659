#include "cli/global_options.hpp"

#include "config/keys.hpp"
#include "lock/keys.hpp"
#include "util/text.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dlock::cli {
namespace {

constexpr size_t kMaxPasswordFileSize = 64 * 1024;

// The password in `path`. A directory, an empty file or one of only a newline is an error, not
// "no password": the user meant to give one.
Result<std::string> read_password_file(const std::string& path) {
    auto cannot_read = [&](std::string_view why) {
        // A URL given by mistake may hold a password: not in the message.
        return usage_error(
            fmt::format("cannot read password file {}: {}", redact_credentials(path), why));
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cannot_read(std::strerror(errno));
    std::string password;
    struct stat st {};
    int error = ::fstat(fd, &st) == 0 ? 0 : errno;
    if (error == 0 && S_ISDIR(st.st_mode))
        error = EISDIR;
    char buffer[4096];
    while (error == 0) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = n == 0 ? 0 : errno;
            break;
        }
        password.append(buffer, static_cast<size_t>(n));
        if (password.size() > kMaxPasswordFileSize)
            error = EFBIG; // /dev/zero, or a wrong file: not a password
    }
    ::close(fd);
    if (error == EISDIR)
        return cannot_read("is a directory");
    if (error != 0)
        return cannot_read(std::strerror(error));
    // One trailing newline (as `echo secret > file` writes) is not part of the password.
    if (password.ends_with('\n'))
        password.pop_back();
    if (password.ends_with('\r'))
        password.pop_back();
    if (password.empty())
        return cannot_read("is empty");
    return password;
}

// Values were checked by load(); this only converts them, naming the origin if it still fails.
template <typename T>
Result<T> typed(const config::Setting& setting, Result<T> value) {
    if (!value)
        value.error().message = fmt::format("{}: {}", setting.origin, value.error().message);
    return value;
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
    connect_timeout_option_ =
        app.add_option("--connect-timeout", connect_timeout,
                       "give up connecting to Redis after DURATION (default 2s)")
            ->option_text("DURATION");
    timeout_option_ = app.add_option("--timeout", timeout,
                                     "give up on a Redis command after DURATION (default 2s)")
                          ->option_text("DURATION");
    app.add_flag("-v,--verbose", verbose, "more output on stderr: -v info, -vv debug");
    app.add_flag("-q,--quiet", quiet, "print errors only (not refusals or warnings)");
    auto* syslog_flag = app.add_flag("--syslog", syslog,
                                     "log to syslog as 'dlock' (facility user); stderr then only "
                                     "gets errors");
    app.add_flag("--no-syslog", no_syslog, "do not log to syslog (overrides env and config)")
        ->excludes(syslog_flag);
    log_format_option_ =
        app.add_option("--log-format", log_format, "text (default) or json: one object per line")
            ->option_text("FORMAT");
}

std::vector<config::FlagValue> GlobalOptions::given() const {
    std::vector<config::FlagValue> flags;
    auto add = [&](CLI::Option* option, const char* key, const std::string& value) {
        if (option->count() > 0)
            flags.push_back({key, value, option->get_name()});
    };
    add(redis_option_, "redis", redis_url);
    add(password_file_option_, "password-file", password_file);
    add(prefix_option_, "prefix", prefix);
    add(connect_timeout_option_, "connect-timeout", connect_timeout);
    add(timeout_option_, "timeout", timeout);
    add(log_format_option_, "log-format", log_format);
    if (syslog)
        flags.push_back({"syslog", "true", "--syslog"});
    if (no_syslog)
        flags.push_back({"syslog", "false", "--no-syslog"});
    if (quiet)
        flags.push_back({"log-level", "error", "-q"});
    else if (verbose > 0)
        flags.push_back(
            {"log-level", verbose == 1 ? "info" : "debug", verbose == 1 ? "-v" : "-vv"});
    return flags;
}

Result<void> GlobalOptions::load() {
    TRY_ASSIGN(settings_,
               config::load(given(), [](const char* name) { return std::getenv(name); }));
    log::setup(log::Options{
        config::to_level(settings_.get("log-level").value).value_or(log::Level::warn),
        config::to_format(settings_.get("log-format").value).value_or(log::Format::text),
        config::to_bool(settings_.get("syslog").value).value_or(false)});
    for (const auto& source : settings_.sources)
        if (!source.skipped.empty())
            log::info("skipped config file {}: {} (a system file this user cannot read)",
                      source.path, source.skipped);
    return {};
}

Result<app::Target> GlobalOptions::resolve() const {
    app::Target out;
    const auto& url = settings_.get("redis");
    TRY_ASSIGN(out.redis.endpoint, typed(url, redis::parse_url(url.value)));

    // A password or password-file from anywhere beats a password in the URL.
    if (const auto& file = settings_.get("password-file"); file.is_set()) {
        TRY_ASSIGN(out.redis.endpoint.password, typed(file, read_password_file(file.value)));
    } else if (const auto& password = settings_.get("password"); password.is_set()) {
        out.redis.endpoint.password = password.value;
    }

    const auto& prefix_setting = settings_.get("prefix");
    TRY_ASSIGN(out.prefix, typed(prefix_setting, lock::validate_prefix(prefix_setting.value)));

    const auto& connect = settings_.get("connect-timeout");
    const auto& command = settings_.get("timeout");
    TRY_ASSIGN(out.redis.connect_timeout, typed(connect, parse_duration(connect.value)));
    TRY_ASSIGN(out.redis.command_timeout, typed(command, parse_duration(command.value)));
    return out;
}

} // namespace dlock::cli
