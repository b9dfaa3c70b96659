#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

constexpr const char* kPassword = "s3cr3t-Hunter2";

std::string url_with(const RedisServer& server, const std::string& userinfo) {
    return "redis://" + userinfo + "@127.0.0.1:" + std::to_string(server.port());
}

void require_password(const RedisServer& server) {
    server.cmd({"CONFIG", "SET", "requirepass", kPassword});
}

} // namespace

TEST_CASE("a connection authenticates with the URL's password", "[connection][auth]") {
    REQUIRE_REDIS(server);
    require_password(*server);
    auto conn =
        redis::Connection::open(connect_options(url_with(*server, ":" + std::string(kPassword))));
    REQUIRE(conn);
    auto pong = conn->command({"PING"});
    REQUIRE(pong);
    CHECK(pong->str() == "PONG");
}

TEST_CASE("a connection authenticates as a named user", "[connection][auth]") {
    REQUIRE_REDIS(server);
    require_password(*server);
    auto conn = redis::Connection::open(
        connect_options(url_with(*server, "default:" + std::string(kPassword))));
    REQUIRE(conn);
    CHECK(conn->command({"PING"}));
}

TEST_CASE("a lock backend works through an authenticated connection", "[connection][auth]") {
    REQUIRE_REDIS(server);
    require_password(*server);
    redis::LockBackend backend(connect_options(url_with(*server, ":" + std::string(kPassword))));
    REQUIRE(backend.connect());
    CHECK(try_acquire(backend, request("owner-a", "hold-1")).acquired);
    CHECK(release_hold(backend, "owner-a", "hold-1") == 0);
}

TEST_CASE("a wrong password is 'unavailable' and the message hides the password",
          "[connection][auth]") {
    REQUIRE_REDIS(server);
    require_password(*server);
    auto conn = redis::Connection::open(connect_options(url_with(*server, ":wrong-Pa55word")));
    REQUIRE_FALSE(conn);
    CHECK(conn.error().fault == dlock::Fault::unavailable);
    CHECK(conn.error().message.find("authentication") != std::string::npos);
    CHECK(conn.error().message.find("127.0.0.1:" + std::to_string(server->port())) !=
          std::string::npos);
    CHECK(conn.error().message.find("wrong-Pa55word") == std::string::npos);
    CHECK(conn.error().message.find(kPassword) == std::string::npos);
}

TEST_CASE("a wrong user is 'unavailable' and hides the password", "[connection][auth]") {
    REQUIRE_REDIS(server);
    require_password(*server);
    auto conn = redis::Connection::open(
        connect_options(url_with(*server, "mallory:" + std::string(kPassword))));
    REQUIRE_FALSE(conn);
    CHECK(conn.error().fault == dlock::Fault::unavailable);
    CHECK(conn.error().message.find(kPassword) == std::string::npos);
}

TEST_CASE("a password sent to a server without one fails without showing it",
          "[connection][auth]") {
    REQUIRE_REDIS(server);
    auto conn = redis::Connection::open(connect_options(url_with(*server, ":not-needed-Pw")));
    REQUIRE_FALSE(conn);
    CHECK(conn.error().fault == dlock::Fault::unavailable);
    CHECK(conn.error().message.find("not-needed-Pw") == std::string::npos);
}

TEST_CASE("a missing password is 'unavailable' on the first command", "[connection][auth]") {
    REQUIRE_REDIS(server);
    require_password(*server);
    auto conn = redis::Connection::open(connect_options(server->tcp_url()));
    REQUIRE(conn); // nothing is sent before the first command
    auto reply = conn->command({"PING"});
    REQUIRE_FALSE(reply);
    CHECK(reply.error().fault == dlock::Fault::unavailable);
    CHECK(reply.error().message.find("requires a password (NOAUTH)") != std::string::npos);

    redis::LockBackend backend(connect_options(server->tcp_url()));
    auto acquired = backend.acquire(job_keys(), request("owner-a", "hold-1"));
    REQUIRE_FALSE(acquired);
    INFO(acquired.error().message);
    CHECK(acquired.error().fault == dlock::Fault::unavailable);
}
