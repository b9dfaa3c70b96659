#include "cli/global_options.hpp"

#include "cli/numbers.hpp"
#include "config/keys.hpp"
#include "lock/keys.hpp"
#include "util/small_file.hpp"
#include "util/text.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

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
    SmallFile file = read_small_file(path, kMaxPasswordFileSize, true);
    if (file.error == EISDIR)
        return cannot_read("is a directory");
    if (file.error != 0)
        return cannot_read(std::strerror(file.error));
    std::string password = std::move(file.text);
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
    auto valued = [&](const char* name, const char* key, std::string& value, const char* help,
                      const char* metavar) {
        auto* option = app.add_option(name, value, help)->option_text(metavar);
        valued_.push_back({option, key, &value});
        return option;
    };
    valued("--redis", "redis", redis_url,
           "Redis URL: redis://[user[:password]@]host[:port][/db], rediss:// (TLS), "
           "redis://h1:p1,h2:p2 (Cluster seeds), redis-sentinel://s1,s2,s3#master, or "
           "unix:///path/to/sock[?db=N] (env DLOCK_REDIS_URL, REDIS_URL; default "
           "redis://127.0.0.1:6379)",
           "URL");
    valued("--password-file", "password-file", password_file,
           "read the Redis password from FILE (or set DLOCK_REDIS_PASSWORD)", "FILE");
    valued("--sentinel-user", "sentinel-user", sentinel_user,
           "user name for the sentinels of a redis-sentinel:// URL", "USER");
    valued("--sentinel-password-file", "sentinel-password-file", sentinel_password_file,
           "read the sentinels' password from FILE (or set DLOCK_SENTINEL_PASSWORD)", "FILE");
    valued("--tls-ca-file", "tls-ca-file", tls_ca_file,
           "verify rediss:// servers against the CA certificates in FILE (PEM; default: the "
           "system's)",
           "FILE");
    valued("--tls-ca-dir", "tls-ca-dir", tls_ca_dir,
           "verify rediss:// servers against the hashed CA directory DIR", "DIR");
    valued("--tls-cert", "tls-cert", tls_cert,
           "client certificate (PEM) for servers that require one (with --tls-key)", "FILE");
    valued("--tls-key", "tls-key", tls_key, "private key (PEM) of --tls-cert", "FILE");
    valued("--tls-server-name", "tls-server-name", tls_server_name,
           "the name to send (SNI) and verify in the server's certificate (default: the host "
           "of the URL)",
           "NAME");
    app.add_flag("--tls-insecure", tls_insecure,
                 "do not verify the server's certificate (warned on every run)");
    valued("--min-replicas", "min-replicas", min_replicas,
           "a lease counts only once N replicas acknowledged it (WAIT; default 0: off)", "N");
    valued("--replica-timeout", "replica-timeout", replica_timeout,
           "how long --min-replicas waits for the replicas (default 1s)", "DURATION");
    valued("--prefix", "prefix", prefix, "key prefix (env DLOCK_PREFIX; default dlock)", "PREFIX");
    valued("--connect-timeout", "connect-timeout", connect_timeout,
           "give up connecting to Redis after DURATION (default 2s)", "DURATION");
    valued("--timeout", "timeout", timeout,
           "give up on a Redis command after DURATION (default 2s)", "DURATION");
    app.add_flag("-v,--verbose", verbose, "more output on stderr: -v info, -vv debug");
    app.add_flag("-q,--quiet", quiet, "print errors only (not refusals or warnings)");
    auto* syslog_flag = app.add_flag("--syslog", syslog,
                                     "log to syslog as 'dlock' (facility user); stderr then only "
                                     "gets errors");
    app.add_flag("--no-syslog", no_syslog, "do not log to syslog (overrides env and config)")
        ->excludes(syslog_flag);
    valued("--log-format", "log-format", log_format, "text (default) or json: one object per line",
           "FORMAT");
}

std::vector<config::FlagValue> GlobalOptions::given() const {
    std::vector<config::FlagValue> flags;
    for (const auto& v : valued_)
        if (v.option->count() > 0)
            flags.push_back({v.key, *v.value, v.option->get_name()});
    if (tls_insecure)
        flags.push_back({"tls-insecure", "true", "--tls-insecure"});
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
            log::info("skipped config file {}: {} (this user cannot read it)", source.path,
                      source.skipped);
    return {};
}

Result<std::optional<std::string>> GlobalOptions::secret(std::string_view key) const {
    const auto file_key = fmt::format("{}-file", key);
    if (const auto& file = settings_.get(file_key); file.is_set()) {
        TRY_ASSIGN(auto password, typed(file, read_password_file(file.value)));
        return std::optional<std::string>(std::move(password));
    }
    if (const auto& password = settings_.get(key); password.is_set())
        return std::optional<std::string>(password.value);
    return std::optional<std::string>();
}

Result<app::Target> GlobalOptions::resolve() const {
    app::Target out;
    const auto& url = settings_.get("redis");
    TRY_ASSIGN(const auto urls, typed(url, config::split_urls(url.value)));
    if (urls.size() > 1)
        return usage_error(fmt::format("{}: several Redis URLs (a Redlock quorum) are not "
                                       "supported yet",
                                       url.origin));
    TRY_ASSIGN(out.redis, typed(url, redis::parse_deployment(urls.front())));
    redis::Deployment& d = out.redis;

    // A password or password-file from anywhere beats a password in the URL.
    TRY_ASSIGN(const auto password, secret("password"));
    if (password)
        d.set_password(*password);
    TRY_ASSIGN(const auto sentinel_password, secret("sentinel-password"));
    d.sentinel_password = sentinel_password.value_or("");
    d.sentinel_user = settings_.get("sentinel-user").value;

    d.tls.ca_file = settings_.get("tls-ca-file").value;
    d.tls.ca_dir = settings_.get("tls-ca-dir").value;
    d.tls.cert_file = settings_.get("tls-cert").value;
    d.tls.key_file = settings_.get("tls-key").value;
    d.tls.server_name = settings_.get("tls-server-name").value;
    d.tls.insecure = config::to_bool(settings_.get("tls-insecure").value).value_or(false);
    if (d.tls.cert_file.empty() != d.tls.key_file.empty())
        return usage_error("--tls-cert and --tls-key go together: a client certificate needs "
                           "its key");

    const auto& prefix_setting = settings_.get("prefix");
    TRY_ASSIGN(out.prefix, typed(prefix_setting, lock::validate_prefix(prefix_setting.value)));

    const auto& connect = settings_.get("connect-timeout");
    const auto& command = settings_.get("timeout");
    const auto& replicas = settings_.get("min-replicas");
    const auto& replica_timeout = settings_.get("replica-timeout");
    TRY_ASSIGN(d.connect_timeout, typed(connect, parse_duration(connect.value)));
    TRY_ASSIGN(d.command_timeout, typed(command, parse_duration(command.value)));
    TRY_ASSIGN(const int64_t min_replicas,
               typed(replicas, parse_integer(replicas.value, 0, 1000, "--min-replicas")));
    d.replication.min_replicas = static_cast<int>(min_replicas);
    TRY_ASSIGN(d.replication.timeout,
               typed(replica_timeout, parse_duration(replica_timeout.value)));
    return out;
}

} // namespace dlock::cli
