// `dlock sem status` as printed by cli/status_view: the summary, the permit table and the JSON.

#include "cli/status_view.hpp"
#include "unit/utc_zone.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using namespace dlock::lock;
using namespace std::chrono_literals;
using dlock::test::UtcZone;

namespace {

constexpr int64_t kNow = 1'700'000'010'000; // 2023-11-14 22:13:30 UTC

SemaphorePermits two_permits(std::string second_command = "say \"hi\"") {
    return SemaphorePermits{
        "pool",
        3,
        1,
        kNow,
        {PermitStatus{"00aa11bb22cc33dd",
                      HolderInfo{"web-1", 4242, "alice", "./a.sh", kNow - 10'000, 17}, 20s},
         PermitStatus{"ffee",
                      HolderInfo{"web-22", 7, "bob", std::move(second_command), kNow - 5000, 18},
                      25'500ms}}};
}

} // namespace

TEST_CASE("sem status prints a summary and an aligned table of permits", "[semaphore]") {
    UtcZone utc;
    CHECK(cli::permits_table(two_permits()) ==
          "name     pool\n"
          "limit    3\n"
          "used     2\n"
          "waiters  1\n"
          "PERMIT            HOST    PID   USER   SINCE               TTL    TOKEN  COMMAND\n"
          "00aa11bb22cc33dd  web-1   4242  alice  22:13:20 (10s ago)  20s    17     ./a.sh\n"
          "ffee              web-22  7     bob    22:13:25 (5s ago)   25.5s  18     say \"hi\"\n");
    CHECK(cli::permits_table(SemaphorePermits{"pool", 0, 0, kNow, {}}) ==
          "name     pool\nlimit    none\nused     0\nwaiters  0\n");
}

TEST_CASE("sem status escapes control characters of a holder and keeps the table aligned",
          "[semaphore]") {
    UtcZone utc;
    const auto table = cli::permits_table(two_permits("x\n\ty\x1b[31mz\x7f"));
    CHECK(table.find("say") == std::string::npos);
    CHECK(table ==
          "name     pool\n"
          "limit    3\n"
          "used     2\n"
          "waiters  1\n"
          "PERMIT            HOST    PID   USER   SINCE               TTL    TOKEN  COMMAND\n"
          "00aa11bb22cc33dd  web-1   4242  alice  22:13:20 (10s ago)  20s    17     ./a.sh\n"
          "ffee              web-22  7     bob    22:13:25 (5s ago)   25.5s  18     "
          "x\\n\\ty\\x1b[31mz\\x7f\n");
    CHECK(cli::permits_json(two_permits("x\n\ty\x1b[31mz"))
              .find("\"command\":\"x\\n\\ty\\u001b[31mz\"") != std::string::npos);
}

TEST_CASE("sem status --json has stable field names", "[semaphore]") {
    CHECK(cli::permits_json(two_permits()) ==
          "{\"name\":\"pool\",\"limit\":3,\"used\":2,\"waiters\":1,\"holders\":["
          "{\"permit\":\"00aa11bb22cc33dd\",\"host\":\"web-1\",\"pid\":4242,\"user\":\"alice\","
          "\"command\":\"./a.sh\",\"since_ms\":1700000000000,\"ttl_ms\":20000,\"fence\":17},"
          "{\"permit\":\"ffee\",\"host\":\"web-22\",\"pid\":7,\"user\":\"bob\","
          "\"command\":\"say \\\"hi\\\"\",\"since_ms\":1700000005000,\"ttl_ms\":25500,"
          "\"fence\":18}]}");
}
