// Files dlock is told to read: a password file that is a directory or empty, a config file
// named in DLOCK_CONFIG / DLOCK_SYSTEM_CONFIG that does not exist or that this user cannot
// read. Each is a usage error naming the file; none silently means "no password" or "defaults".

#include "e2e/e2e_helpers.hpp"

#include <sys/stat.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// How to run dlock as a user who cannot read a root-owned 0600 file: as root, through
// setpriv as nobody; otherwise as ourselves, with the file made unreadable (chmod 000 keeps even
// its owner out, root excepted). Empty when neither works: the caller skips.
std::vector<std::string> unprivileged_prefix(const std::string& unreadable_file) {
    if (geteuid() != 0) {
        chmod(unreadable_file.c_str(), 0);
        return {dlock_binary()};
    }
    std::vector<std::string> prefix{"--reuid=65534", "--regid=65534", "--clear-groups",
                                    dlock_binary()};
    Process probe({"--reuid=65534", "--regid=65534", "--clear-groups", "/bin/cat", unreadable_file},
                  {}, "/usr/bin/setpriv");
    auto r = probe.wait(10s);
    if (r.exit_code == 0 || r.err.find("Permission denied") == std::string::npos)
        return {};
    return prefix;
}

ProcessResult run_prefixed(std::vector<std::string> prefix, const std::vector<std::string>& args,
                           const Env& env) {
    std::string program = prefix.front() == dlock_binary() ? dlock_binary() : "/usr/bin/setpriv";
    if (program == dlock_binary())
        prefix.erase(prefix.begin());
    prefix.insert(prefix.end(), args.begin(), args.end());
    Process p(prefix, clean_env(env), program);
    return p.wait(30s);
}

} // namespace

TEST_CASE("a password file that is a directory or empty is a usage error",
          "[e2e][usage][password]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const auto empty = write_file(dir / "empty", "");
    const auto newline = write_file(dir / "newline", "\n");
    std::filesystem::create_directory(dir / "pw.d");
    for (const auto& [path, why] : std::vector<std::pair<std::string, std::string>>{
             {dir / "pw.d", "is a directory"}, {empty, "is empty"}, {newline, "is empty"}}) {
        INFO(path);
        auto r = run(*server, {"--password-file", path, "run", "job", "--", "touch", dir / "ran"});
        CHECK(r.exit_code == 64);
        CHECK(r.err ==
              "dlock: --password-file: cannot read password file " + path + ": " + why + "\n");
        r = run(*server, {"run", "job", "--", "touch", dir / "ran"},
                {{"DLOCK_REDIS_PASSWORD_FILE", path}});
        CHECK(r.exit_code == 64);
        CHECK(r.err == "dlock: DLOCK_REDIS_PASSWORD_FILE: cannot read password file " + path +
                           ": " + why + "\n");
        CHECK_FALSE(file_exists(dir / "ran"));
    }
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("a config file named in DLOCK_CONFIG or DLOCK_SYSTEM_CONFIG must exist",
          "[e2e][usage][config]") {
    TempDir dir;
    for (const std::string variable : {"DLOCK_CONFIG", "DLOCK_SYSTEM_CONFIG"}) {
        auto r = run_raw({"config"}, {{variable, dir / "nonexistent"}});
        INFO(variable);
        CHECK(r.exit_code == 64);
        CHECK(r.err == "dlock: " + variable + ": cannot read config file " + dir / "nonexistent" +
                           ": No such file or directory\n");
        CHECK(r.out.empty());
    }
}

TEST_CASE("a config file named explicitly that this user cannot read is a usage error",
          "[e2e][usage][config]") {
    TempDir dir;
    chmod(dir.path().c_str(), 0755);
    const auto secret = write_file(dir / "dlock.conf", "password = S3cret\nprefix = site\n", 0600);
    auto prefix = unprivileged_prefix(secret);
    if (prefix.empty()) {
        WARN("cannot run dlock as an unprivileged user here (setpriv failed): skipped");
        return;
    }
    for (const std::string variable : {"DLOCK_CONFIG", "DLOCK_SYSTEM_CONFIG"}) {
        auto r = run_prefixed(prefix, {"config"}, {{variable, secret}});
        INFO(variable << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(r.err == "dlock: " + variable + ": cannot read config file " + secret +
                           ": Permission denied\n");
        CHECK(r.out.empty());
    }
}
