#include "cli/option_table.hpp"

#include "lock/keys.hpp"
#include "redis/topology/deployment.hpp"

#include <algorithm>
#include <array>

namespace dlock::cli {
namespace {

using config::Form;
using config::Option;

// One URL, or several separated by spaces: the members of a Redlock quorum.
Result<void> check_urls(std::string_view value) {
    TRY(split_urls(value));
    return {};
}

Result<void> check_prefix(std::string_view value) {
    TRY(lock::validate_prefix(value));
    return {};
}

constexpr std::array kOptions{
    Option{.name = "redis",
           .form = Form::values,
           .flag = "--redis",
           .metavar = "URL",
           .help = "Redis URL: redis://[user[:password]@]host[:port][/db], rediss:// (TLS), "
                   "redis://h1:p1,h2:p2 (Cluster seeds), redis-sentinel://s1,s2,s3#master, or "
                   "unix:///path/to/sock[?db=N] (env {env}, {fallback_env}; default {default}); "
                   "several --redis: the members of a Redlock quorum",
           .env = "DLOCK_REDIS_URL",
           .fallback_env = "REDIS_URL",
           .default_value = "redis://127.0.0.1:6379",
           .urls = true,
           .check = check_urls},
    Option{.name = "password", .env = "DLOCK_REDIS_PASSWORD", .secret = true},
    Option{.name = "password-file",
           .form = Form::value,
           .flag = "--password-file",
           .metavar = "FILE",
           .help = "read the Redis password from FILE (or set DLOCK_REDIS_PASSWORD)",
           .env = "DLOCK_REDIS_PASSWORD_FILE"},
    Option{.name = "sentinel-user",
           .form = Form::value,
           .flag = "--sentinel-user",
           .metavar = "USER",
           .help = "user name for the sentinels of a redis-sentinel:// URL",
           .env = "DLOCK_SENTINEL_USER",
           .group = "Sentinel options"},
    Option{.name = "sentinel-password", .env = "DLOCK_SENTINEL_PASSWORD", .secret = true},
    Option{.name = "sentinel-password-file",
           .form = Form::value,
           .flag = "--sentinel-password-file",
           .metavar = "FILE",
           .help = "read the sentinels' password from FILE (or set DLOCK_SENTINEL_PASSWORD)",
           .env = "DLOCK_SENTINEL_PASSWORD_FILE",
           .group = "Sentinel options"},
    Option{.name = "tls-ca-file",
           .form = Form::value,
           .flag = "--tls-ca-file",
           .metavar = "FILE",
           .help = "verify rediss:// servers against the CA certificates in FILE (PEM; default: "
                   "the system's)",
           .env = "DLOCK_TLS_CA_FILE",
           .group = "TLS options"},
    Option{.name = "tls-ca-dir",
           .form = Form::value,
           .flag = "--tls-ca-dir",
           .metavar = "DIR",
           .help = "verify rediss:// servers against the hashed CA directory DIR",
           .env = "DLOCK_TLS_CA_DIR",
           .group = "TLS options"},
    Option{.name = "tls-cert",
           .form = Form::value,
           .flag = "--tls-cert",
           .metavar = "FILE",
           .help = "client certificate (PEM) for servers that require one (with --tls-key)",
           .env = "DLOCK_TLS_CERT",
           .group = "TLS options"},
    Option{.name = "tls-key",
           .form = Form::value,
           .flag = "--tls-key",
           .metavar = "FILE",
           .help = "private key (PEM) of --tls-cert",
           .env = "DLOCK_TLS_KEY",
           .group = "TLS options"},
    Option{.name = "tls-server-name",
           .form = Form::value,
           .flag = "--tls-server-name",
           .metavar = "NAME",
           .help = "the name to send (SNI) and verify in the server's certificate (default: the "
                   "host of the URL)",
           .env = "DLOCK_TLS_SERVER_NAME",
           .group = "TLS options"},
    Option{.name = "tls-insecure",
           .form = Form::toggle,
           .flag = "--tls-insecure",
           .help = "do not verify the server's certificate (warned on every run)",
           .env = "DLOCK_TLS_INSECURE",
           .default_value = "false",
           .check = config::check_bool,
           .group = "TLS options"},
    Option{.name = "min-replicas",
           .form = Form::value,
           .flag = "--min-replicas",
           .metavar = "N|auto",
           .help = "a lease counts only once N replicas acknowledged it (WAIT; default {default}: "
                   "every live replica on Sentinel, else 0)",
           .env = "DLOCK_MIN_REPLICAS",
           .default_value = "auto",
           .check = config::check_replicas,
           .group = "Replica options"},
    Option{.name = "replica-timeout",
           .form = Form::value,
           .flag = "--replica-timeout",
           .metavar = "DURATION",
           .help = "how long --min-replicas waits for the replicas (default {default})",
           .env = "DLOCK_REPLICA_TIMEOUT",
           .default_value = "1s",
           .check = config::check_timeout,
           .group = "Replica options"},
    Option{.name = "prefix",
           .form = Form::value,
           .flag = "--prefix",
           .metavar = "PREFIX",
           .help = "key prefix (env {env}; default {default})",
           .env = "DLOCK_PREFIX",
           .default_value = "dlock",
           .check = check_prefix},
    Option{.name = "connect-timeout",
           .form = Form::value,
           .flag = "--connect-timeout",
           .metavar = "DURATION",
           .help = "give up connecting to Redis after DURATION (default {default})",
           .env = "DLOCK_CONNECT_TIMEOUT",
           .default_value = "2s",
           .check = config::check_timeout,
           .group = "Timeout options"},
    Option{.name = "redis-timeout",
           .form = Form::value,
           .flag = "--redis-timeout",
           .metavar = "DURATION",
           .help = "give up on a Redis command after DURATION (default {default})",
           .env = "DLOCK_REDIS_TIMEOUT",
           .default_value = "2s",
           .check = config::check_timeout,
           .group = "Timeout options",
           .former = {.key = "timeout",
                      .flag = "--timeout",
                      .env = "DLOCK_TIMEOUT",
                      .note = "the Redis command timeout; to wait for the lock: dlock run -w "
                              "DURATION, or run --timeout DURATION"}},
    Option{.name = "log-level",
           .form = Form::verbosity,
           .flag = "-v,--verbose",
           .help = "more output on stderr: -v info, -vv debug",
           .off_flag = "-q,--quiet",
           .off_help = "print errors only (not refusals or warnings)",
           .env = "DLOCK_LOG_LEVEL",
           .default_value = "warn",
           .check = config::check_level},
    // Listed after the syslog switches in --help, as it always was.
    Option{.name = "log-format",
           .form = Form::value,
           .flag = "--log-format",
           .metavar = "FORMAT",
           .help = "{default} (default) or json: one object per line",
           .env = "DLOCK_LOG_FORMAT",
           .default_value = "text",
           .check = config::check_format,
           .help_after = "syslog"},
    Option{.name = "syslog",
           .form = Form::toggle,
           .flag = "--syslog",
           .help = "log to syslog as 'dlock' (facility user); stderr then only gets errors",
           .off_flag = "--no-syslog",
           .off_help = "do not log to syslog (overrides env and config)",
           .env = "DLOCK_SYSLOG",
           .default_value = "false",
           .check = config::check_bool},
};

} // namespace

config::Options global_option_table() {
    return kOptions;
}

Result<std::vector<std::string_view>> split_urls(std::string_view value) {
    std::vector<std::string_view> urls;
    for (size_t start = 0; start < value.size();) {
        start = value.find_first_not_of(" \t", start);
        if (start == std::string_view::npos)
            break;
        const size_t end = std::min(value.find_first_of(" \t", start), value.size());
        urls.push_back(value.substr(start, end - start));
        TRY(redis::parse_deployment(urls.back()));
        start = end;
    }
    if (urls.empty())
        return usage_error("no Redis URL");
    return urls;
}

} // namespace dlock::cli
