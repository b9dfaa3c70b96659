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

} // namespace

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

TEST_CASE("a user whose name only NSS knows is handed over", "[e2e][static]") {
    REQUIRE_STATIC_BUILD();
    if (geteuid() != 0) {
        WARN("not root: cannot run dlock as a user missing from /etc/passwd; skipped");
        return;
    }
    REQUIRE_REDIS(server);
    TempDir dir;
    REQUIRE(chmod(dir.path().c_str(), 0777) == 0);
    const std::string uid = "54321"; // in no passwd file here
    std::vector<std::string> args = {"--reuid",
                                     uid,
                                     "--regid",
                                     uid,
                                     "--clear-groups",
                                     dlock_binary(),
                                     "-vv",
                                     "--redis",
                                     server->tcp_url(),
                                     "run",
                                     "job",
                                     "--",
                                     "sh",
                                     "-c",
                                     "id -u > \"$0\"",
                                     dir / "ran"};
    Process p(args, clean_env({{"LOGNAME", "\x01unset"}}), "/usr/bin/setpriv");
    auto r = p.wait();
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err, "the name of user id " + uid + " is not in /etc/passwd"));
    CHECK(contains(r.err, kHandover + sibling()));
    CHECK(trim(read_file(dir / "ran")) == uid);
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
