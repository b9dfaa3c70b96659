// lua/status.lua through redis::read_status and redis::scan_names: every kind of name (lock,
// shared lock, --min-hold remainder, semaphore, latch) read from a real redis-server.

#include "integration/lock_helpers.hpp"
#include "lock/keys.hpp"
#include "redis/stores/status_reader.hpp"

using namespace dlock;
using namespace dlock::test;
using State = lock::LockStatus::State;

namespace {

lock::StatusReport status_of(const RedisServer& server, const std::vector<std::string>& names) {
    auto conn = server.connect();
    auto session = server.session();
    return ok(redis::read_status(session, "dlock", names));
}

lock::NameStatus one(const RedisServer& server, const std::string& name) {
    auto report = status_of(server, {name});
    REQUIRE(report.names.size() == 1);
    return report.names[0];
}

// A semaphore in the layout of the semaphore commands: limit, permit holders, lease deadlines.
void make_semaphore(const RedisServer& server, const std::string& name, int limit,
                    const std::vector<std::tuple<std::string, std::string, int64_t>>& permits,
                    const std::string& cmd = "./pool.sh") {
    const std::string base = "dlock:{" + name + "}:";
    const int64_t now = server_time_ms(server);
    command(server, {"HSET", base + "sem", "limit", std::to_string(limit)});
    int pid = 100;
    for (const auto& [id, owner, deadline_offset] : permits) {
        ++pid; // also the fencing token; the holder with the larger pid started earlier
        const std::string info = owner + "\tsem-host\t" + std::to_string(pid) + "\tcarol\t" + cmd +
                                 "\t" + std::to_string(now - 1000 * pid) + "\t" +
                                 std::to_string(pid);
        command(server, {"HSET", base + "sem", "p:" + id, info});
        command(server, {"ZADD", base + "permits", std::to_string(now + deadline_offset), id});
    }
}

} // namespace

TEST_CASE("status of a free name: free lock, no semaphore, no latch", "[status.lua]") {
    REQUIRE_REDIS(server);
    auto s = one(*server, "job");
    CHECK(s.name == "job");
    CHECK(s.lock.state == State::free);
    CHECK(s.lock.holders.empty());
    CHECK(s.lock.waiters == 0);
    CHECK_FALSE(s.semaphore);
    CHECK_FALSE(s.latch);
    CHECK_FALSE(s.in_use());
    CHECK(exists(*server, "dlock:{job}:lock") == false); // reading wrote nothing
    CHECK(server->cmd({"DBSIZE"}).integer() == 0);
}

TEST_CASE("status of an exclusive lock: holder, TTL, token, holds and live waiters",
          "[status.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto taken = try_acquire(*backend, request("owner-a", "hold-1", 30s, "", 3s, "alice", 4242));
    REQUIRE(taken.acquired);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2")).holds == 2);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wb", 200ms)).acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);
    std::this_thread::sleep_for(400ms); // wb's heartbeat lapses: it no longer counts

    auto s = one(*server, "job");
    CHECK(s.in_use());
    CHECK(s.lock.state == State::exclusive);
    REQUIRE(s.lock.holders.size() == 1);
    const auto& h = s.lock.holders[0];
    CHECK(h.info.host == "alice-host");
    CHECK(h.info.pid == 4242);
    CHECK(h.info.user == "alice");
    CHECK(h.info.command == "./alice.sh --full");
    CHECK(h.info.fence == taken.fence);
    CHECK(h.holds == 2);
    CHECK(h.ttl_left > 28s);
    CHECK(h.ttl_left <= 30s);
    const int64_t now = server_time_ms(*server);
    CHECK(h.info.since_ms <= now);
    CHECK(h.info.since_ms > now - 5000);
    CHECK(s.lock.waiters == 1);
}

TEST_CASE("status of a shared lock: one entry per owner, holds counted", "[status.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto r1 = request("owner-r1", "hold-r1", 30s, "", 3s, "reader1", 11);
    r1.shared = true;
    auto r1b = r1;
    r1b.hold_id = "hold-r1b";
    auto r2 = request("owner-r2", "hold-r2", 20s, "", 3s, "reader2", 22);
    r2.shared = true;
    REQUIRE(try_acquire(*backend, r1).acquired);
    std::this_thread::sleep_for(5ms); // distinct acquisition times
    REQUIRE(try_acquire(*backend, r2).acquired);
    std::this_thread::sleep_for(5ms);
    REQUIRE(try_acquire(*backend, r1b).acquired); // re-entry of reader1

    auto s = one(*server, "job");
    CHECK(s.lock.state == State::shared);
    REQUIRE(s.lock.holders.size() == 2);
    CHECK(s.lock.holders[0].info.user == "reader1"); // oldest first
    CHECK(s.lock.holders[0].holds == 2);
    CHECK(s.lock.holders[1].info.user == "reader2");
    CHECK(s.lock.holders[1].holds == 1);
    CHECK(s.lock.holders[1].ttl_left <= 20s);
    CHECK(s.lock.holders[1].ttl_left > 18s);
}

TEST_CASE("status of a lock kept by --min-hold", "[status.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    lock::ReleaseRequest done{"owner-a", "hold-1", 3s, false, 0, 10s};
    REQUIRE(ok(backend->release(job_keys(), done)) == 0);

    auto s = one(*server, "job");
    CHECK(s.in_use());
    CHECK(s.lock.state == State::min_hold);
    REQUIRE(s.lock.holders.size() == 1);
    CHECK(s.lock.holders[0].info.user == "alice");
    CHECK(s.lock.holders[0].holds == 0);
    CHECK(s.lock.holders[0].ttl_left <= 10s);
    CHECK(s.lock.holders[0].ttl_left > 9s);
    CHECK(s.lock.held_until_ms == s.lock.holders[0].info.since_ms + 10'000);
}

TEST_CASE("status of a semaphore: limit, live permits per owner, waiters", "[status.lua]") {
    REQUIRE_REDIS(server);
    make_semaphore(*server, "pool", 3,
                   {{"p1", "own-a", 30'000},
                    {"p2", "own-a", 20'000},
                    {"p3", "own-b", 10'000},
                    {"p4", "own-c", -1'000}}); // p4's lease ran out: not counted
    command(*server, {"ZADD", "dlock:{pool}:squeue", "1", "w1", "2", "w2"});

    auto s = one(*server, "pool");
    CHECK(s.in_use());
    CHECK(s.lock.state == State::free);
    REQUIRE(s.semaphore);
    CHECK(s.semaphore->limit == 3);
    CHECK(s.semaphore->used() == 3);
    CHECK(s.semaphore->waiters == 2);
    REQUIRE(s.semaphore->holders.size() == 2);
    // Oldest first: own-b's permit p3 was written with the earliest since.
    CHECK(s.semaphore->holders[0].holds == 1);
    CHECK(s.semaphore->holders[0].info.pid == 103);
    CHECK(s.semaphore->holders[1].holds == 2);
    CHECK(s.semaphore->holders[1].info.pid == 102); // own-a's oldest permit
    CHECK(s.semaphore->holders[1].ttl_left > 28s);  // and its latest deadline
    CHECK(s.semaphore->holders[1].info.host == "sem-host");
    CHECK(s.semaphore->holders[1].info.user == "carol");
    CHECK(s.semaphore->holders[1].info.command == "./pool.sh");
}

TEST_CASE("a holder's command may contain tabs: the other fields stay in place",
          "[status.lua][sem_status.lua]") {
    REQUIRE_REDIS(server);
    const std::string command = "sh -c 'printf \"a\tb\"'\t\t";
    make_semaphore(*server, "pool", 2, {{"p1", "own-a", 30'000}}, command);

    auto s = one(*server, "pool");
    REQUIRE(s.semaphore);
    REQUIRE(s.semaphore->holders.size() == 1);
    const auto& info = s.semaphore->holders[0].info;
    CHECK(info.command == command);
    CHECK(info.user == "carol");
    CHECK(info.fence == 101);
    CHECK(std::abs(info.since_ms - (server_time_ms(*server) - 101'000)) < 5000);

    auto conn = server->connect();
    auto session = server->session();
    const auto permits = ok(redis::read_permits(session, "dlock", "pool"));
    REQUIRE(permits.permits.size() == 1);
    CHECK(permits.permits[0].permit == "p1");
    CHECK(permits.permits[0].info.command == command);
    CHECK(permits.permits[0].info.fence == 101);
    CHECK(permits.permits[0].info.pid == 101);
}

TEST_CASE("read_permits lists each live permit with its id, limit and waiters",
          "[sem_status.lua]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    auto session = server->session();
    auto none = ok(redis::read_permits(session, "dlock", "pool"));
    CHECK(none.limit == 0);
    CHECK(none.permits.empty());
    CHECK(none.server_now_ms > 1'700'000'000'000);

    make_semaphore(*server, "pool", 3,
                   {{"p1", "own-a", 30'000}, {"p2", "own-a", 20'000}, {"p3", "own-b", -1'000}});
    const int64_t now = server_time_ms(*server);
    command(*server, {"ZADD", "dlock:{pool}:salive", std::to_string(now + 3000), "w1",
                      std::to_string(now - 1), "w-dead"});
    auto s = ok(redis::read_permits(session, "dlock", "pool"));
    CHECK(s.name == "pool");
    CHECK(s.limit == 3);
    CHECK(s.waiters == 1);
    REQUIRE(s.permits.size() == 2);     // p3's lease ran out
    CHECK(s.permits[0].permit == "p2"); // the lease that ends first
    CHECK(s.permits[1].permit == "p1");
    CHECK(s.permits[1].ttl_left > 28s);
    CHECK(s.permits[1].info.host == "sem-host");
    CHECK(s.permits[1].info.pid == 101);
}

TEST_CASE("status of an idle semaphore is shown but not in use", "[status.lua]") {
    REQUIRE_REDIS(server);
    make_semaphore(*server, "pool", 2, {});
    auto s = one(*server, "pool");
    REQUIRE(s.semaphore);
    CHECK(s.semaphore->used() == 0);
    CHECK_FALSE(s.in_use());
}

TEST_CASE("status of a latch: count, initial, TTL and live waiters", "[status.lua]") {
    REQUIRE_REDIS(server);
    const auto lk = lock::LatchKeys::of("dlock", "deploy");
    command(*server, {"HSET", lk.latch, "count", "1", "initial", "3", "created", "1"});
    command(*server, {"PEXPIRE", lk.latch, "60000"});
    const int64_t now = server_time_ms(*server);
    command(*server, {"ZADD", lk.waiters, std::to_string(now + 3000), "w1",
                      std::to_string(now - 10), "dead"});

    auto s = one(*server, "deploy");
    CHECK(s.in_use());
    REQUIRE(s.latch);
    CHECK(s.latch->count == 1);
    CHECK(s.latch->initial == 3);
    CHECK(s.latch->ttl_left > 59s);
    CHECK(s.latch->waiters == 1);
}

TEST_CASE("scan_names finds every name in use under the prefix, and only those", "[status.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1"), job_keys("job-a")).acquired);
    auto shared = request("owner-s", "hold-s");
    shared.shared = true;
    REQUIRE(try_acquire(*backend, shared, job_keys("rw")).acquired);
    make_semaphore(*server, "pool", 2, {});
    command(*server, {"HSET", "dlock:{deploy}:latch", "count", "1", "initial", "1"});
    // Not names in use: a fencing counter and a history alone, another prefix, stray keys.
    command(*server, {"SET", "dlock:{old}:fence", "7"});
    command(*server, {"XADD", "dlock:{old}:history", "*", "event", "release"});
    command(*server, {"HSET", "other:{job-b}:lock", "owner", "x"});
    command(*server, {"SET", "dlock:stray", "1"});
    command(*server, {"SET", "dlock:x:{sub}:lock", "1"});
    // Enough keys for SCAN to take several rounds.
    for (int i = 0; i < 1500; ++i)
        command(*server, {"SET", "filler:" + std::to_string(i), "1"});

    auto conn = server->connect();
    auto session = server->session();
    auto names = ok(redis::scan_names(session, "dlock", lock::NameScope::in_use));
    CHECK(names == std::vector<std::string>{"deploy", "job-a", "pool", "rw"});

    auto report = ok(redis::read_status(session, "dlock", names)); // pipelined
    REQUIRE(report.names.size() == 4);
    CHECK(report.names[0].latch);
    CHECK(report.names[1].lock.state == State::exclusive);
    CHECK(report.names[2].semaphore);
    CHECK(report.names[3].lock.state == State::shared);
    CHECK(report.server_now_ms > 0);
}

TEST_CASE("read_status loads the script when the server does not have it", "[status.lua]") {
    REQUIRE_REDIS(server);
    command(*server, {"SCRIPT", "FLUSH"});
    auto report = status_of(*server, {"a", "b", "c"});
    CHECK(report.names.size() == 3);
}
