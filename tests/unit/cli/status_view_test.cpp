#include "cli/status_view.hpp"
#include "unit/utc_zone.hpp"

#include <catch2/catch.hpp>

using namespace dlock;
using namespace dlock::lock;
using namespace std::chrono_literals;
using dlock::test::UtcZone;

namespace {

constexpr int64_t kNow = 1'700'000'000'000; // 2023-11-14 22:13:20 UTC

HolderStatus holder(std::string host, int64_t pid, int64_t age_ms, Millis ttl, int64_t fence,
                    int64_t holds = 1) {
    return HolderStatus{
        HolderInfo{std::move(host), pid, "alice", "./backup.sh --full", kNow - age_ms, fence}, ttl,
        holds};
}

StatusReport report() {
    StatusReport r;
    r.server_now_ms = kNow;
    NameStatus job{"job", {}, {}, {}, {}, {}, false};
    job.lock.state = LockStatus::State::exclusive;
    job.lock.holders = {holder("web-1", 4242, 192'000, 27s, 17, 2)};
    job.lock.waiters = 1;
    NameStatus pool{"pool", {},   SemaphoreStatus{3, {holder("db-7", 9, 5000, 60s, 5)}, 0}, {}, {},
                    {},     false};
    NameStatus deploy{"deploy", {}, {}, LatchStatus{1, 2, 3600s, 0}, {}, {}, false};
    NameStatus mh{"mh", {}, {}, {}, {}, {}, false};
    mh.lock.state = LockStatus::State::min_hold;
    mh.lock.holders = {holder("web-2", 7, 1000, 4s, 18, 0)};
    mh.lock.held_until_ms = kNow + 4000;
    NameStatus free_name{"spare", {}, {}, {}, {}, {}, false};
    r.names = {deploy, job, mh, pool, free_name};
    return r;
}

} // namespace

TEST_CASE("the status table fits 100 columns: no user, token, holds or age, COMMAND cut",
          "[status]") {
    UtcZone utc;
    CHECK(cli::status_table(report()) ==
          R"(NAME    KIND       STATE      HOST   PID   SINCE     TTL  WAITERS  COMMAND
deploy  latch      count 1/2  -      -     -         1h   0        -
job     lock       exclusive  web-1  4242  22:10:08  27s  1        ./backup.sh --full
mh      lock       min-hold   web-2  7     22:13:19  4s   0        ./backup.sh --full
pool    semaphore  1/3 used   db-7   9     22:13:15  1m   0        ./backup.sh --full
spare   lock       free       -      -     -         -    0        -
)");
    // A narrower table leaves the command whole.
    StatusReport one = report();
    one.names = {one.names[1]};
    CHECK(cli::status_table(one) ==
          "NAME  KIND  STATE      HOST   PID   SINCE     TTL  WAITERS  COMMAND\n"
          "job   lock  exclusive  web-1  4242  22:10:08  27s  1        ./backup.sh --full\n");
}

TEST_CASE("the wide status table has every column, one aligned row per holder", "[status]") {
    UtcZone utc;
    CHECK(
        cli::status_table(report(), cli::StatusStyle::wide) ==
        R"(NAME    KIND       STATE                          HOST   PID   USER   SINCE                 TTL  TOKEN  HOLDS  WAITERS  COMMAND
deploy  latch      count 1/2                      -      -     -      -                     1h   -      -      0        -
job     lock       exclusive                      web-1  4242  alice  22:10:08 (3m12s ago)  27s  17     2      1        ./backup.sh --full
mh      lock       finished, held until 22:13:24  web-2  7     alice  22:13:19 (1s ago)     4s   18     0      0        ./backup.sh --full
pool    semaphore  1/3 used                       db-7   9     alice  22:13:15 (5s ago)     1m   5      1      0        ./backup.sh --full
spare   lock       free                           -      -     -      -                     -    -      -      0        -
)");
}

TEST_CASE("status JSON uses the documented field names", "[status]") {
    StatusReport r;
    r.server_now_ms = kNow;
    NameStatus job{"job", {}, {}, {}, {}, {}, false};
    job.lock.state = LockStatus::State::shared;
    job.lock.holders = {holder("web-1", 4242, 1000, 20s, 17)};
    r.names = {job};
    CHECK(cli::status_json(r) ==
          "{\"server_time_ms\":1700000000000,\"names\":[{\"name\":\"job\",\"in_use\":true,"
          "\"paused\":null,\"lock\":{\"state\":\"shared\",\"waiters\":0,\"held_until_ms\":null,"
          "\"holders\":["
          "{\"host\":\"web-1\",\"pid\":4242,\"user\":\"alice\",\"command\":\"./backup.sh "
          "--full\",\"since_ms\":1699999999000,\"age_ms\":1000,\"ttl_ms\":20000,\"fence\":17,"
          "\"holds\":1}]},\"semaphore\":null,\"latch\":null}]}");
    CHECK(cli::status_json(report()).find(
              "\"semaphore\":{\"limit\":3,\"used\":1,\"waiters\":0,\"holders\":[{\"host\":"
              "\"db-7\"") != std::string::npos);
    CHECK(cli::status_json(report()).find(
              "\"latch\":{\"count\":1,\"initial\":2,\"ttl_ms\":3600000,\"waiters\":0}") !=
          std::string::npos);
    CHECK(cli::status_json(report()).find("\"state\":\"min-hold\",\"waiters\":0,"
                                          "\"held_until_ms\":1700000004000") != std::string::npos);
}

TEST_CASE("a name is in use when held, kept by --min-hold, or an existing latch", "[status]") {
    NameStatus s{"x", {}, {}, {}, {}, {}, false};
    CHECK_FALSE(s.in_use());
    s.lock.waiters = 3; // waiters alone do not make it held
    CHECK_FALSE(s.in_use());
    s.semaphore = SemaphoreStatus{2, {}, 1};
    CHECK_FALSE(s.in_use());
    s.semaphore->holders.push_back(HolderStatus{});
    CHECK(s.in_use());
    s.semaphore.reset();
    s.latch = LatchStatus{0, 1, 10s, 0};
    CHECK(s.in_use());
    s.latch.reset();
    s.lock.state = LockStatus::State::min_hold;
    CHECK(s.in_use());
}
