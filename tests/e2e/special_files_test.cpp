// Files dlock reads that are not regular files: a FIFO (or a terminal) would block it with no
// bound, so each is refused unread, 64 in one line naming the file, before Redis is touched.
// /dev/null still disables a config file, and a password may still come from a pipe.

#include "e2e/e2e_helpers.hpp"

#include <sys/stat.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

std::string make_fifo(const TempDir& dir, const std::string& name) {
    const std::string path = dir / name;
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    return path;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("a FIFO given as a config or password file is 64 at once, and Redis is not touched",
          "[e2e][usage][files]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string fifo = make_fifo(dir, "fifo");
    const std::string ran = dir / "ran";
    const std::string sentinel_url =
        "redis-sentinel://127.0.0.1:" + std::to_string(server->port()) + "#mymaster";
    struct Case {
        std::string what;
        std::vector<std::string> args;
        Env env;
        std::string message;
    };
    const std::string url = server->url();
    const std::vector<Case> cases{
        {"--password-file",
         {"--redis", url, "--password-file", fifo, "run", "job", "--", "touch", ran},
         {},
         "dlock: --password-file: cannot read password file " + fifo + ": not a regular file\n"},
        {"DLOCK_REDIS_PASSWORD_FILE",
         {"--redis", url, "run", "job", "--", "touch", ran},
         {{"DLOCK_REDIS_PASSWORD_FILE", fifo}},
         "dlock: DLOCK_REDIS_PASSWORD_FILE: cannot read password file " + fifo +
             ": not a regular file\n"},
        {"--sentinel-password-file",
         {"--redis", sentinel_url, "--sentinel-password-file", fifo, "run", "job", "--", "touch",
          ran},
         {},
         "dlock: --sentinel-password-file: cannot read password file " + fifo +
             ": not a regular file\n"},
        {"DLOCK_CONFIG",
         {"--redis", url, "run", "job", "--", "touch", ran},
         {{"DLOCK_CONFIG", fifo}},
         "dlock: DLOCK_CONFIG: cannot read config file " + fifo + ": not a regular file\n"},
        {"DLOCK_SYSTEM_CONFIG",
         {"--redis", url, "run", "job", "--", "touch", ran},
         {{"DLOCK_SYSTEM_CONFIG", fifo}},
         "dlock: DLOCK_SYSTEM_CONFIG: cannot read config file " + fifo + ": not a regular file\n"},
        {"password-file in a config file",
         {"--redis", url, "run", "job", "--", "touch", ran},
         {{"DLOCK_CONFIG", write_file(dir / "config", "password-file = " + fifo + "\n")}},
         "dlock: " + dir / "config" + ":1: cannot read password file " + fifo +
             ": not a regular file\n"},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        const int64_t before = connections_received(*server);
        auto r = run_raw(c.args, c.env, 20s);
        CHECK(r.exit_code == 64);
        CHECK(r.err == c.message);
        CHECK(connections_received(*server) == before + 1); // that of the INFO above
    }
    CHECK_FALSE(file_exists(ran));
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("/dev/null still disables a config file, and a password may come from a pipe",
          "[e2e][files][password]") {
    REQUIRE_REDIS(server);
    server->cmd({"CONFIG", "SET", "requirepass", "piped-Secret"});
    // As `--password-file <(pass show redis)` or `... | dlock --password-file /dev/stdin` give.
    Process piped({"-c", "printf 'piped-Secret\\n' | \"$0\" \"$@\"", dlock_binary(), "--redis",
                   server->url(), "--password-file", "/dev/stdin", "run", "job", "--", "echo",
                   "ran"},
                  clean_env(), "/bin/sh");
    auto r = piped.wait(20s);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "ran\n");
    CHECK(r.err.empty());
}

TEST_CASE("a TLS file that is a FIFO is 64 at once", "[e2e][usage][files][tls]") {
    TempDir dir;
    const std::string fifo = make_fifo(dir, "fifo");
    // The files are checked before any connection: no server is needed.
    for (const std::string option : {"--tls-ca-file", "--tls-cert", "--tls-key"}) {
        INFO(option);
        std::vector<std::string> args{"--redis", "rediss://127.0.0.1:1", "--tls-ca-file", fifo};
        if (option != "--tls-ca-file") // checked before either is loaded: any regular file will do
            args = {"-q",              // no warning about --tls-insecure
                    "--redis",
                    "rediss://127.0.0.1:1",
                    "--tls-insecure",
                    "--tls-cert",
                    option == "--tls-cert" ? fifo : write_file(dir / "client.crt", ""),
                    "--tls-key",
                    option == "--tls-key" ? fifo : write_file(dir / "client.key", "")};
        args.insert(args.end(), {"run", "job", "--", "touch", dir / "ran"});
        auto r = run_raw(args, {}, 20s);
        INFO(r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_line(r.err));
        CHECK(contains(r.err, fifo + ": not a regular file (" + option + ")"));
    }
    CHECK_FALSE(file_exists(dir / "ran"));
}
