// A connection refused for the server's client limit (maxclients) is one typed, transient
// `unavailable` error naming the server, whether its first command reads the refusal or finds
// the connection already closed, and whatever the first command is (a plain command, a
// pipeline, a script, the set-up's SELECT).

#include "integration/lock_helpers.hpp"
#include "redis/protocol/server_error.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "redis/scripts/script_runner.hpp"

#include <thread>

using namespace dlock;
using namespace dlock::test;
using namespace std::chrono_literals;

namespace {

void check_refusal(const Error& error, const std::string& url) {
    INFO(url << ": " << error.message);
    CHECK(redis::client_limit(error));
    CHECK(error.fault == Fault::unavailable);
    CHECK(error.transient);
    CHECK_FALSE(error.unreachable);
    CHECK(error.message.starts_with("Redis at "));
    CHECK(error.message.ends_with(
        " refused the connection: max number of clients reached (its maxclients)"));
}

} // namespace

TEST_CASE("a connection over the client limit is refused as transient and unavailable",
          "[connection][maxclients]") {
    auto server = RedisServer::start([](int) {
        return std::vector<std::string>{"--maxclients", "3"};
    });
    DLOCK_SKIP_UNLESS_STARTED(server, "redis-server", "Redis");
    // Every slot taken: connections until the server refuses one.
    std::vector<redis::Connection> taken;
    for (int i = 0; i < 100; ++i) {
        auto conn = redis::Connection::open(connect_options(server->url()));
        REQUIRE(conn);
        if (!conn->command({"PING"}))
            break;
        taken.push_back(std::move(*conn));
    }
    REQUIRE(taken.size() < 100);

    for (const auto& url : {server->url(), server->tcp_url()}) {
        for (const auto pause : {0ms, 200ms}) { // 200 ms: the server has closed it by then
            INFO("pause " << pause.count() << " ms");
            auto conn = redis::Connection::open(connect_options(url));
            REQUIRE(conn); // nothing sent yet
            std::this_thread::sleep_for(pause);
            auto reply = conn->command({"PING"});
            REQUIRE_FALSE(reply);
            check_refusal(reply.error(), url);
            CHECK(conn->broken());

            conn = redis::Connection::open(connect_options(url));
            REQUIRE(conn);
            std::this_thread::sleep_for(pause);
            auto replies = conn->pipeline({{"PING"}, {"PING"}});
            REQUIRE_FALSE(replies);
            check_refusal(replies.error(), url);

            conn = redis::Connection::open(connect_options(url));
            REQUIRE(conn);
            std::this_thread::sleep_for(pause);
            auto script = redis::run_script(*conn, redis::scripts::status, {"k"}, {});
            REQUIRE_FALSE(script);
            check_refusal(script.error(), url);
        }
        // Refused in the set-up (SELECT): the same error, from open().
        const std::string db2 = url + (url.starts_with("unix") ? "?db=2" : "/2");
        auto selected = redis::Connection::open(connect_options(db2));
        REQUIRE_FALSE(selected);
        check_refusal(selected.error(), url);
    }
}
