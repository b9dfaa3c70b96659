// Error replies decoded once: by their code word, whatever the text after it.

#include "redis/protocol/server_error.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <utility>

using namespace dlock;
using namespace dlock::redis;

TEST_CASE("every code word is classified", "[redis]") {
    const std::pair<const char*, ServerErrorCode> replies[] = {
        {"MOVED 2906 127.0.0.1:7001", ServerErrorCode::moved},
        {"ASK 3300 127.0.0.1:7002", ServerErrorCode::ask},
        {"TRYAGAIN Multiple keys request during rehashing of slot", ServerErrorCode::tryagain},
        {"CLUSTERDOWN The cluster is down", ServerErrorCode::clusterdown},
        {"NOSCRIPT No matching script. Please use EVAL.", ServerErrorCode::noscript},
        {"LOADING Redis is loading the dataset in memory", ServerErrorCode::loading},
        {"BUSY Redis is busy running a script.", ServerErrorCode::busy},
        {"READONLY You can't write against a read only replica.", ServerErrorCode::readonly},
        {"MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
         ServerErrorCode::masterdown},
        {"NOREPLICAS Not enough good replicas to write.", ServerErrorCode::noreplicas},
        {"UNBLOCKED force unblock from blocking operation, instance state changed (master -> "
         "replica?)",
         ServerErrorCode::unblocked},
        {"NOAUTH Authentication required.", ServerErrorCode::noauth},
        {"WRONGPASS invalid username-password pair or user is disabled.", ServerErrorCode::auth},
        {"NOPERM User bob has no permissions to run the 'role' command", ServerErrorCode::noperm},
        {"WRONGTYPE Operation against a key holding the wrong kind of value",
         ServerErrorCode::wrongtype},
        {"ERR max number of clients reached", ServerErrorCode::maxclients},
        {"ERR unknown command 'SENTINEL'", ServerErrorCode::other},
    };
    for (const auto& [text, code] : replies) {
        INFO(text);
        const ServerError error = classify(text);
        CHECK(error.code == code);
        CHECK(error.text == text);
        CHECK(error.redirect.has_value() == is_redirect(code));
    }
}

TEST_CASE("the ERR family is told apart by its text", "[redis]") {
    // Dropped before AUTH for sending a long command.
    CHECK(classify("ERR Protocol error: unauthenticated multibulk length").code ==
          ServerErrorCode::noauth);
    // Servers before ACLs.
    CHECK(classify("ERR invalid password").code == ServerErrorCode::auth);
    CHECK(classify("ERR AUTH <password> called without any password configured for the default "
                   "user. Are you sure your configuration is correct?")
              .code == ServerErrorCode::auth);
    CHECK(classify("ERR This instance has cluster support disabled").code ==
          ServerErrorCode::cluster_disabled);
    CHECK(classify("ERR SELECT is not allowed in cluster mode").code ==
          ServerErrorCode::cluster_mode);
    CHECK(classify("ERR WAIT cannot be used with replica instances.").code ==
          ServerErrorCode::replica_refused);
    CHECK(classify("ERR unknown command 'WAIT'").code == ServerErrorCode::other);
}

TEST_CASE("Valkey's NOSCRIPT is NOSCRIPT", "[redis]") {
    CHECK(classify("NOSCRIPT No matching script.").code == ServerErrorCode::noscript);
    CHECK(classify("NOSCRIPT").code == ServerErrorCode::noscript);
}

TEST_CASE("a redirect's fields are parsed with its code", "[redis][cluster]") {
    const ServerError moved = classify("MOVED 2906 127.0.0.1:7001");
    REQUIRE(moved.redirect);
    CHECK_FALSE(moved.redirect->ask);
    CHECK(moved.redirect->slot == 2906);
    CHECK(moved.redirect->host == "127.0.0.1");
    CHECK(moved.redirect->port == 7001);

    const ServerError ask = classify("ASK 3300 [fe80::1]:7002");
    REQUIRE(ask.redirect);
    CHECK(ask.code == ServerErrorCode::ask);
    CHECK(ask.redirect->ask);
    CHECK(ask.redirect->slot == 3300);
    CHECK(ask.redirect->host == "fe80::1");
    CHECK(ask.redirect->port == 7002);

    // The host of the server that replied.
    CHECK(classify("MOVED 1 :7003").redirect.value().host.empty());
    // One that cannot be followed is no redirect.
    for (auto text : {"MOVED", "MOVED x h:1", "MOVED 16384 h:1", "MOVED 1 h", "ASK 1 h:99999"}) {
        INFO(text);
        const ServerError error = classify(text);
        CHECK(error.code == ServerErrorCode::other);
        CHECK_FALSE(error.redirect);
    }
}

TEST_CASE("the code is the first word, never a part of it or a later one", "[redis]") {
    for (auto text : {"BUSYKEY Target key name already exists.", "ERR READONLY", "ERR NOSCRIPT",
                      "NOSCRIPTS x", "noscript No matching script.", "MOVEDX 1 h:1", " NOSCRIPT",
                      "LOADINGX", "ERR MOVED 1 h:1"}) {
        INFO(text);
        CHECK(classify(text).code == ServerErrorCode::other);
    }
}

TEST_CASE("empty and garbage replies are other", "[redis]") {
    CHECK(classify("").code == ServerErrorCode::other);
    CHECK(classify("").text.empty());
    CHECK(classify(" ").code == ServerErrorCode::other);
    const char raw[] = "\0\xff\n\r MOVED 1 h:1";
    const std::string garbage(raw, sizeof raw - 1);
    const ServerError error = classify(garbage);
    CHECK(error.code == ServerErrorCode::other);
    CHECK(error.text == garbage);
    CHECK(classify(std::string(100000, 'A')).code == ServerErrorCode::other);
}

TEST_CASE("the groups the layers above act on", "[redis]") {
    CHECK(cluster_busy(ServerErrorCode::tryagain));
    CHECK(cluster_busy(ServerErrorCode::clusterdown));
    CHECK_FALSE(cluster_busy(ServerErrorCode::loading));
    CHECK(not_master(ServerErrorCode::readonly));
    CHECK(not_master(ServerErrorCode::masterdown));
    CHECK(not_master(ServerErrorCode::unblocked));
    CHECK_FALSE(not_master(ServerErrorCode::other));
    CHECK(server_busy(ServerErrorCode::loading));
    CHECK(server_busy(ServerErrorCode::busy));
    CHECK(server_busy(ServerErrorCode::noreplicas));
    CHECK_FALSE(server_busy(ServerErrorCode::noscript));
    CHECK(access_denied(ServerErrorCode::noauth));
    CHECK(access_denied(ServerErrorCode::auth));
    CHECK(access_denied(ServerErrorCode::noperm));
    CHECK_FALSE(access_denied(ServerErrorCode::wrongtype));
    CHECK(is_redirect(ServerErrorCode::moved));
    CHECK(is_redirect(ServerErrorCode::ask));
    CHECK_FALSE(is_redirect(ServerErrorCode::tryagain));
}

TEST_CASE("an Error carries the code of its reply, if any", "[redis]") {
    Error error{dlock::Fault::internal, "NOSCRIPT No matching script."};
    CHECK_FALSE(server_code(error)); // words alone decide nothing
    error.server = std::make_shared<const ServerError>(classify(error.message));
    CHECK(server_code(error) == ServerErrorCode::noscript);
}
