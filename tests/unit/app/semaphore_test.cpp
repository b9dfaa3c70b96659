#include "app/semaphore.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <ctime>

using namespace dlock::app;

namespace {

SemaphoreState two_holders() {
    SemaphoreState s;
    s.name = "pool";
    s.limit = 3;
    s.waiters = 1;
    s.now_ms = 1'700'000'010'000;
    s.holders = {
        {"00aa11bb22cc33dd", "web-1", 4242, "alice", "./a.sh", 1'700'000'000'000, 20'000, 17},
        {"ffee", "web-22", 7, "bob", "say \"hi\"", 1'700'000'005'000, 25'500, 18}};
    return s;
}

} // namespace

TEST_CASE("sem status prints a summary and an aligned table of holders", "[semaphore]") {
    setenv("TZ", "UTC0", 1);
    tzset();
    CHECK(format_semaphore(two_holders()) ==
          "name     pool\n"
          "limit    3\n"
          "used     2\n"
          "waiters  1\n"
          "PERMIT            HOST    PID   USER   SINCE     TTL    TOKEN  COMMAND\n"
          "00aa11bb22cc33dd  web-1   4242  alice  22:13:20  20s    17     ./a.sh\n"
          "ffee              web-22  7     bob    22:13:25  25.5s  18     say \"hi\"\n");
    unsetenv("TZ");
    tzset();
    SemaphoreState empty{"pool", 0, 0, 0, {}};
    CHECK(format_semaphore(empty) == "name     pool\nlimit    none\nused     0\nwaiters  0\n");
}

TEST_CASE("sem status --json has stable field names", "[semaphore]") {
    CHECK(semaphore_json(two_holders()) ==
          "{\"name\":\"pool\",\"limit\":3,\"used\":2,\"waiters\":1,\"holders\":["
          "{\"permit\":\"00aa11bb22cc33dd\",\"host\":\"web-1\",\"pid\":4242,\"user\":\"alice\","
          "\"command\":\"./a.sh\",\"since_ms\":1700000000000,\"ttl_ms\":20000,\"fence\":17},"
          "{\"permit\":\"ffee\",\"host\":\"web-22\",\"pid\":7,\"user\":\"bob\","
          "\"command\":\"say \\\"hi\\\"\",\"since_ms\":1700000005000,\"ttl_ms\":25500,"
          "\"fence\":18}]}\n");
}
