#include "integration/lock_helpers.hpp"

#include <csignal>

using namespace dlock;
using namespace dlock::test;

TEST_CASE("a connection over TCP and over the unix socket runs commands", "[connection]") {
    REQUIRE_REDIS(server);
    for (const auto& url : {server->url(), server->tcp_url()}) {
        INFO(url);
        auto conn = redis::Connection::open(connect_options(url));
        REQUIRE(conn);
        REQUIRE(conn->command({"SET", "k", "v"}));
        CHECK(conn->command({"GET", "k"})->str() == "v");
        CHECK_FALSE(conn->broken());
    }
}

TEST_CASE("the database in the URL is selected", "[connection]") {
    REQUIRE_REDIS(server);
    for (const auto& url : {server->tcp_url() + "/3", server->url() + "?db=3"}) {
        INFO(url);
        server->cmd({"FLUSHALL"});
        redis::LockBackend backend(connect_options(url));
        REQUIRE(try_acquire(backend, request("owner-a", "hold-1")).acquired);
        CHECK_FALSE(exists(*server, job_keys().lock)); // not in db 0

        auto db3 = redis::Connection::open(connect_options(url));
        REQUIRE(db3);
        CHECK(db3->command({"EXISTS", job_keys().lock})->integer() == 1);
    }
}

TEST_CASE("a database the server does not have is 'unavailable'", "[connection]") {
    REQUIRE_REDIS(server);
    auto conn = redis::Connection::open(connect_options(server->tcp_url() + "/99"));
    REQUIRE_FALSE(conn);
    CHECK(conn.error().fault == dlock::Fault::unavailable);
    CHECK(conn.error().message.find("database 99") != std::string::npos);
}

TEST_CASE("connection refused is a transient 'unavailable' naming the endpoint", "[connection]") {
    REQUIRE_REDIS(server);
    const std::string tcp = server->tcp_url();
    const std::string unix_url = server->url();
    server->stop();

    auto conn = redis::Connection::open(connect_options(tcp));
    REQUIRE_FALSE(conn);
    CHECK(conn.error().fault == dlock::Fault::unavailable);
    CHECK(conn.error().transient);
    CHECK(conn.error().message.find("cannot reach Redis at 127.0.0.1:" +
                                    std::to_string(server->port())) != std::string::npos);

    auto via_socket = redis::Connection::open(connect_options(unix_url));
    REQUIRE_FALSE(via_socket);
    CHECK(via_socket.error().fault == dlock::Fault::unavailable);
    CHECK(via_socket.error().transient);
    CHECK(via_socket.error().message.find(server->socket_path()) != std::string::npos);
}

TEST_CASE("a lock backend reports an unreachable server on connect()", "[connection]") {
    REQUIRE_REDIS(server);
    const std::string tcp = server->tcp_url();
    server->stop();
    redis::LockBackend backend(connect_options(tcp));
    auto ok = backend.connect();
    REQUIRE_FALSE(ok);
    CHECK(ok.error().fault == dlock::Fault::unavailable);
    CHECK_FALSE(ok.error().transient); // never reached: reported at once, not retried
}

TEST_CASE("an error reply is 'internal', keeps the message and the connection", "[connection]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    auto reply = conn.command({"NOSUCHCOMMAND", "x"});
    REQUIRE_FALSE(reply);
    CHECK(reply.error().fault == dlock::Fault::internal);
    CHECK_FALSE(reply.error().transient);
    CHECK(reply.error().message.find("unknown command") != std::string::npos);
    CHECK_FALSE(conn.broken());
    CHECK(conn.command({"PING"}));
}

TEST_CASE("a nil reply is returned for the caller to interpret", "[connection]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    auto reply = conn.command({"GET", "missing"});
    REQUIRE(reply);
    CHECK(reply->is_nil());
}

TEST_CASE("a command timeout is transient and breaks the connection", "[connection]") {
    REQUIRE_REDIS(server);
    auto options = connect_options(server->url());
    options.command_timeout = 200ms;
    auto conn = redis::Connection::open(options);
    REQUIRE(conn);
    const auto start = Clock::now();
    auto reply = conn->command({"BLPOP", "nothing", "3"});
    REQUIRE_FALSE(reply);
    CHECK(elapsed_since(start) < 2s);
    CHECK(reply.error().fault == dlock::Fault::unavailable);
    CHECK(reply.error().transient);
    CHECK(reply.error().message.find("timed out after 200ms") != std::string::npos);
    CHECK(conn->broken());
    auto after = conn->command({"PING"});
    REQUIRE_FALSE(after);
    CHECK(after.error().transient);
}

TEST_CASE("a blocking command may block longer than the command timeout", "[connection]") {
    REQUIRE_REDIS(server);
    auto options = connect_options(server->url());
    options.command_timeout = 100ms;
    auto conn = redis::Connection::open(options);
    REQUIRE(conn);
    auto reply = conn->blocking_command({"BLPOP", "nothing", "0.4"}, 400ms);
    REQUIRE(reply);
    CHECK(reply->is_nil());
    CHECK_FALSE(conn->broken());
    // The normal timeout is back: a long block through command() times out again.
    auto plain = conn->command({"BLPOP", "nothing", "1"});
    REQUIRE_FALSE(plain);
    CHECK(plain.error().transient);
}

TEST_CASE("a server that goes away gives a transient error", "[connection]") {
    signal(SIGPIPE, SIG_IGN); // as dlock's main() does
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    REQUIRE(conn.command({"PING"}));
    server->stop();
    auto reply = conn.command({"PING"});
    REQUIRE_FALSE(reply);
    CHECK(reply.error().fault == dlock::Fault::unavailable);
    CHECK(reply.error().transient);
    CHECK(conn.broken());
}

TEST_CASE("a reply larger than one read arrives whole, and pipelined replies keep their order",
          "[connection]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    std::string big(3 * 1024 * 1024 + 7, 'v');
    big[12345] = '\r';
    big[23456] = '\n';
    REQUIRE(conn.command({"SET", "big", big}));
    auto got = conn.command({"GET", "big"});
    REQUIRE(got);
    CHECK(got->str() == big);

    std::vector<std::vector<std::string>> batch;
    for (int i = 0; i < 2000; ++i)
        batch.push_back({"INCR", "counter"});
    auto replies = conn.pipeline(batch);
    REQUIRE(replies);
    REQUIRE(replies->size() == 2000);
    for (int i = 0; i < 2000; ++i)
        CHECK((*replies)[static_cast<size_t>(i)]->integer() == i + 1);
}
