#include "util/did_you_mean.hpp"

#include <catch2/catch.hpp>

using dlock::closest_match;

namespace {

const std::vector<std::string> kRunOptions{
    "wait",    "no-wait",  "ttl",         "shared",  "exclusive",         "kill-after",
    "command", "min-hold", "lost-signal", "timeout", "conflict-exit-code"};

} // namespace

TEST_CASE("did you mean: a typo finds its option", "[did_you_mean]") {
    CHECK(closest_match("wiat", kRunOptions) == "wait");  // two letters swapped
    CHECK(closest_match("wat", kRunOptions) == "wait");   // one left out
    CHECK(closest_match("waitt", kRunOptions) == "wait"); // one too many
    CHECK(closest_match("tll", kRunOptions) == "ttl");
    CHECK(closest_match("kill-afer", kRunOptions) == "kill-after");
    CHECK(closest_match("min_hold", kRunOptions) == "min-hold");
    CHECK(closest_match("minhold", kRunOptions) == "min-hold");
    CHECK(closest_match("lost-sginal", kRunOptions) == "lost-signal");
    CHECK(closest_match("timout", kRunOptions) == "timeout");
}

TEST_CASE("did you mean: nothing when far, exact or ambiguous", "[did_you_mean]") {
    CHECK(closest_match("full", kRunOptions) == std::nullopt);
    CHECK(closest_match("bogus", kRunOptions) == std::nullopt);
    CHECK(closest_match("wait", kRunOptions) == std::nullopt); // not a typo
    CHECK(closest_match("x", {"n", "w"}) == std::nullopt);     // a whole word replaced
    CHECK(closest_match("ab", {"ac", "ad"}) == std::nullopt);  // two as close
    CHECK(closest_match("tiemout-exit", kRunOptions) == std::nullopt);
    CHECK(closest_match("", kRunOptions) == std::nullopt);
    CHECK(closest_match("wiat", {}) == std::nullopt);
}

TEST_CASE("did you mean: config keys", "[did_you_mean]") {
    const std::vector<std::string> keys{"redis",         "password-file",   "prefix",
                                        "redis-timeout", "connect-timeout", "log-level",
                                        "syslog"};
    CHECK(closest_match("prefx", keys) == "prefix");
    CHECK(closest_match("log_level", keys) == "log-level");
    CHECK(closest_match("redis-timout", keys) == "redis-timeout");
    CHECK(closest_match("password_file", keys) == "password-file");
    CHECK(closest_match("redis-url", keys) == std::nullopt);
    CHECK(closest_match("timeout", keys) == std::nullopt);
}
