#include "config/settings.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace dlock::config {
namespace {

// A candidate value with its precedence: lower rank wins.
struct Ranked {
    Setting setting;
    size_t rank = std::numeric_limits<size_t>::max();
};

std::string_view env_value(const Getenv& getenv, std::string_view name) {
    if (name.empty())
        return {};
    const char* value = getenv(std::string(name).c_str());
    return value ? std::string_view(value) : std::string_view();
}

Ranked pick(const Option& key, const std::vector<FlagValue>& flags, const Getenv& getenv,
            const std::vector<File>& files) {
    for (const auto& flag : flags)
        if (flag.key == key.name)
            return {{flag.value, flag.flag}, 0};
    // An empty variable counts as unset, as `DLOCK_PREFIX= dlock ...` usually means.
    if (auto value = env_value(getenv, key.env); !value.empty())
        return {{std::string(value), std::string(key.env)}, 1};
    for (size_t i = 0; i < files.size(); ++i)
        if (const Entry* entry = files[i].find(key.name))
            return {{entry->value, fmt::format("{}:{}", files[i].path, entry->line)}, 2 + i};
    if (auto value = env_value(getenv, key.fallback_env); !value.empty())
        return {{std::string(value), std::string(key.fallback_env)}, 2 + files.size()};
    if (!key.default_value.empty())
        return {{std::string(key.default_value), "default"}, 3 + files.size()};
    return {};
}

size_t index_of(Options options, std::string_view name) {
    for (size_t i = 0; i < options.size(); ++i)
        if (options[i].name == name)
            return i;
    return options.size();
}

// Where both came from, for the error about a password and a password-file in one place.
std::string both_places(std::string_view key, const Setting& password, const Setting& file) {
    auto colon = password.origin.rfind(':');
    bool same_file = colon != std::string::npos && file.origin.rfind(':') == colon &&
                     password.origin.compare(0, colon, file.origin, 0, colon) == 0;
    if (same_file)
        return fmt::format("{0}: {1} (line {2}) and {1}-file (line {3}) are both set",
                           password.origin.substr(0, colon), key, password.origin.substr(colon + 1),
                           file.origin.substr(colon + 1));
    return fmt::format("{} and {} are both set", password.origin, file.origin);
}

} // namespace

Result<Settings> Settings::resolve(Options options, const std::vector<FlagValue>& flags,
                                   const Getenv& getenv, const std::vector<File>& files) {
    for (const auto& key : options)
        if (!env_value(getenv, key.former.env).empty())
            return usage_error(*renamed(options, &FormerNames::env, key.former.env));
    std::vector<Ranked> ranked;
    for (const auto& key : options) {
        ranked.push_back(pick(key, flags, getenv, files));
        const auto& s = ranked.back().setting;
        const bool from_file = ranked.back().rank >= 2 && ranked.back().rank < 2 + files.size();
        if (!s.is_set() || from_file || s.origin == "default")
            continue;
        if (auto ok = key.check(s.value); !ok)
            return usage_error(fmt::format("{}: {}", s.origin, ok.error().message));
    }

    // One password source: a password and a password-file from the same place are ambiguous;
    // otherwise the one from the higher place wins (both beat a password in the URL).
    for (std::string_view key : {"password", "sentinel-password"}) {
        auto& password = ranked[index_of(options, key)];
        auto& password_file = ranked[index_of(options, fmt::format("{}-file", key))];
        if (password.setting.is_set() && password_file.setting.is_set()) {
            if (password.rank == password_file.rank)
                return usage_error(both_places(key, password.setting, password_file.setting) +
                                   "; keep one");
            (password.rank < password_file.rank ? password_file : password) = Ranked{};
        }
    }

    Settings settings;
    settings.options_ = options;
    for (auto& r : ranked)
        settings.values_.push_back(std::move(r.setting));
    return settings;
}

const Setting& Settings::get(std::string_view key) const {
    return values_.at(index_of(options_, key));
}

std::vector<ConfigPath> config_paths(const Getenv& getenv, std::string_view system_default) {
    // A relative XDG_CONFIG_HOME is ignored, as XDG says.
    std::vector<ConfigPath> paths;
    if (auto user = env_value(getenv, "DLOCK_CONFIG"); !user.empty())
        paths.push_back({std::string(user), "DLOCK_CONFIG"});
    else if (auto xdg = env_value(getenv, "XDG_CONFIG_HOME"); xdg.starts_with('/'))
        paths.push_back({fmt::format("{}/dlock/config", xdg), "", false});
    else if (auto home = env_value(getenv, "HOME"); !home.empty())
        paths.push_back({fmt::format("{}/.config/dlock/config", home), "", false});
    if (auto system = env_value(getenv, "DLOCK_SYSTEM_CONFIG"); !system.empty())
        paths.push_back({std::string(system), "DLOCK_SYSTEM_CONFIG", true});
    else
        paths.push_back({std::string(system_default), "", true});
    return paths;
}

Result<Settings> load(Options options, const std::vector<FlagValue>& flags, const Getenv& getenv,
                      std::string_view system_default) {
    std::vector<File> files;
    std::vector<Settings::Source> sources;
    for (const auto& where : config_paths(getenv, system_default)) {
        int error = 0;
        auto file = load_file(options, where.path, &error);
        if (file && !*file && !where.named_by.empty()) // told to read it, and it is not there
            return usage_error(fmt::format("{}: cannot read config file {}: {}", where.named_by,
                                           where.path, std::strerror(ENOENT)));
        // At its default place, a file this user may not read is not meant for them: a 0600
        // /etc/dlock.conf for root's jobs, or the config of the HOME that `sudo -u` kept.
        if (!file && error == EACCES && where.named_by.empty()) {
            sources.push_back({where.path, false, std::strerror(EACCES)});
            continue;
        }
        if (!file) {
            if (!where.named_by.empty() && error != 0) // not a parse error: that names the line
                file.error().message = fmt::format("{}: {}", where.named_by, file.error().message);
            return tl::unexpected(file.error());
        }
        sources.push_back({where.path, file->has_value(), ""});
        if (*file)
            files.push_back(std::move(**file));
    }
    auto settings = Settings::resolve(options, flags, getenv, files);
    if (settings)
        settings->sources = std::move(sources);
    return settings;
}

} // namespace dlock::config
