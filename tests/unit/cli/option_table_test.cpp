// Every row of the global option table, driven from the table: a new row is covered by these
// tests without touching them. Its flag, its variable and its config key each set it, with the
// origin `dlock config` shows, and --help describes it.

#include "cli/global_options.hpp"
#include "cli/option_table.hpp"
#include "config/config_file.hpp"
#include "config/settings.hpp"
#include "unit/config/fake_env.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <set>
#include <string>
#include <vector>

using namespace dlock;
using config::Form;
using config::Option;
using dlock::test::FakeEnv;

namespace {

const config::Options kOptions = cli::global_option_table();

// A value the row accepts, other than its default.
std::string sample(const Option& row) {
    if (row.form == Form::toggle)
        return "true";
    if (row.form == Form::verbosity)
        return "info";
    return row.default_value.empty() ? "sample" : std::string(row.default_value);
}

// The long name among CLI11 names ("-v,--verbose" -> "--verbose").
std::string long_name(std::string_view names) {
    const auto at = names.find("--");
    return std::string(names.substr(at, names.find(',', at) - at));
}

// The settings after parsing `args` as global options of a fresh parser.
config::Settings parse(std::vector<std::string> args, const FakeEnv& env = {},
                       const std::vector<config::File>& files = {}) {
    CLI::App app;
    cli::GlobalOptions globals;
    globals.add_to(app);
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // as CLI11 takes them
    app.parse(reversed);
    return config::Settings::resolve(kOptions, globals.given(), env.getenv(), files).value();
}

} // namespace

TEST_CASE("option table: names, variables and flags are unique, defaults pass their checks",
          "[config][options]") {
    std::set<std::string_view> names, variables, flags;
    for (const auto& row : kOptions) {
        INFO(row.name);
        CHECK(names.insert(row.name).second);
        CHECK(config::find(kOptions, row.name) == &row);
        CHECK(row.env.starts_with("DLOCK_"));
        CHECK(variables.insert(row.env).second);
        CHECK(row.check != nullptr);
        if (!row.default_value.empty())
            CHECK(row.check(row.default_value));
        CHECK(row.check(sample(row)));
        CHECK((row.form == Form::none) == row.flag.empty());
        CHECK((row.form == Form::none) == row.help.empty());
        CHECK(row.off_flag.empty() == row.off_help.empty());
        if (row.form == Form::value || row.form == Form::values)
            CHECK_FALSE(row.metavar.empty());
        if (row.form == Form::verbosity)
            CHECK_FALSE(row.off_flag.empty());
        if (row.secret) // a secret on the command line would show in `ps`
            CHECK(row.form == Form::none);
        if (!row.flag.empty())
            CHECK(flags.insert(row.flag).second);
        if (!row.help_after.empty())
            CHECK(config::find(kOptions, row.help_after) != nullptr);
    }
}

TEST_CASE("option table: each row's default, flag, variable and config key set it",
          "[config][options]") {
    for (const auto& row : kOptions) {
        const std::string name(row.name);
        const std::string value = sample(row);
        INFO(name << " = " << value);

        const auto defaults = parse({});
        if (row.default_value.empty())
            CHECK_FALSE(defaults.get(name).is_set());
        else
            CHECK(defaults.get(name).origin == "default");

        FakeEnv env{{{std::string(row.env), value}}};
        CHECK(parse({}, env).get(name).value == value);
        CHECK(parse({}, env).get(name).origin == row.env);

        const auto file = config::parse_file(kOptions, name + " = " + value + "\n", "f.conf", true);
        REQUIRE(file);
        CHECK(parse({}, {}, {*file}).get(name).value == value);
        CHECK(parse({}, {}, {*file}).get(name).origin == "f.conf:1");

        if (row.form == Form::none)
            continue;
        const std::string flag = long_name(row.flag);
        std::vector<std::string> args{flag};
        if (row.form == Form::value || row.form == Form::values)
            args.push_back(value);
        const auto given = parse(args, env, {*file}); // the flag wins over both
        CHECK(given.get(name).value == value);
        CHECK(given.get(name).origin == (row.form == Form::verbosity ? "-v" : flag));
        if (!row.off_flag.empty()) {
            const std::string off = long_name(row.off_flag);
            const auto turned_off = parse({off}, env);
            CHECK(turned_off.get(name).value == (row.form == Form::verbosity ? "error" : "false"));
        }
    }
}

TEST_CASE("option table: --help shows every flag with its help, placeholders filled",
          "[config][options]") {
    CLI::App app;
    cli::GlobalOptions globals;
    globals.add_to(app);
    const std::string help = app.help();
    for (const auto& row : kOptions) {
        INFO(row.name);
        if (row.form == Form::none) { // no flag, not even one named after the key
            CHECK(help.find(fmt::format("--{} ", row.name)) == std::string::npos);
            continue;
        }
        CHECK(help.find(long_name(row.flag)) != std::string::npos);
        if (!row.off_flag.empty())
            CHECK(help.find(long_name(row.off_flag)) != std::string::npos);
    }
    CHECK(help.find("{default}") == std::string::npos);
    CHECK(help.find("{env}") == std::string::npos);
    CHECK(help.find("(env DLOCK_REDIS_URL, REDIS_URL; default redis://127.0.0.1:6379)") !=
          std::string::npos);
    CHECK(help.find("key prefix (env DLOCK_PREFIX; default dlock)") != std::string::npos);
}

TEST_CASE("option table: a former name is no current one, and is refused naming the new one",
          "[config][options]") {
    CLI::App app;
    cli::GlobalOptions globals;
    globals.add_to(app);
    for (const auto& row : kOptions) {
        const auto& former = row.former;
        INFO(row.name);
        if (!former.key.empty()) {
            CHECK(config::find(kOptions, former.key) == nullptr);
            const auto file = config::parse_file(
                kOptions, fmt::format("{} = {}\n", former.key, sample(row)), "f.conf", true);
            REQUIRE_FALSE(file);
            CHECK(file.error().message.starts_with(
                fmt::format("f.conf:1: {} was renamed {} (", former.key, row.name)));
        }
        if (!former.env.empty()) {
            for (const auto& other : kOptions)
                CHECK(other.env != former.env);
            FakeEnv env{{{std::string(former.env), sample(row)}}};
            const auto settings = config::Settings::resolve(kOptions, {}, env.getenv(), {});
            REQUIRE_FALSE(settings);
            CHECK(settings.error().message.starts_with(
                fmt::format("{} was renamed {} (", former.env, row.env)));
        }
        if (!former.flag.empty())
            CHECK(app.get_option_no_throw(std::string(former.flag)) == nullptr);
    }
}
