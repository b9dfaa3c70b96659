#pragma once

#include "config/config_file.hpp"
#include "config/option.hpp"
#include "util/error.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::config {

// An effective value and where it came from: "--redis", "DLOCK_PREFIX", "/etc/dlock.conf:3",
// "REDIS_URL" or "default". No origin: not set anywhere (password, password-file).
struct Setting {
    std::string value;
    std::string origin;

    bool is_set() const { return !origin.empty(); }
};

// An option given on the command line: the key it sets, its value, the flag as shown to users.
struct FlagValue {
    std::string key;
    std::string value;
    std::string flag;
};

using Getenv = std::function<const char*(const char*)>;

inline constexpr std::string_view kSystemConfigPath = "/etc/dlock.conf";

// Where a config file is looked for.
struct ConfigPath {
    std::string path;
    // The variable that named it ("DLOCK_CONFIG", "DLOCK_SYSTEM_CONFIG"), or "" for a default
    // place. A file named explicitly must exist and be readable.
    std::string named_by;
    bool system = false;

    bool operator==(const ConfigPath&) const = default;
};

// The config files, highest precedence first: the user's ($DLOCK_CONFIG, else
// $XDG_CONFIG_HOME/dlock/config, else ~/.config/dlock/config; none without a home) and the
// system's ($DLOCK_SYSTEM_CONFIG, else `system_default`).
std::vector<ConfigPath> config_paths(const Getenv& getenv,
                                     std::string_view system_default = kSystemConfigPath);

class Settings {
  public:
    // Resolves every option of `options`: flags > DLOCK_* environment > `files` (highest first) >
    // fallback environment (REDIS_URL) > default. Values from flags and the environment are
    // checked here (file values were checked when parsed); a password and a password-file from
    // the same place are an error, and the higher of the two wins otherwise.
    static Result<Settings> resolve(Options options, const std::vector<FlagValue>& flags,
                                    const Getenv& getenv, const std::vector<File>& files);

    // `key` must be one of options().
    const Setting& get(std::string_view key) const;
    // The table the settings were resolved from, in the order `dlock config` shows them.
    Options options() const { return options_; }

    // Every config file looked at and whether it exists, for `dlock config`.
    struct Source {
        std::string path;
        bool found = false;
        // Why a file that exists was not read ("Permission denied"), or "". Only files at their
        // default places are skipped so: a 0600 /etc/dlock.conf holding a password is for
        // root's jobs, and other users go on without it; so is the user file of a HOME that
        // `sudo -u` kept.
        std::string skipped;
    };
    std::vector<Source> sources;

  private:
    Options options_;
    std::vector<Setting> values_; // in the order of options_
};

// Reads the config files of config_paths() and resolves. A file named by DLOCK_CONFIG or
// DLOCK_SYSTEM_CONFIG that is absent or unreadable is a usage error naming the variable.
Result<Settings> load(Options options, const std::vector<FlagValue>& flags, const Getenv& getenv,
                      std::string_view system_default = kSystemConfigPath);

} // namespace dlock::config
