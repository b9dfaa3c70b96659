// dlock over TLS (rediss://, rediss-sentinel://) against a private redis-server with a test CA:
// the commands work, and every refusal is one line with exit 69 naming its cause.

#include "e2e/e2e_helpers.hpp"
#include "support/tls_server.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// `dlock --redis rediss://... --tls-ca-file CA [--tls-cert C --tls-key K] ARGS...`
std::vector<std::string> over_tls(const RedisServer& server, std::vector<std::string> args,
                                  bool client_cert = true, const std::string& host = "127.0.0.1") {
    const TlsFiles& files = *tls_files();
    std::vector<std::string> out = {"--redis", tls_url(server, host), "--tls-ca-file", files.ca};
    if (client_cert)
        out.insert(out.end(), {"--tls-cert", files.client_cert, "--tls-key", files.client_key});
    out.insert(out.end(), args.begin(), args.end());
    return out;
}

} // namespace

TEST_CASE("run, status, sem run and latch work over rediss:// with a client certificate",
          "[e2e][tls]") {
    REQUIRE_TLS_REDIS(server, "yes");
    auto r = run_raw(over_tls(*server, {"run", "job", "--", "sh", "-c", "echo $DLOCK_NAME"}));
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "job\n");
    CHECK(r.err.empty());

    // The watchdog renews over its own TLS connection, from its own thread.
    r = run_raw(over_tls(*server, {"run", "--ttl", "1s", "renewed", "--", "sleep", "1.6"}));
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());

    auto holder = std::make_unique<Process>(over_tls(*server, {"run", "held", "--", "sleep", "30"}),
                                            clean_env());
    REQUIRE(eventually([&] { return exists(*server, key("held")); }));
    r = run_raw(over_tls(*server, {"status", "held"}));
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "exclusive"));
    holder->signal(SIGTERM);
    holder->wait();

    r = run_raw(over_tls(*server, {"sem", "run", "-p", "2", "pool", "--", "true"}));
    CHECK(r.exit_code == 0);

    // The CA from the environment, the client certificate from a config file.
    TempDir dir;
    const TlsFiles& files = *tls_files();
    const std::string config =
        write_file(dir / "dlock.conf",
                   "tls-cert = " + files.client_cert + "\ntls-key = " + files.client_key + "\n");
    const Env env = {{"DLOCK_TLS_CA_FILE", files.ca}, {"DLOCK_CONFIG", config}};
    const std::string url = tls_url(*server);
    CHECK(run_raw({"--redis", url, "latch", "create", "batch", "2"}, env).exit_code == 0);
    CHECK(run_raw({"--redis", url, "latch", "count-down", "batch"}, env).exit_code == 0);
    r = run_raw({"--redis", url, "latch", "status", "batch"}, env);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "1"));
    CHECK(run_raw({"--redis", url, "latch", "count-down", "batch"}, env).exit_code == 0);
    CHECK(run_raw({"--redis", url, "latch", "wait", "-w", "5s", "batch"}, env).exit_code == 0);
}

TEST_CASE("a wrong CA, a wrong host name, a missing client certificate: 69 with the reason",
          "[e2e][tls]") {
    REQUIRE_TLS_REDIS(server, "yes");
    const TlsFiles& files = *tls_files();
    const std::string failed =
        "dlock: TLS handshake with Redis at 127.0.0.1:" + std::to_string(server->port()) +
        " failed: ";

    auto args = over_tls(*server, {"run", "job", "--", "true"});
    args[3] = files.other_ca; // --tls-ca-file
    auto r = run_raw(args);
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    CHECK(r.err.starts_with(failed + "certificate verify failed ("));

    r = run_raw(
        over_tls(*server, {"--tls-server-name", "wrong.example", "run", "job", "--", "true"}));
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    CHECK(r.err.starts_with(failed + "hostname mismatch"));
    CHECK(contains(r.err, "wrong.example"));

    r = run_raw(over_tls(*server, {"run", "job", "--", "true"}, false));
    CHECK(r.exit_code == 69);
    // The alert names the cause; if it loses the race with our first command, the hint does.
    CHECK(one_line(r.err));
    CHECK(contains(r.err, "requires a client certificate"));
    CHECK(contains(r.err, "--tls-cert/--tls-key"));

    r = run_raw(over_tls(*server, {"status"}, false));
    CHECK(r.exit_code == 69);
    INFO(r.err);
    CHECK(contains(r.err, "requires a client certificate"));
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("an unknown CA is accepted with --tls-insecure, which warns", "[e2e][tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    auto args = over_tls(*server, {"--tls-insecure", "run", "job", "--", "true"}, false);
    args[3] = tls_files()->other_ca;
    auto r = run_raw(args);
    CHECK(r.exit_code == 0);
    CHECK(one_line(r.err));
    CHECK(contains(r.err, "--tls-insecure: the certificate of Redis at 127.0.0.1:"));

    // From the environment too; once per run, however many connections.
    r = run_raw({"--redis", tls_url(*server, "localhost"), "run", "--ttl", "1s", "job", "--",
                 "sleep", "1.6"},
                {{"DLOCK_TLS_INSECURE", "true"}});
    CHECK(r.exit_code == 0);
    CHECK(one_line(r.err));
}

TEST_CASE("an unreadable --tls-ca-file is 64, and nothing reaches Redis", "[e2e][tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    const int64_t before = connections_received(*server);
    auto args = over_tls(*server, {"run", "job", "--", "true"}, false);
    args[3] = "/nonexistent/ca.pem";
    auto r = run_raw(args);
    CHECK(r.exit_code == 64);
    CHECK(one_line(r.err));
    CHECK(contains(r.err, "cannot read TLS CA file /nonexistent/ca.pem"));
    CHECK(connections_received(*server) == before + 1); // that of the INFO above
}

TEST_CASE("OpenSSL is loaded only for a TLS URL", "[e2e][tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    auto plain = run(*server, {"run", "job", "--", "true"}, {{"LD_DEBUG", "libs"}});
    CHECK(plain.exit_code == 0);
    CHECK(contains(plain.err, "libc.so.6")); // the loader did report
    CHECK_FALSE(contains(plain.err, "libssl"));
    CHECK_FALSE(contains(plain.err, "libcrypto"));

    auto tls =
        run_raw(over_tls(*server, {"run", "job", "--", "true"}, false), {{"LD_DEBUG", "libs"}});
    CHECK(tls.exit_code == 0);
    CHECK(contains(tls.err, "libssl.so.3"));
}

TEST_CASE("without libssl.so.3, a TLS URL is 69 in one line", "[e2e][tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    // A private mount namespace where the library is an empty file. Skipped where unshare(1)
    // may not make one (no user namespaces).
    const std::string script =
        R"(lib=$(ldconfig -p | awk '/libssl\.so\.3 /{print $NF; exit}')
[ -n "$lib" ] || exit 77
unshare -rm sh -c 'mount --bind /dev/null "$0"' "$lib" 2>/dev/null || exit 77
exec unshare -rm sh -c 'mount --bind /dev/null "$0" && exec "$@"' "$lib" "$@")";
    std::vector<std::string> args = {"-c", script, "sh", dlock_binary()};
    for (auto& arg : over_tls(*server, {"run", "job", "--", "true"}, false))
        args.push_back(arg);
    Process p(args, clean_env(), "/bin/sh");
    auto r = p.wait();
    if (r.exit_code == 77) {
        WARN("no private mount namespace here: skipped");
        return;
    }
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    CHECK(r.err.starts_with("dlock: TLS needs OpenSSL 3, which could not be loaded: "));
    CHECK(contains(r.err, "libssl3"));
}

TEST_CASE("rediss-sentinel:// asks a TLS sentinel and takes the lock on the master over TLS",
          "[e2e][tls][sentinel]") {
    REQUIRE_TLS_REDIS(master, "no");
    TlsSentinel sentinel(*master);
    const std::string url = "rediss-sentinel://127.0.0.1:" + std::to_string(sentinel.port()) + "#m";
    auto r = run_raw({"--redis", url, "--tls-ca-file", tls_files()->ca, "run", "job", "--", "sh",
                      "-c", "echo $DLOCK_FENCING_TOKEN"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(r.out.empty());
    CHECK(exists(*master, key("job", "fence"))); // the lock was taken on the master

    r = run_raw({"--redis", url, "--tls-ca-file", tls_files()->other_ca, "status"});
    CHECK(r.exit_code == 69);
    CHECK(contains(r.err, "certificate verify failed"));
}
