// A system config file this user cannot read (a 0600 /etc/dlock.conf holding a password) is
// skipped, with a note; named explicitly, it is an error. "Cannot read" is real here: as root
// the check runs in a child that became nobody, otherwise the file is chmod 000.

#include "cli/option_table.hpp"
#include "config/settings.hpp"
#include "unit/config/fake_env.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <map>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace dlock;
using dlock::test::FakeEnv;

namespace {

// The real rows, with their checks.
const config::Options kOptions = cli::global_option_table();

// Runs `check` where `path` cannot be read; returns its failures ("" when it passed), or
// nullopt when no such place could be made.
template <typename F>
std::optional<std::string> where_unreadable(const std::string& path, F check) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        if (geteuid() == 0) {
            if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
                _exit(77);
        } else {
            chmod(path.c_str(), 0);
        }
        if (access(path.c_str(), R_OK) == 0)
            _exit(77);
        const std::string failures = check();
        (void)!write(fds[1], failures.data(), failures.size());
        _exit(0);
    }
    close(fds[1]);
    std::string failures;
    char buffer[512];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
        failures.append(buffer, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    chmod(path.c_str(), 0600);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
        return std::nullopt;
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return failures;
}

} // namespace

TEST_CASE("an unreadable system config file is skipped unless named explicitly", "[config]") {
    char dir_template[] = "/tmp/dlock-config-test-XXXXXX";
    REQUIRE(mkdtemp(dir_template) != nullptr);
    const std::string dir = dir_template, path = dir + "/dlock.conf";
    chmod(dir.c_str(), 0755);
    std::ofstream(path) << "password = S3cret\nprefix = site\n";
    chmod(path.c_str(), 0600);

    auto failures = where_unreadable(path, [&] {
        std::string out;
        auto expect = [&](bool ok, const std::string& what) {
            if (!ok)
                out += what + "\n";
        };
        // The default system path: skipped, noted, and the defaults apply.
        auto skipped = config::load(kOptions, {}, FakeEnv{}.getenv(), path);
        expect(skipped.has_value(), "the default system file was not skipped: " +
                                        (skipped ? "" : skipped.error().message));
        if (skipped) {
            expect(skipped->get("prefix").value == "dlock", "prefix is not the default");
            expect(!skipped->get("password").is_set(), "a password was read");
            expect(skipped->sources.size() == 1 && skipped->sources[0].path == path &&
                       !skipped->sources[0].found &&
                       skipped->sources[0].skipped == "Permission denied",
                   "the skip is not recorded in the sources");
        }
        // Named in DLOCK_SYSTEM_CONFIG or DLOCK_CONFIG: an error naming the variable.
        for (const std::string variable : {"DLOCK_SYSTEM_CONFIG", "DLOCK_CONFIG"}) {
            auto named =
                config::load(kOptions, {}, FakeEnv{{{variable, path}}}.getenv(), "/dev/null");
            expect(!named.has_value(), variable + ": no error");
            if (!named) {
                expect(named.error().fault == dlock::Fault::bad_input,
                       variable + ": not a usage error");
                expect(named.error().message ==
                           variable + ": cannot read config file " + path + ": Permission denied",
                       variable + ": message is '" + named.error().message + "'");
            }
        }
        return out;
    });
    std::remove(path.c_str());
    rmdir(dir.c_str());
    if (!failures) {
        WARN("cannot make a file unreadable to this process (not root, or setuid refused)");
        return;
    }
    CHECK(*failures == "");
}

TEST_CASE("an absent config file is fine only where dlock looks by default", "[config]") {
    auto absent = config::load(kOptions, {}, FakeEnv{}.getenv(), "/nonexistent/dlock.conf");
    REQUIRE(absent);
    REQUIRE(absent->sources.size() == 1);
    CHECK_FALSE(absent->sources[0].found);
    CHECK(absent->sources[0].skipped.empty());
    for (const std::string variable : {"DLOCK_SYSTEM_CONFIG", "DLOCK_CONFIG"}) {
        auto named = config::load(
            kOptions, {}, FakeEnv{{{variable, "/nonexistent/x.conf"}}}.getenv(), "/dev/null");
        REQUIRE_FALSE(named);
        CHECK(named.error().fault == dlock::Fault::bad_input);
        CHECK(named.error().message == variable +
                                           ": cannot read config file /nonexistent/x.conf: No "
                                           "such file or directory");
    }
}

TEST_CASE("the user config under a HOME this user cannot enter is skipped", "[config]") {
    // `sudo -u nobody dlock ...` keeps root's HOME: its config is root's, not an error.
    char dir_template[] = "/tmp/dlock-home-test-XXXXXX";
    REQUIRE(mkdtemp(dir_template) != nullptr);
    const std::string home = dir_template, config_dir = home + "/.config/dlock";
    std::filesystem::create_directories(config_dir);
    const std::string path = config_dir + "/config";
    std::ofstream(path) << "prefix = roots\n";
    chmod(home.c_str(), 0700);

    auto failures = where_unreadable(path, [&] {
        auto loaded =
            config::load(kOptions, {}, FakeEnv{{{"HOME", home}}}.getenv(), "/nonexistent/x.conf");
        if (!loaded)
            return "not skipped: " + loaded.error().message + "\n";
        std::string out;
        if (loaded->get("prefix").value != "dlock")
            out += "prefix is not the default\n";
        if (loaded->sources.empty() || loaded->sources[0].path != path ||
            loaded->sources[0].skipped != "Permission denied")
            out += "the skip is not recorded in the sources\n";
        return out;
    });
    std::filesystem::remove_all(home);
    if (!failures) {
        WARN("cannot make a file unreadable to this process (not root, or setuid refused)");
        return;
    }
    CHECK(*failures == "");
}
