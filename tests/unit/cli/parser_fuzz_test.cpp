// Fuzz test of the command line: tens of thousands of argument vectors, built from the real
// parser's subcommands and options with good, bad and absurd values, then mutated, go through
// what dlock does before it talks to Redis (cli::CommandLine: parse, help, config files and
// environment, each subcommand's checks), with random environment variables and config files.
// Nothing may throw or abort; the only outcomes are 0 (help, version, or ready to run) and 64
// (usage error: one line on stderr, without the password of a URL or of --password=).
//
// Deterministic: DLOCK_FUZZ_SEED and DLOCK_FUZZ_ITERATIONS override the defaults; a failure
// prints the seed and the iteration to reproduce it.

#include "cli/command_line.hpp"
#include "cli/main.hpp"
#include "cli/option_table.hpp"
#include "util/log.hpp"
#include "util/output.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace dlock;

namespace {

const std::string kSecret = "S3cret";

// ---- what the arguments are made of --------------------------------------------------------

struct Pools {
    std::vector<std::string> durations{"1s",
                                       "500ms",
                                       "30s",
                                       "2m",
                                       "1h",
                                       "1.5s",
                                       "0",
                                       "forever",
                                       "inf",
                                       "-1s",
                                       "-inf",
                                       "nan",
                                       "1e-400s",
                                       "1e400",
                                       std::string(400, '9'),
                                       std::string(400, '9') + "ms",
                                       "0." + std::string(400, '0') + "1s",
                                       "36500d",
                                       "36501d",
                                       "9223372036854775807ms",
                                       "18446744073709551616ms",
                                       " 1s",
                                       "1s ",
                                       "1\ns",
                                       ".",
                                       ""};
    std::vector<std::string> integers{"0",
                                      "1",
                                      "2",
                                      "8,32",
                                      "75",
                                      "255",
                                      "256",
                                      "-1",
                                      "+1",
                                      "1.5",
                                      "1e3",
                                      "0x10",
                                      "010",
                                      "99999999999999999999",
                                      "-99999999999999999999",
                                      std::string(400, '9'),
                                      "1000000000",
                                      "1000000001",
                                      "8,",
                                      ",",
                                      ""};
    std::vector<std::string> names{
        "job",           "a b", "",       std::string(201, 'x'), "x\ny", "{x}",
        "A-z_0.9:/@+=-", "run", "status", "caf\xc3\xa9"};
    std::vector<std::string> urls{"unix:///nonexistent/dlock-fuzz.sock",
                                  "unix://u:" + kSecret + "@/nonexistent/dlock-fuzz.sock",
                                  "redis://app:" + kSecret + "@db.example:6380/2",
                                  "redis://:" + kSecret + "@db.example",
                                  "redis://127.0.0.1:6379",
                                  "redis://",
                                  "redis://h:99999",
                                  "redis://h:" + std::string(400, '9'),
                                  "unix:///s?db=" + std::string(400, '9'),
                                  "rediss://h",
                                  "http://x",
                                  "unix://relative",
                                  ""};
    std::vector<std::string> signals{
        "TERM", "KILL", "SIGINT", "0", "65", "FOO", "-1", std::string(400, '9'), ""};
    std::vector<std::string> formats{"text", "json", "xml", "", "TEXT"};
    std::vector<std::string> words{"--",
                                   "-",
                                   "=",
                                   "-h",
                                   "--help",
                                   "--version",
                                   "-vv",
                                   "-qv",
                                   "-x",
                                   "--bogus",
                                   "--password=" + kSecret,
                                   "\n",
                                   "\xff\xfe",
                                   "--=",
                                   "---",
                                   "-" + std::string(300, 'v')};
    std::vector<std::string> files; // password files: set up by the test
};

// An option of one app of the parser, as found in its CLI11 tree.
struct OptionSpec {
    std::vector<std::string> spellings; // "-w", "--wait"
    bool takes_value = false;
    bool positional = false;
    std::string name; // for choosing values
};

struct AppSpec {
    std::string name;
    std::vector<OptionSpec> options;
    std::vector<AppSpec> subcommands;
};

AppSpec describe(const CLI::App& app) {
    AppSpec spec{app.get_name(), {}, {}};
    for (const auto* option : app.get_options({})) {
        OptionSpec o;
        o.positional = option->get_positional();
        o.takes_value = option->get_items_expected_min() > 0;
        o.name = option->get_name(false, true);
        for (const auto& s : option->get_snames())
            o.spellings.push_back("-" + s);
        for (const auto& l : option->get_lnames())
            if (l != "syslog") // would send the fuzz test's messages to the system log
                o.spellings.push_back("--" + l);
        if (o.positional)
            o.spellings = {o.name};
        if (!o.spellings.empty())
            spec.options.push_back(std::move(o));
    }
    for (const auto* sub : app.get_subcommands({}))
        spec.subcommands.push_back(describe(*sub));
    return spec;
}

// ---- one random case ------------------------------------------------------------------------

class Generator {
  public:
    Generator(const Pools& pools, const AppSpec& top, uint64_t seed)
        : pools_(pools), top_(top), rng_(seed) {}

    std::vector<std::string> arguments() {
        std::vector<std::string> args;
        if (chance(1, 10)) { // anything from anywhere
            const size_t n = below(12);
            for (size_t i = 0; i < n; ++i)
                args.push_back(any_word());
            return args;
        }
        const AppSpec* app = &top_;
        add_options(*app, args);
        while (!app->subcommands.empty() && !chance(1, 12)) {
            app = &pick(app->subcommands);
            args.push_back(app->name);
            add_options(*app, args);
        }
        if (chance(1, 2)) {
            args.push_back("--");
            args.push_back(chance(1, 2) ? "true" : any_word());
        }
        const size_t mutations = chance(1, 2) ? 0 : 1 + below(4);
        for (size_t i = 0; i < mutations; ++i)
            mutate(args);
        return args;
    }

    // A value for the environment variable or config key `key`.
    std::string setting(std::string_view key) {
        if (key == "redis")
            return pick(pools_.urls);
        if (key == "connect-timeout" || key == "redis-timeout")
            return pick(pools_.durations);
        if (key == "log-format")
            return pick(pools_.formats);
        if (key == "password-file")
            return pick(pools_.files);
        if (key == "syslog") // never true: see describe()
            return pick(std::vector<std::string>{"false", "no", "0", "maybe", ""});
        if (key == "log-level")
            return pick(std::vector<std::string>{"error", "warn", "info", "debug", "loud", ""});
        if (key == "password")
            return kSecret;
        return chance(1, 2) ? pick(pools_.names) : any_word();
    }

    bool chance(uint64_t n, uint64_t out_of) { return below(out_of) < n; }
    size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng_() % n); }
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[below(items.size())];
    }

  private:
    std::string value_for(const OptionSpec& option) {
        const std::string& n = option.name;
        if (chance(1, 8))
            return any_word();
        if (n.find("redis") != std::string::npos && n.find("timeout") == std::string::npos)
            return pick(pools_.urls);
        if (n.find("password-file") != std::string::npos)
            return pick(pools_.files);
        if (n.find("signal") != std::string::npos)
            return pick(pools_.signals);
        if (n.find("format") != std::string::npos)
            return pick(pools_.formats);
        for (const char* d : {"wait", "ttl", "timeout", "kill", "hold"})
            if (n.find(d) != std::string::npos && n.find("exit") == std::string::npos)
                return pick(pools_.durations);
        for (const char* i : {"exit", "permits", "count", "cycles", "handovers", "waiters", "N"})
            if (n.find(i) != std::string::npos)
                return pick(pools_.integers);
        return pick(pools_.names);
    }

    void add_options(const AppSpec& app, std::vector<std::string>& args) {
        if (app.options.empty())
            return;
        const size_t n = below(5);
        for (size_t i = 0; i < n; ++i) {
            const auto& option = pick(app.options);
            if (option.positional) {
                args.push_back(value_for(option));
                continue;
            }
            const auto& spelling = pick(option.spellings);
            if (!option.takes_value) // a flag, but given a value: a count, a word
                args.push_back(!chance(1, 8)  ? spelling
                               : chance(1, 2) ? spelling + "=" + pick(pools_.integers)
                                              : spelling + "=" + any_word());
            else if (chance(1, 4))
                args.push_back(spelling + "=" + value_for(option));
            else if (chance(1, 20)) // the value is missing
                args.push_back(spelling);
            else
                args.insert(args.end(), {spelling, value_for(option)});
        }
    }

    std::string any_word() {
        switch (below(8)) {
        case 0:
            return pick(pools_.durations);
        case 1:
            return pick(pools_.integers);
        case 2:
            return pick(pools_.names);
        case 3:
            return pick(pools_.urls);
        case 4:
            return pick(pools_.signals);
        case 5: {
            std::string garbage;
            for (size_t i = below(12); i > 0; --i)
                garbage.push_back(static_cast<char>(1 + below(255))); // argv has no NUL
            return garbage;
        }
        case 6:
            return subcommand_name(top_);
        default:
            return pick(pools_.words);
        }
    }

    std::string subcommand_name(const AppSpec& app) {
        if (app.subcommands.empty())
            return app.name;
        const auto& sub = pick(app.subcommands);
        return chance(1, 2) ? sub.name : subcommand_name(sub);
    }

    void mutate(std::vector<std::string>& args) {
        if (args.empty()) {
            args.push_back(any_word());
            return;
        }
        const size_t at = below(args.size());
        switch (below(7)) {
        case 0:
            args.erase(args.begin() + static_cast<ptrdiff_t>(at));
            break;
        case 1:
            args.insert(args.begin() + static_cast<ptrdiff_t>(at), args[at]);
            break;
        case 2:
            std::swap(args[at], args[below(args.size())]);
            break;
        case 3:
            args[at] = any_word();
            break;
        case 4:
            args.insert(args.begin() + static_cast<ptrdiff_t>(below(args.size() + 1)), any_word());
            break;
        case 5: // a byte changed, inserted or removed
            if (args[at].empty() || chance(1, 3))
                args[at].insert(below(args[at].size() + 1), 1, static_cast<char>(1 + below(255)));
            else if (chance(1, 2))
                args[at][below(args[at].size())] = static_cast<char>(1 + below(255));
            else
                args[at].erase(below(args[at].size()), 1);
            break;
        default: // joined with the next one, as --option=value
            if (at + 1 < args.size()) {
                args[at] += "=" + args[at + 1];
                args.erase(args.begin() + static_cast<ptrdiff_t>(at) + 1);
            }
        }
    }

    const Pools& pools_;
    const AppSpec& top_;
    std::mt19937_64 rng_;
};

// ---- the harness ----------------------------------------------------------------------------

std::string shown(const std::vector<std::string>& args) {
    std::string out;
    for (const auto& a : args) {
        out += '[';
        for (unsigned char c : a)
            out += c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c))
                                         : fmt::format("\\x{:02x}", c);
        out += "] ";
    }
    return out;
}

// True when every argument that holds the secret holds it where dlock must hide it: in a URL's
// credentials, or as the value of --password=. (Moved elsewhere by a mutation, it is just a word.)
bool secret_in_secret_places(const std::vector<std::string>& args) {
    for (const auto& a : args) {
        const auto at = a.find(kSecret);
        if (at == std::string::npos)
            continue;
        const auto scheme = a.find("://");
        const bool in_url =
            scheme != std::string::npos && scheme < at && a.find('@', at) != std::string::npos;
        if (!in_url && !a.starts_with("--password="))
            return false;
    }
    return true;
}

// Sets or unsets each variable dlock reads, at random.
void random_environment(Generator& g, const std::string& config_file, const std::string& dir) {
    for (const auto& key : cli::global_option_table()) {
        if (!key.former.env.empty()) { // refused: now and then
            const std::string former(key.former.env);
            if (g.chance(1, 50))
                setenv(former.c_str(), g.setting(key.name).c_str(), 1);
            else
                unsetenv(former.c_str());
        }
        if (key.env.empty())
            continue;
        const std::string name(key.env);
        if (g.chance(1, 5))
            setenv(name.c_str(), g.setting(key.name).c_str(), 1);
        else
            unsetenv(name.c_str());
    }
    unsetenv("REDIS_URL");
    setenv("DLOCK_SYSTEM_CONFIG", "/dev/null", 1);
    if (!g.chance(1, 4)) {
        setenv("DLOCK_CONFIG", "/dev/null", 1);
        return;
    }
    // A user config file of random lines, sometimes not private (a password there is refused).
    std::string text;
    const auto keys = cli::global_option_table();
    for (size_t i = g.below(4); i > 0; --i) {
        const auto& key = keys[g.below(keys.size())];
        text += std::string(key.name) + " = " + g.setting(key.name) + "\n";
    }
    if (g.chance(1, 10))
        text += "bogus line\n";
    { std::ofstream(config_file, std::ios::trunc) << text; }
    chmod(config_file.c_str(), g.chance(1, 5) ? 0644 : 0600);
    setenv("DLOCK_CONFIG", g.chance(1, 20) ? (dir + "/absent").c_str() : config_file.c_str(), 1);
}

uint64_t env_number(const char* name, uint64_t fallback) {
    const char* text = std::getenv(name);
    return text && *text ? std::strtoull(text, nullptr, 10) : fallback;
}

// fds 1 and 2 of this process go to files while the cases run (help, errors), and back after.
class Captured {
  public:
    explicit Captured(const std::string& dir)
        : out_(open((dir + "/stdout").c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)),
          err_(open((dir + "/stderr").c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)),
          saved_out_(dup(1)), saved_err_(dup(2)) {
        dup2(out_, 1);
        dup2(err_, 2);
    }
    ~Captured() {
        dup2(saved_out_, 1);
        dup2(saved_err_, 2);
        for (int fd : {out_, err_, saved_out_, saved_err_})
            close(fd);
    }
    Captured(const Captured&) = delete;
    Captured& operator=(const Captured&) = delete;

    // What went to stderr since the last call.
    std::string take_stderr() {
        std::string text(static_cast<size_t>(lseek(err_, 0, SEEK_END)), '\0');
        if (!text.empty())
            (void)!pread(err_, text.data(), text.size(), 0);
        (void)!ftruncate(err_, 0);
        lseek(err_, 0, SEEK_SET);
        (void)!ftruncate(out_, 0);
        lseek(out_, 0, SEEK_SET);
        return text;
    }

  private:
    int out_, err_, saved_out_, saved_err_;
};

std::string current_case; // for the terminate handler

} // namespace

TEST_CASE("fuzz: random and mutated command lines end in 0 or 64, never in an exception",
          "[parser][fuzz]") {
    const uint64_t seed = env_number("DLOCK_FUZZ_SEED", 20240611);
    const uint64_t iterations = env_number("DLOCK_FUZZ_ITERATIONS", 20000);
    INFO("reproduce with DLOCK_FUZZ_SEED=" << seed << " DLOCK_FUZZ_ITERATIONS=" << iterations);

    char dir_template[] = "/tmp/dlock-fuzz-XXXXXX";
    REQUIRE(mkdtemp(dir_template) != nullptr);
    const std::string dir = dir_template;
    Pools pools;
    std::ofstream(dir + "/empty") << "";
    std::ofstream(dir + "/password") << kSecret << "\n";
    pools.files = {dir + "/password", dir + "/empty", dir, dir + "/absent", "/dev/null", ""};

    const cli::Parser full;
    const AppSpec top = describe(full.app());
    const std::string config_file = dir + "/config";

    // Whatever escapes ends the test process: say which case it was first.
    auto previous = std::set_terminate([] {
        const std::string line = "\nfuzz case that aborted: " + current_case + "\n";
        (void)!write(STDERR_FILENO, line.data(), line.size());
        std::abort();
    });
    // The variables this test changes, to be put back as they were.
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_env;
    std::vector<std::string> touched{"DLOCK_CONFIG", "DLOCK_SYSTEM_CONFIG", "REDIS_URL"};
    for (const auto& key : cli::global_option_table())
        for (auto name : {key.env, key.former.env})
            if (!name.empty())
                touched.emplace_back(name);
    for (const auto& name : touched) {
        const char* value = std::getenv(name.c_str());
        saved_env.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
    }

    std::vector<std::string> failures;
    uint64_t outcomes[2] = {0, 0}; // 0, 64
    {
        Captured captured(dir);
        for (uint64_t i = 0; i < iterations && failures.size() < 5; ++i) {
            Generator g(pools, top, seed * 0x9e3779b97f4a7c15ULL + i);
            random_environment(g, config_file, dir);
            const auto args = g.arguments();
            current_case = fmt::format("seed {} iteration {}: {}", seed, i, shown(args));
            log::setup(0); // as a new process starts

            int status = -1;
            try {
                cli::CommandLine line(args);
                // As CommandLine::run() would, with check() for execute().
                const auto checked = line.prepare().and_then([&](bool ready) -> Result<int> {
                    if (ready)
                        TRY(line.check());
                    return 0;
                });
                status = cli::exit_status(checked); // reported as main() reports it
                out::flush();
            } catch (const std::exception& e) {
                failures.push_back(current_case + " threw " + e.what());
                continue;
            } catch (...) {
                failures.push_back(current_case + " threw something");
                continue;
            }
            const std::string err = captured.take_stderr();
            auto fail = [&](const std::string& why) {
                failures.push_back(current_case + ": " + why + "; stderr: " + shown({err}));
            };
            if (status != 0 && status != 64) {
                fail(fmt::format("exit status {}", status));
                continue;
            }
            ++outcomes[status == 0 ? 0 : 1];
            // "dlock: ...", or as --log-format json or -vv have it: one line either way.
            const bool dlock_line =
                err.starts_with("dlock: ") || err.starts_with("dlock[") || err.starts_with("{");
            if (status == 64 &&
                (!dlock_line || !err.ends_with("\n") || err.find('\n') != err.size() - 1))
                fail("a usage error that is not one line");
            if (secret_in_secret_places(args) && err.find(kSecret) != std::string::npos)
                fail("the password was shown");
        }
    }
    std::set_terminate(previous);
    for (const auto& [name, value] : saved_env) {
        if (value)
            setenv(name.c_str(), value->c_str(), 1);
        else
            unsetenv(name.c_str());
    }
    log::setup(0);
    std::filesystem::remove_all(dir);

    INFO(outcomes[0] << " cases were ready to run (or help), " << outcomes[1]
                     << " were usage errors");
    for (const auto& failure : failures)
        FAIL_CHECK(failure);
    CHECK(failures.empty());
    // The generator must reach both sides: a fuzz test that only produces errors tests little.
    CHECK(outcomes[0] > iterations / 20);
    CHECK(outcomes[1] > iterations / 5);
}
