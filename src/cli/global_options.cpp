#include "cli/global_options.hpp"

#include "cli/numbers.hpp"
#include "cli/option_table.hpp"
#include "lock/keys.hpp"
#include "util/small_file.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iterator>
#include <utility>

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

// Where setting `key` came from, as an auth failure names it: a flag or a variable as is
// ("--password-file", "DLOCK_REDIS_PASSWORD"), a config file line with the key ("password-file
// in /etc/dlock.conf:3").
std::string origin_of(const config::Setting& setting, std::string_view key) {
    const bool variable = std::all_of(setting.origin.begin(), setting.origin.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (setting.origin.starts_with('-') || variable)
        return setting.origin;
    return fmt::format("{} in {}", key, setting.origin);
}

// `text` with {default}, {env} and {fallback_env} filled in from `row`. A plain search, not
// fmt's runtime parsing: every row's help is built on every start, help asked for or not.
std::string fill_help(std::string_view text, const config::Option& row) {
    const std::pair<std::string_view, std::string_view> fields[] = {
        {"{default}", row.default_value}, {"{env}", row.env}, {"{fallback_env}", row.fallback_env}};
    std::string out;
    out.reserve(text.size() + 32);
    for (size_t open; (open = text.find('{')) != std::string_view::npos;) {
        out.append(text.substr(0, open));
        text.remove_prefix(open);
        const auto* field = std::find_if(std::begin(fields), std::end(fields),
                                         [&](const auto& f) { return text.starts_with(f.first); });
        const bool known = field != std::end(fields);
        out.append(known ? field->second : text.substr(0, 1));
        text.remove_prefix(known ? field->first.size() : 1);
    }
    out.append(text);
    return out;
}

} // namespace

bool may_use(std::string_view names, const std::vector<std::string>& words) {
    for (const auto& word : words) {
        for (size_t start = 0; start < names.size();) {
            const size_t end = std::min(names.find(',', start), names.size());
            const std::string_view name = names.substr(start, end - start);
            start = end + 1;
            const bool long_form = name.starts_with("--") && word.starts_with(name) &&
                                   (word.size() == name.size() || word[name.size()] == '=');
            const bool short_form = name.size() == 2 && word.size() > 1 && word[0] == '-' &&
                                    word[1] != '-' && word.find(name[1]) != std::string::npos;
            if (long_form || short_form)
                return true;
        }
    }
    return false;
}

void GlobalOptions::add_to(CLI::App& app, const std::vector<std::string>* words) {
    const auto table = global_option_table();
    if (words != nullptr) { // no help is shown from this parser: table order will do
        for (const auto& row : table)
            if (may_use(row.flag, *words) || may_use(row.off_flag, *words))
                add_row(app, row);
        return;
    }
    // The few rows shown after another one, found once (this runs on every start).
    std::vector<const config::Option*> moved;
    for (const auto& row : table)
        if (!row.help_after.empty())
            moved.push_back(&row);
    for (const auto& row : table) {
        if (!row.help_after.empty())
            continue;
        add_row(app, row);
        for (const auto* later : moved)
            if (later->help_after == row.name)
                add_row(app, *later);
    }
}

void GlobalOptions::add_row(CLI::App& app, const config::Option& row) {
    if (row.form == config::Form::none)
        return;
    auto help = [&](std::string_view text) { return fill_help(text, row); };
    const std::string flag(row.flag);
    const std::string off_flag(row.off_flag);
    Given& g = given_.emplace_back(Given{&row});
    switch (row.form) {
    case config::Form::none:
        break;
    case config::Form::value:
        g.on = app.add_option(flag, g.value, help(row.help))->option_text(std::string(row.metavar));
        break;
    case config::Form::values:
        // One value per flag, so that the next word is the subcommand; given several times,
        // the values are joined by spaces (see given()).
        g.on = app.add_option(flag, g.values, help(row.help))
                   ->expected(1)
                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                   ->option_text(std::string(row.metavar));
        break;
    case config::Form::toggle:
        g.on = app.add_flag(flag, g.on_flag, help(row.help));
        if (!off_flag.empty())
            g.off = app.add_flag(off_flag, g.off_flag, help(row.off_help))->excludes(g.on);
        break;
    case config::Form::verbosity:
        g.on = app.add_flag(flag, g.count, help(row.help));
        g.off = app.add_flag(off_flag, g.off_flag, help(row.off_help));
        break;
    }
    if (!row.group.empty())
        for (auto* option : {g.on, g.off})
            if (option != nullptr)
                option->group(std::string(row.group));
}

std::vector<config::FlagValue> GlobalOptions::given() const {
    std::vector<config::FlagValue> flags;
    for (const auto& g : given_) {
        const std::string key(g.row->name);
        switch (g.row->form) {
        case config::Form::none:
            break;
        case config::Form::value:
            if (g.on->count() > 0)
                flags.push_back({key, g.value, g.on->get_name()});
            break;
        case config::Form::values:
            // Several values are one, separated by spaces (as in DLOCK_REDIS_URL).
            if (g.on->count() > 0)
                flags.push_back(
                    {key, fmt::format("{}", fmt::join(g.values, " ")), g.on->get_name()});
            break;
        case config::Form::toggle:
            if (g.on_flag)
                flags.push_back({key, "true", g.on->get_name()});
            if (g.off_flag)
                flags.push_back({key, "false", g.off->get_name()});
            break;
        case config::Form::verbosity:
            if (g.off_flag)
                flags.push_back({key, "error", "-q"});
            else if (g.count > 0)
                flags.push_back(
                    {key, g.count == 1 ? "info" : "debug", g.count == 1 ? "-v" : "-vv"});
            break;
        }
    }
    return flags;
}

Result<void> GlobalOptions::load() {
    TRY_ASSIGN(settings_, config::load(global_option_table(), given(),
                                       [](const char* name) { return std::getenv(name); }));
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

Result<std::optional<GlobalOptions::Secret>> GlobalOptions::secret(std::string_view key) const {
    const auto file_key = fmt::format("{}-file", key);
    if (const auto& file = settings_.get(file_key); file.is_set()) {
        TRY_ASSIGN(auto password, typed(file, read_password_file(file.value)));
        return Secret{std::move(password), fmt::format("{} ({})", redact_credentials(file.value),
                                                       origin_of(file, file_key))};
    }
    if (const auto& password = settings_.get(key); password.is_set())
        return Secret{password.value, origin_of(password, key)};
    return std::optional<Secret>();
}

Result<std::vector<redis::Deployment>> GlobalOptions::deployments() const {
    const auto& url = settings_.get("redis");
    TRY_ASSIGN(const auto urls, typed(url, split_urls(url.value)));
    // Several URLs are the independent members of a Redlock quorum: an odd number, so that two
    // halves can never both have a majority.
    if (urls.size() > 1 && (urls.size() < 3 || urls.size() % 2 == 0))
        return usage_error(fmt::format("{}: {} Redis URLs: a Redlock quorum needs an odd number "
                                       "of independent members, 3 or more",
                                       url.origin, urls.size()));
    std::vector<redis::Deployment> members;
    for (const auto& member : urls) {
        TRY_ASSIGN(redis::Deployment d, typed(url, redis::parse_deployment(member)));
        d.set_password_source(fmt::format("the URL ({})", origin_of(url, "redis")));
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
    shared.sentinel_password = sentinel_password ? sentinel_password->value : "";
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
    const auto& command = settings_.get("redis-timeout");
    const auto& replicas = settings_.get("min-replicas");
    const auto& replica_timeout = settings_.get("replica-timeout");
    TRY_ASSIGN(shared.connect_timeout, typed(connect, parse_duration(connect.value)));
    TRY_ASSIGN(shared.command_timeout, typed(command, parse_duration(command.value)));
    shared.replication.automatic = replicas.value == "auto";
    if (!shared.replication.automatic) {
        TRY_ASSIGN(const int64_t min_replicas,
                   typed(replicas,
                         parse_integer(replicas.value, 0, config::kMaxReplicas, "--min-replicas")));
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
            d.set_password(password->value, password->from);
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
