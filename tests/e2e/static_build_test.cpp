// The static dlock and its dynamic sibling (src/process/dynamic_handover.hpp): what the static
// build serves itself, what it hands over, and what happens when the sibling is missing.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::string sibling() {
    const std::string self = dlock_binary();
    return self.substr(0, self.rfind('/') + 1) + "dlock-dynamic";
}

// Skips the test in builds without the sibling (sanitizer builds make one dynamic dlock).
#define REQUIRE_STATIC_BUILD()                                                                     \
    do {                                                                                           \
        if (!file_exists(sibling())) {                                                             \
            WARN("dlock is a dynamic build here (no dlock-dynamic beside it): skipped");           \
            return;                                                                                \
        }                                                                                          \
    } while (false)

const std::string kHandover = "handing over to ";

TEST_CASE("dlock starts without the dynamic loader, dlock-dynamic with it", "[e2e][static]") {
    REQUIRE_STATIC_BUILD();
    auto self = run_raw({"--version"}, {{"LD_DEBUG", "libs"}});
    CHECK(self.exit_code == 0);
    CHECK_FALSE(contains(self.err, "libc.so.6")); // no loader: nothing to report
    Process dynamic({"--version"}, clean_env({{"LD_DEBUG", "libs"}}), sibling());
    auto other = dynamic.wait();
    CHECK(other.exit_code == 0);
    CHECK(other.out == self.out);
    CHECK(contains(other.err, "libc.so.6"));
}

TEST_CASE("plain runs stay in the static build", "[e2e][static]") {
    REQUIRE_STATIC_BUILD();
    REQUIRE_REDIS(server);
    for (const auto& url : {server->url(), server->tcp_url()}) {
        auto r = run_raw({"-vv", "--redis", url, "run", "job", "--", "true"});
        CHECK(r.exit_code == 0);
        CHECK_FALSE(contains(r.err, kHandover));
    }
}

TEST_CASE("without dlock-dynamic, a TLS URL is 69 in one line and Redis is not touched",
          "[e2e][static]") {
    REQUIRE_STATIC_BUILD();
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string lonely = dir / "dlock";
    std::filesystem::copy_file(dlock_binary(), lonely);
    const auto before = connections_received(*server);
    Process p({"--redis", "rediss://127.0.0.1:" + std::to_string(server->port()), "run", "job",
               "--", "true"},
              clean_env(), lonely);
    auto r = p.wait();
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    CHECK(contains(r.err, "TLS (rediss://) needs libssl, which only dlock-dynamic can load"));
    CHECK(contains(r.err, dir / "dlock-dynamic (No such file or directory)"));
    CHECK(connections_received(*server) == before + 1); // that of INFO itself
}

// Runs `dlock -vv --redis URL run job -- sh -c 'id -u > ran'` as uid kStranger (in no passwd
// file here), LOGNAME unset, in a private mount namespace whose /etc/nsswitch.conf says
// `nsswitch`. Exit 77: no such namespace can be made here (not root, or no unshare).
constexpr const char* kStranger = "54321";

ProcessResult run_as_stranger(const RedisServer& server, const TempDir& dir,
                              const std::string& nsswitch) {
    const std::string conf = write_file(dir / "nsswitch.conf", nsswitch);
    REQUIRE(chmod(conf.c_str(), 0644) == 0); // readable by the user, as the real one is
    const std::string script =
        R"sh([ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null || exit 77
exec unshare -m sh -c 'mount --bind "$0" /etc/nsswitch.conf &&
    exec setpriv --reuid "$1" --regid "$1" --clear-groups "$2" -vv --redis "$3" run job -- \
        sh -c "id -u > \"\$0\"" "$4"' "$@")sh";
    std::vector<std::string> args = {"-c",           script,           "sh",       conf, kStranger,
                                     dlock_binary(), server.tcp_url(), dir / "ran"};
    Process p(args, clean_env({{"LOGNAME", "\x01unset"}}), "/bin/sh");
    return p.wait();
}

} // namespace

TEST_CASE("a user whose name only NSS knows is handed over", "[e2e][static]") {
    REQUIRE_STATIC_BUILD();
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(chmod(dir.path().c_str(), 0777) == 0);
    auto r = run_as_stranger(*server, dir, "passwd: files systemd\n");
    if (r.exit_code == 77) {
        WARN("cannot run dlock as another user in a mount namespace here: skipped");
        return;
    }
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err,
                   std::string("the name of user id ") + kStranger + " is not in /etc/passwd"));
    CHECK(contains(r.err, kHandover + sibling()));
    CHECK(trim(read_file(dir / "ran")) == kStranger);
}

TEST_CASE("a user missing from /etc/passwd stays in the static build when NSS has only files",
          "[e2e][static]") {
    REQUIRE_STATIC_BUILD();
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(chmod(dir.path().c_str(), 0777) == 0);
    auto r = run_as_stranger(*server, dir, "passwd: files\nhosts: files dns\n");
    if (r.exit_code == 77) {
        WARN("cannot run dlock as another user in a mount namespace here: skipped");
        return;
    }
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(contains(r.err, kHandover));
    CHECK(trim(read_file(dir / "ran")) == kStranger);
    // The holder record names the uid, as NSS would have (it knows no name either).
    auto history = run_raw({"--redis", server->url(), "history", "job"});
    CHECK(contains(history.out, kStranger));
}

TEST_CASE("a host name is handed over when nsswitch.conf has sources a static glibc lacks",
          "[e2e][static]") {
    REQUIRE_STATIC_BUILD();
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string conf = write_file(dir / "nsswitch.conf", "hosts: files nosuchsource dns\n");
    // A private mount namespace where /etc/nsswitch.conf is ours. Skipped where unshare(1) may
    // not make one (no user namespaces).
    const std::string script =
        R"(unshare -rm true 2>/dev/null || exit 77
exec unshare -rm sh -c 'mount --bind "$0" /etc/nsswitch.conf && exec "$@"' "$@")";
    auto run_with = [&](const std::string& url) {
        std::vector<std::string> args = {"-c",      script, "sh",  conf,  dlock_binary(), "-vv",
                                         "--redis", url,    "run", "job", "--",           "true"};
        Process p(args, clean_env(), "/bin/sh");
        return p.wait();
    };
    const std::string port = std::to_string(server->port());
    auto named = run_with("redis://localhost:" + port);
    if (named.exit_code == 77) {
        WARN("unshare cannot make a mount namespace here: skipped");
        return;
    }
    CHECK(named.exit_code == 0);
    CHECK(
        contains(named.err, "looking up host name localhost needs the NSS source 'nosuchsource'"));
    CHECK(contains(named.err, kHandover));
    // An address needs no lookup, whatever nsswitch.conf says.
    auto address = run_with("redis://127.0.0.1:" + port);
    CHECK(address.exit_code == 0);
    CHECK_FALSE(contains(address.err, kHandover));
}
