#include "integration/lock_helpers.hpp"
#include "redis/transport/transport.hpp"
#include "support/tls_server.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string handshake_failed(const RedisServer& server) {
    return "TLS handshake with Redis at 127.0.0.1:" + std::to_string(server.port()) + " failed: ";
}

} // namespace

TEST_CASE("a connection over TLS runs commands, pipelines, large replies and BLPOP", "[tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    auto conn = redis::Connection::open(tls_options(*server));
    REQUIRE(conn);
    REQUIRE(conn->command({"SET", "k", "v"}));
    CHECK(conn->command({"GET", "k"})->str() == "v");

    // Larger than a TLS record (16 KB) and than one read: OpenSSL holds decrypted bytes.
    std::string big(300 * 1024 + 7, 'v');
    big[12345] = '\r';
    big[70000] = '\n';
    REQUIRE(conn->command({"SET", "big", big}));
    auto got = conn->command({"GET", "big"});
    REQUIRE(got);
    CHECK(got->str() == big);

    std::vector<std::vector<std::string>> batch;
    for (int i = 0; i < 1000; ++i)
        batch.push_back(i % 100 == 0 ? std::vector<std::string>{"GET", "big"}
                                     : std::vector<std::string>{"INCR", "counter"});
    auto replies = conn->pipeline(batch);
    REQUIRE(replies);
    REQUIRE(replies->size() == 1000);
    int64_t expected = 0;
    for (size_t i = 0; i < replies->size(); ++i) {
        REQUIRE((*replies)[i]);
        if (i % 100 == 0)
            CHECK((*replies)[i]->str().size() == big.size());
        else
            CHECK((*replies)[i]->integer() == ++expected);
    }

    // A block ends with nil at its timeout; the connection stays usable.
    const auto start = Clock::now();
    auto nil = conn->blocking_command({"BLPOP", "nothing", "0.3"}, 300ms);
    REQUIRE(nil);
    CHECK(nil->is_nil());
    CHECK(Clock::now() - start >= 250ms);
    // And a push from elsewhere (the plain unix socket) wakes it.
    std::thread pusher([&] {
        std::this_thread::sleep_for(100ms);
        server->cmd({"LPUSH", "queue", "x"});
    });
    auto woken = conn->blocking_command({"BLPOP", "queue", "5"}, 5s);
    pusher.join();
    REQUIRE(woken);
    REQUIRE(woken->is_array());
    CHECK((*woken)[1].str() == "x");
    CHECK_FALSE(conn->broken());
}

TEST_CASE("a TLS transport hands out the bytes it holds before waiting on the socket",
          "[tls][transport]") {
    REQUIRE_TLS_REDIS(server, "no");
    server->cmd({"SET", "big", std::string(100'000, 'x')});
    auto transport = redis::open_transport(tls_options(*server));
    REQUIRE(transport);
    const auto deadline = Clock::now() + 5s;
    REQUIRE((*transport)->write_all("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n", deadline));
    const size_t expected = std::string("$100000\r\n").size() + 100'000 + 2;
    size_t total = 0;
    bool held = false;
    char small[100];
    while (total < expected) {
        auto n = (*transport)->read_some(small, deadline);
        REQUIRE(n);
        total += *n;
        held = held || (*transport)->buffered();
    }
    CHECK(total == expected);
    CHECK(held); // a 16 KB record read 100 bytes at a time
    CHECK_FALSE((*transport)->buffered());
}

TEST_CASE("the server's certificate is verified: its CA, its host name or IP address", "[tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    SECTION("the name and the address in the certificate are accepted, with SNI") {
        for (const std::string host : {"127.0.0.1", "localhost"}) {
            INFO(host);
            auto options = tls_options(*server);
            options.endpoint.host = host;
            auto conn = redis::Connection::open(options);
            REQUIRE(conn);
            CHECK(conn->command({"PING"})->str() == "PONG");
        }
        auto options = tls_options(*server);
        options.tls.server_name = "localhost"; // verified instead of 127.0.0.1
        REQUIRE(redis::Connection::open(options));
    }
    SECTION("an unknown CA: 69, not transient, naming the verification") {
        auto options = tls_options(*server);
        options.tls.ca_file = tls_files()->other_ca;
        auto conn = redis::Connection::open(options);
        REQUIRE_FALSE(conn);
        CHECK(conn.error().fault == dlock::Fault::unavailable);
        CHECK_FALSE(conn.error().transient);
        CHECK(conn.error().message.starts_with(handshake_failed(*server) +
                                               "certificate verify failed ("));
        CHECK(contains(conn.error().message, "--tls-ca-file"));
    }
    SECTION("the system's CAs do not know the test CA") {
        auto options = tls_options(*server);
        options.tls.ca_file.clear();
        auto conn = redis::Connection::open(options);
        REQUIRE_FALSE(conn);
        CHECK(contains(conn.error().message, "certificate verify failed"));
    }
    SECTION("a host name the certificate does not carry") {
        auto options = tls_options(*server);
        options.tls.server_name = "wrong.example";
        auto conn = redis::Connection::open(options);
        REQUIRE_FALSE(conn);
        CHECK(conn.error().fault == dlock::Fault::unavailable);
        CHECK_FALSE(conn.error().transient);
        CHECK(conn.error().message.starts_with(handshake_failed(*server) + "hostname mismatch"));
        CHECK(contains(conn.error().message, "wrong.example"));
    }
    SECTION("an IP address the certificate does not carry") {
        auto options = tls_options(*server);
        options.tls.server_name = "10.1.2.3";
        auto conn = redis::Connection::open(options);
        REQUIRE_FALSE(conn);
        CHECK(conn.error().message.starts_with(handshake_failed(*server) + "IP address mismatch"));
    }
    SECTION("insecure accepts any certificate") {
        auto options = tls_options(*server);
        options.tls.ca_file = tls_files()->other_ca;
        options.tls.server_name = "wrong.example";
        options.tls.insecure = true;
        auto conn = redis::Connection::open(options);
        REQUIRE(conn);
        CHECK(conn->command({"PING"})->str() == "PONG");
    }
}

TEST_CASE("a server requiring a client certificate: given, it works, missing, 69 saying so",
          "[tls]") {
    REQUIRE_TLS_REDIS(server, "yes");
    auto with = redis::Connection::open(tls_options(*server, true));
    REQUIRE(with);
    CHECK(with->command({"PING"})->str() == "PONG");

    // TLS 1.3: the handshake completes, the server's refusal comes with the first reply. Several
    // times: whether the first write or the first read meets it depends on timing.
    // With a password, the AUTH of Connection::open meets it.
    for (int i = 0; i < 6; ++i) {
        auto options = tls_options(*server);
        if (i % 2 == 1)
            options.endpoint.password = "secret";
        auto without = redis::Connection::open(options);
        auto reply = without ? without->command({"PING"}) : tl::unexpected(without.error());
        CHECK(bool(without) == (i % 2 == 0));
        REQUIRE_FALSE(reply);
        CHECK(reply.error().fault == dlock::Fault::unavailable);
        CHECK_FALSE(reply.error().transient);
        CHECK(reply.error().message == handshake_failed(*server) +
                                           "the server requires a client certificate "
                                           "(--tls-cert/--tls-key)");
    }

    // A certificate from a CA the server does not trust.
    auto options = tls_options(*server);
    options.tls.cert_file = tls_files()->dir + "/other-ca.crt";
    options.tls.key_file = tls_files()->dir + "/other-ca.key";
    auto refused = redis::Connection::open(options);
    auto reply = refused ? refused->command({"PING"}) : tl::unexpected(refused.error());
    REQUIRE_FALSE(reply);
    CHECK(reply.error().message.starts_with(handshake_failed(*server) +
                                            "the server refused the client certificate"));
}

TEST_CASE("AUTH and SELECT work over TLS", "[tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    server->cmd({"CONFIG", "SET", "requirepass", "s3cret"});
    auto options = tls_options(*server);
    options.endpoint.password = "s3cret";
    options.endpoint.db = 2;
    auto conn = redis::Connection::open(options);
    REQUIRE(conn);
    REQUIRE(conn->command({"SET", "k", "v"}));
    CHECK(conn->command({"SELECT", "2"}));
    CHECK(conn->command({"DBSIZE"})->integer() == 1);

    options.endpoint.password.clear();
    auto refused = redis::Connection::open(options);
    REQUIRE_FALSE(refused);
    CHECK(contains(refused.error().message, "NOAUTH"));
}

TEST_CASE("unreadable or unusable CA, certificate and key files are usage errors naming them",
          "[tls]") {
    REQUIRE_TLS_REDIS(server, "no");
    const TlsFiles& files = *tls_files();
    auto attempt = [&](auto change) {
        auto options = tls_options(*server);
        change(options.tls);
        auto conn = redis::Connection::open(options);
        REQUIRE_FALSE(conn);
        CHECK(conn.error().fault == dlock::Fault::bad_input);
        return conn.error().message;
    };
    CHECK(attempt([](redis::TlsOptions& t) { t.ca_file = "/nonexistent/ca.pem"; }) ==
          "cannot read TLS CA file /nonexistent/ca.pem: No such file or directory "
          "(--tls-ca-file)");
    CHECK(attempt([](redis::TlsOptions& t) {
              t.ca_dir = "/nonexistent";
          }).starts_with("cannot read TLS CA directory /nonexistent: "));
    CHECK(attempt([&](redis::TlsOptions& t) { t.ca_file = files.dir; }) ==
          "cannot read TLS CA file " + files.dir + ": Is a directory (--tls-ca-file)");
    CHECK(attempt([&](redis::TlsOptions& t) {
              t.cert_file = "/nonexistent/c.pem";
              t.key_file = files.client_key;
          }).starts_with("cannot read TLS client certificate /nonexistent/c.pem: "));
    CHECK(attempt([&](redis::TlsOptions& t) {
              t.cert_file = files.client_cert;
              t.key_file = files.client_cert; // not a key
          }).starts_with("cannot load TLS private key " + files.client_cert + ": "));
    CHECK(attempt([&](redis::TlsOptions& t) {
              t.cert_file = files.client_cert;
              t.key_file = files.server_key;
          }).starts_with("cannot load TLS private key " + files.server_key));
}

TEST_CASE("TLS to a plain server, or plain to a TLS server, fails within the timeouts", "[tls]") {
    REQUIRE_TLS_REDIS(tls_server, "no");
    REQUIRE_REDIS(plain_server);

    auto options = tls_options(*plain_server);
    options.connect_timeout = 300ms;
    auto start = Clock::now();
    auto conn = redis::Connection::open(options);
    auto reply = conn ? conn->command({"PING"}) : tl::unexpected(conn.error());
    REQUIRE_FALSE(reply);
    CHECK(Clock::now() - start < 3s);
    CHECK(reply.error().fault == dlock::Fault::unavailable);
    CHECK(contains(reply.error().message, "TLS"));

    auto plain = connect_options("redis://127.0.0.1:" + std::to_string(tls_server->port()));
    plain.command_timeout = 300ms;
    start = Clock::now();
    auto to_tls = redis::Connection::open(plain);
    REQUIRE(to_tls); // nothing to say before the first command
    auto answer = to_tls->command({"PING"});
    REQUIRE_FALSE(answer);
    CHECK(Clock::now() - start < 3s);
    CHECK(answer.error().fault == dlock::Fault::unavailable);
}
