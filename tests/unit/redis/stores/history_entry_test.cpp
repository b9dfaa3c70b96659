#include "redis/stores/history.hpp"

#include <catch2/catch.hpp>

using namespace dlock;

TEST_CASE("a history entry names its other party by the other_* fields", "[history]") {
    redis::HistoryEntry e;
    e.fields = {{"event", "skip"},       {"other_host", "web-9"},  {"other_pid", "99"},
                {"other_user", "carol"}, {"other_command", "./x"}, {"other_since_ms", "7"},
                {"other_fence", "5"},    {"host", "web-1"}};
    const auto other = e.other();
    REQUIRE(other);
    CHECK(other->host == "web-9");
    CHECK(other->pid == 99);
    CHECK(other->user == "carol");
    CHECK(other->command == "./x");
    CHECK(other->since_ms == 7);
    CHECK(other->fence == 5);
}

TEST_CASE("a history entry without other_* fields has no other party", "[history]") {
    redis::HistoryEntry e;
    e.fields = {{"event", "acquire"}, {"host", "web-1"}, {"pid", "1"}};
    CHECK_FALSE(e.other());
}
