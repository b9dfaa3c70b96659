#include "util/log_line.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace dlock;

TEST_CASE("json log lines carry UTC time with milliseconds, level, pid and message", "[json]") {
    using namespace std::chrono;
    const system_clock::time_point t{milliseconds(1'795'326'404'762)};
    CHECK(log::json_line(t, "warn", 4242, "job is held by \"web-2\"") ==
          "{\"time\":\"2026-11-22T05:46:44.762Z\",\"level\":\"warn\",\"pid\":4242,"
          "\"message\":\"job is held by \\\"web-2\\\"\"}\n");
    CHECK(log::json_line(system_clock::time_point{}, "error", 1, "x") ==
          "{\"time\":\"1970-01-01T00:00:00.000Z\",\"level\":\"error\",\"pid\":1,"
          "\"message\":\"x\"}\n");
}
