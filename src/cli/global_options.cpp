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
    // A regular file, or a pipe with a writer (`<(pass show redis)`); never a FIFO or a terminal,
    // which could block dlock with no bound.
    SmallFile file =
        read_small_file(path, kMaxPasswordFileSize, FileKinds{/*dev_null=*/false, /*pipes=*/true});
    if (file.error == EISDIR)
        return cannot_read("is a directory");
    if (file.error != 0)
        return cannot_read(file_error_text(file.error));
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
    // Given several times: the members of a Redlock quorum (see given()).
    redis_option_ =
        app.add_option("--redis", redis_urls,
                       "Redis URL: redis://[user[:password]@]host[:port][/db], rediss:// (TLS), "
                       "redis://h1:p1,h2:p2 (Cluster seeds), redis-sentinel://s1,s2,s3#master, or "
                       "unix:///path/to/sock[?db=N] (env DLOCK_REDIS_URL, REDIS_URL; default "
                       "redis://127.0.0.1:6379); several --redis: the members of a Redlock quorum")
            ->expected(1) // one URL per --redis: the next word is the subcommand
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
            ->option_text("URL");
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
           "a lease counts only once N replicas acknowledged it (WAIT; default auto: every "
           "live replica on Sentinel, else 0)",
           "N|auto");
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
    // Several --redis are one value, the URLs separated by spaces (as in DLOCK_REDIS_URL).
    if (redis_option_->count() > 0) {
        std::string urls;
        for (const auto& url : redis_urls)
            urls += (urls.empty() ? "" : " ") + url;
        flags.push_back({"redis", urls, "--redis"});
    }
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

Result<std::vector<redis::Deployment>> GlobalOptions::deployments() const {
    const auto& url = settings_.get("redis");
    TRY_ASSIGN(const auto urls, typed(url, config::split_urls(url.value)));
    // Several URLs are the independent members of a Redlock quorum: an odd number, so that two
    // halves can never both have a majority.
    if (urls.size() > 1 && (urls.size() < 3 || urls.size() % 2 == 0))
        return usage_error(fmt::format("{}: {} Redis URLs: a Redlock quorum needs an odd number "
                                       "of independent members, 3 or more",
                                       url.origin, urls.size()));
    std::vector<redis::Deployment> members;
    for (const auto& member : urls) {
        TRY_ASSIGN(redis::Deployment d, typed(url, redis::parse_deployment(member)));
        members.push_back(std::move(d));
    }
    return members;
}

Result<app::Target> GlobalOptions::resolve() const {
    // What every member of the deployment shares: credentials from files or the environment, TLS,
    // timeouts, --min-replicas.
    redis::Deployment shared;
    TRY_ASSIGN(const auto password, secret("password"));
    TRY_ASSIGN(const auto sentinel_password, secret("sentinel-password"));
    shared.sentinel_password = sentinel_password.value_or("");
    shared.sentinel_user = settings_.get("sentinel-user").value;

    shared.tls.ca_file = settings_.get("tls-ca-file").value;
    shared.tls.ca_dir = settings_.get("tls-ca-dir").value;
    shared.tls.cert_file = settings_.get("tls-cert").value;
    shared.tls.key_file = settings_.get("tls-key").value;
    shared.tls.server_name = settings_.get("tls-server-name").value;
    shared.tls.insecure = config::to_bool(settings_.get("tls-insecure").value).value_or(false);
    if (shared.tls.cert_file.empty() != shared.tls.key_file.empty())
        return usage_error("--tls-cert and --tls-key go together: a client certificate needs "
                           "its key");

    const auto& connect = settings_.get("connect-timeout");
    const auto& command = settings_.get("timeout");
    const auto& replicas = settings_.get("min-replicas");
    const auto& replica_timeout = settings_.get("replica-timeout");
    TRY_ASSIGN(shared.connect_timeout, typed(connect, parse_duration(connect.value)));
    TRY_ASSIGN(shared.command_timeout, typed(command, parse_duration(command.value)));
    shared.replication.automatic = replicas.value == "auto";
    if (!shared.replication.automatic) {
        TRY_ASSIGN(const int64_t min_replicas,
                   typed(replicas, parse_integer(replicas.value, 0, 1000, "--min-replicas")));
        shared.replication.min_replicas = static_cast<int>(min_replicas);
    }
    TRY_ASSIGN(shared.replication.timeout,
               typed(replica_timeout, parse_duration(replica_timeout.value)));

    app::Target out;
    TRY_ASSIGN(auto members, deployments());
    for (auto& where : members) {
        redis::Deployment d = shared;
        d.kind = where.kind;
        d.nodes = std::move(where.nodes);
        d.master_name = std::move(where.master_name);
        d.master = std::move(where.master);
        if (password)
            d.set_password(*password);
        out.quorum.push_back(std::move(d));
    }
    out.redis = out.quorum.front();
    if (out.quorum.size() == 1)
        out.quorum.clear();

    const auto& prefix_setting = settings_.get("prefix");
    TRY_ASSIGN(out.prefix, typed(prefix_setting, lock::validate_prefix(prefix_setting.value)));
    return out;
}

} // namespace dlock::cli
