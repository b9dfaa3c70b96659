// What the command gets: its arguments verbatim, the environment unchanged plus DLOCK_NAME,
// DLOCK_OWNER, DLOCK_FENCING_TOKEN and DLOCK_TTL_MS; and what the lock hash says about it.

#include "e2e/e2e_helpers.hpp"

#include <map>
#include <pwd.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

bool is_hex32(const std::string& s) {
    return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

} // namespace

TEST_CASE("the command gets the environment unchanged plus the DLOCK_ variables", "[e2e][env]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string odd = "hello  world $HOME 'single' \"double\" a=b \\ end";
    const std::string multi = "line one\nline two\n\ttabbed";
    auto dlock = start(*server,
                       {"run", "--ttl", "5s", "env-job", "-c",
                        "printf %s \"$E2E_MULTI\" > \"$D/multi\"; env > \"$D/env.tmp\"; "
                        "mv \"$D/env.tmp\" \"$D/env\"; " +
                            kAwaitGo},
                       {{"D", dir.path()}, {"E2E_ODD", odd}, {"E2E_MULTI", multi}});
    REQUIRE(eventually([&] { return file_exists(dir / "env"); }));
    auto env = parse_env(read_file(dir / "env"));

    CHECK(env["E2E_ODD"] == odd);
    CHECK(read_file(dir / "multi") == multi);
    CHECK(env["PATH"] == std::string(std::getenv("PATH") ? std::getenv("PATH") : ""));
    CHECK(env["D"] == dir.path());
    CHECK(env["DLOCK_NAME"] == "env-job");
    CHECK(env["DLOCK_TTL_MS"] == "5000");
    CHECK(is_hex32(env["DLOCK_OWNER"]));
    REQUIRE_FALSE(env["DLOCK_FENCING_TOKEN"].empty());
    CHECK(env["DLOCK_FENCING_TOKEN"].find_first_not_of("0123456789") == std::string::npos);

    // They describe the lease that is held right now.
    const std::string lock = key("env-job");
    CHECK(hget(*server, lock, "owner") == env["DLOCK_OWNER"]);
    CHECK(hget(*server, lock, "fence") == env["DLOCK_FENCING_TOKEN"]);
    CHECK(hget(*server, lock, "holds") == "1");
    CHECK(hget(*server, lock, "ttl") == "5000");
    CHECK(hget(*server, lock, "pid") == std::to_string(dlock->pid()));
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    CHECK(hget(*server, lock, "host") == host);
    if (const passwd* pw = getpwuid(geteuid()))
        CHECK(hget(*server, lock, "user") == pw->pw_name);
    CHECK(hget(*server, lock, "cmd").find("printf %s") == 0);
    const auto pttl = server->cmd({"PTTL", lock}).integer();
    CHECK(pttl > 0);
    CHECK(pttl <= 5000);

    touch(dir / "go");
    CHECK(dlock->wait(10s).exit_code == 0);
    CHECK_FALSE(exists(*server, lock));
}

TEST_CASE("the lock hash records the command line", "[e2e][env]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto dlock =
        start(*server, {"run", "job", "--", "sh", "-c", kAwaitGo, "arg one"}, {{"D", dir.path()}});
    REQUIRE(eventually([&] { return exists(*server, key("job")); }));
    CHECK(hget(*server, key("job"), "cmd") == "sh -c " + kAwaitGo + " arg one");
    touch(dir / "go");
    CHECK(dlock->wait(10s).exit_code == 0);
}

TEST_CASE("a DLOCK_OWNER that is not an owner token is not inherited", "[e2e][env]") {
    REQUIRE_REDIS(server);
    for (const std::string bogus :
         {"not-a-token", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef", ""}) {
        auto r = run(*server, {"run", "job", "-c", "echo $DLOCK_OWNER"}, {{"DLOCK_OWNER", bogus}});
        CHECK(r.exit_code == 0);
        const auto owner = trim(r.out);
        CHECK(is_hex32(owner));
        CHECK(owner != bogus);
    }
}

TEST_CASE("every run gets a fresh owner token", "[e2e][env]") {
    REQUIRE_REDIS(server);
    auto a = run(*server, {"run", "job", "-c", "echo $DLOCK_OWNER"});
    auto b = run(*server, {"run", "job", "-c", "echo $DLOCK_OWNER"});
    CHECK(is_hex32(trim(a.out)));
    CHECK(is_hex32(trim(b.out)));
    CHECK(a.out != b.out);
}

TEST_CASE("arguments reach the command verbatim", "[e2e][env]") {
    REQUIRE_REDIS(server);
    SECTION("-c with positional arguments after --") {
        auto r = run(*server, {"run", "job", "-c", "echo \"$@\"", "--", "a", "b"});
        CHECK(r.exit_code == 0);
        CHECK(r.out == "a b\n");
        r = run(*server, {"run", "job", "-c", "echo \"$#:$0:$1:$2\"", "--", "x y", "-n"});
        CHECK(r.out == "2:sh:x y:-n\n");
    }
    SECTION("-c without arguments") {
        auto r = run(*server, {"run", "job", "-c", "echo \"$#\""});
        CHECK(r.out == "0\n");
    }
    SECTION("a direct command with awkward arguments") {
        auto r = run(*server,
                     {"run", "job", "--", "printf", "[%s]", "a b", "", "$HOME", "--", "-c", "*"});
        CHECK(r.exit_code == 0);
        CHECK(r.out == "[a b][][$HOME][--][-c][*]");
    }
    SECTION("options after the name") {
        auto r = run(*server, {"run", "job", "-E", "9", "--ttl", "5s", "--", "sh", "-c",
                               "echo $DLOCK_TTL_MS"});
        CHECK(r.exit_code == 0);
        CHECK(r.out == "5000\n");
    }
}
