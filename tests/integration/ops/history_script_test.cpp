// The history stream written by acquire.lua, release.lua and history_add.lua, read back with
// redis::read_history: what is recorded, what is not, the cap, the TTL, and that a failed
// history write never fails the lock operation.

#include "integration/lock_helpers.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "redis/stores/history.hpp"
#include "redis/stores/semaphore_backend.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

std::vector<redis::HistoryEntry> history(const RedisServer& server, int64_t count = 100,
                                         const lock::Keys& keys = job_keys()) {
    auto conn = server.connect();
    auto session = server.session();
    return ok(redis::read_history(session, keys.history, count));
}

std::vector<std::string> events(const std::vector<redis::HistoryEntry>& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries)
        out.emplace_back(e.field("event"));
    return out;
}

lock::ReleaseRequest final_release(std::string_view owner, std::string_view hold,
                                   std::optional<int> exit_status = 0, Millis min_hold = 0ms) {
    return lock::ReleaseRequest{owner, hold, 3s, false, exit_status, min_hold};
}

using Strings = std::vector<std::string>;

} // namespace

TEST_CASE("an acquisition and its release are recorded, newest first", "[history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto taken = try_acquire(*backend, request("owner-a", "hold-1", 30s, "", 3s, "alice", 4242));
    REQUIRE(taken.acquired);
    std::this_thread::sleep_for(50ms);
    REQUIRE(ok(backend->release(job_keys(), final_release("owner-a", "hold-1", 3))) == 0);

    auto entries = history(*server);
    REQUIRE(events(entries) == Strings{"release", "acquire"});
    const auto& acquired = entries[1];
    CHECK(acquired.field("mode") == "x");
    CHECK(acquired.field("host") == "alice-host");
    CHECK(acquired.field("pid") == "4242");
    CHECK(acquired.field("user") == "alice");
    CHECK(acquired.field("command") == "./alice.sh --full");
    CHECK(acquired.field("fence") == std::to_string(taken.fence));
    const auto& released = entries[0];
    CHECK(released.field("exit_status") == "3");
    CHECK(released.field("fence") == std::to_string(taken.fence));
    CHECK(released.field("start_ms") == acquired.field("start_ms"));
    const int64_t duration = std::stoll(std::string(released.field("duration_ms")));
    CHECK(duration >= 50);
    CHECK(duration < 5000);
    CHECK(std::stoll(std::string(released.field("end_ms"))) -
              std::stoll(std::string(released.field("start_ms"))) ==
          duration);
    CHECK(released.time_ms >= acquired.time_ms);
    // Kept 30 days after the last write.
    CHECK(pttl(*server, job_keys().history) > 29LL * 86'400'000);
}

TEST_CASE("re-entries and inner releases are not recorded", "[history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2")).holds == 2);
    REQUIRE(ok(backend->release(job_keys(), final_release("owner-a", "hold-2"))) == 1);
    REQUIRE(ok(backend->release(job_keys(), final_release("owner-a", "hold-1"))) == 0);
    CHECK(events(history(*server)) == Strings{"release", "acquire"});
}

TEST_CASE("a no-wait refusal is recorded as a skip naming the holder, a waiting one is not",
          "[history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto taken = try_acquire(*backend, request("owner-a", "hold-1", 30s, "", 3s, "alice", 11));
    REQUIRE(taken.acquired);
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired); // queues: not final
    REQUIRE_FALSE(try_acquire(*backend, waiter("wa")).acquired);
    REQUIRE_FALSE(
        try_acquire(*backend, request("owner-b", "hold-b", 30s, "", 3s, "bob", 22)).acquired);

    auto entries = history(*server);
    REQUIRE(events(entries) == Strings{"skip", "acquire"});
    const auto& skip = entries[0];
    CHECK(skip.field("user") == "bob");
    CHECK(skip.field("pid") == "22");
    CHECK(skip.field("other_host") == "alice-host");
    CHECK(skip.field("other_pid") == "11");
    CHECK(skip.field("other_user") == "alice");
    CHECK(skip.field("other_command") == "./alice.sh --full");
    CHECK(skip.field("other_fence") == std::to_string(taken.fence));
    CHECK(skip.field("waiters") == "1");
    CHECK(skip.field("held_until_ms").empty());
}

TEST_CASE("shared holders: the owner's first hold and last release are recorded", "[history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    auto r = request("owner-r", "hold-r1");
    r.shared = true;
    auto again = r;
    again.hold_id = "hold-r2";
    REQUIRE(try_acquire(*backend, r).acquired);
    REQUIRE(try_acquire(*backend, again).acquired);
    REQUIRE(ok(backend->release(job_keys(), releasing("owner-r", "hold-r2", true))) == 1);
    lock::ReleaseRequest last{"owner-r", "hold-r1", 3s, true, 0, 0ms};
    REQUIRE(ok(backend->release(job_keys(), last)) == 0);

    auto entries = history(*server);
    REQUIRE(events(entries) == Strings{"release", "acquire"});
    CHECK(entries[0].field("mode") == "s");
    CHECK(entries[0].field("exit_status") == "0");
    CHECK(entries[1].field("mode") == "s");
    CHECK(entries[0].field("user") == "alice");
}

TEST_CASE("a lock backend has a history, a semaphore backend has none", "[history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    lock::Backend& store = *backend;
    REQUIRE(store.history() != nullptr);
    ok(store.history()->append(job_keys(), {{"event", "skip"}, {"waited_ms", "1500"}}));
    auto entries = history(*server);
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].field("event") == "skip");
    CHECK(entries[0].field("waited_ms") == "1500");

    redis::SemaphoreBackend semaphore(connect_options(server->url()), 2);
    CHECK(static_cast<lock::Backend&>(semaphore).history() == nullptr);
}

TEST_CASE("history_add records client-side events with server-time start and end", "[history]") {
    REQUIRE_REDIS(server);
    auto conn = server->connect();
    auto session = server->session();
    const auto before = server_time_ms(*server);
    ok(redis::append_history(session, job_keys().history, "",
                             {{"event", "lost"},
                              {"host", "web-1"},
                              {"fence", "17"},
                              {"duration_ms", "5000"},
                              {"exit_status", "76"},
                              {"other_host", ""}}));
    auto entries = history(*server);
    REQUIRE(entries.size() == 1);
    const auto& e = entries[0];
    CHECK(e.field("event") == "lost");
    CHECK(e.field("exit_status") == "76");
    CHECK(e.field("other_host").empty());
    const int64_t end = std::stoll(std::string(e.field("end_ms")));
    CHECK(end >= before);
    CHECK(end - std::stoll(std::string(e.field("start_ms"))) == 5000);
    CHECK(e.time_ms >= before);
    CHECK(pttl(*server, job_keys().history) > 29LL * 86'400'000);
}

TEST_CASE("the history is capped at about 1000 entries and read newest first", "[history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    for (int i = 0; i < 700; ++i) {
        const std::string hold = "hold-" + std::to_string(i);
        REQUIRE(try_acquire(*backend, request("owner-" + std::to_string(i), hold)).acquired);
        REQUIRE(ok(backend->release(job_keys(),
                                    final_release("owner-" + std::to_string(i), hold, i))) == 0);
    }
    const int64_t length = server->cmd({"XLEN", job_keys().history}).integer();
    CHECK(length >= 1000);
    CHECK(length <= 1100); // MAXLEN ~ trims whole nodes (100 entries by default)

    auto newest = history(*server, 3);
    REQUIRE(newest.size() == 3);
    CHECK(events(newest) == Strings{"release", "acquire", "release"});
    CHECK(newest[0].field("exit_status") == "699");
    CHECK(newest[2].field("exit_status") == "698");
    // Stream ids are "<ms>-<seq>": compared as numbers, not strings ("-10" < "-9").
    auto id_of = [](const redis::HistoryEntry& e) {
        const auto dash = e.id.find('-');
        return std::make_pair(e.time_ms, std::stoll(e.id.substr(dash + 1)));
    };
    CHECK(id_of(newest[0]) > id_of(newest[1]));
}

TEST_CASE("a history that cannot be written never fails the lock operations", "[history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    command(*server, {"SET", keys.history, "not a stream"}); // every XADD fails: WRONGTYPE

    auto taken = try_acquire(*backend, request("owner-a", "hold-1"));
    CHECK(taken.acquired);
    CHECK(hget(*server, keys.lock, "owner") == "owner-a");
    CHECK_FALSE(try_acquire(*backend, request("owner-b", "hold-b")).acquired);
    CHECK(ok(backend->release(keys, final_release("owner-a", "hold-1"))) == 0);
    CHECK_FALSE(exists(*server, keys.lock));

    // Raw: the error is appended to the usual reply.
    auto raw = command(*server, {"EVAL",       std::string(redis::scripts::acquire.body),
                                 "9",          keys.lock,
                                 keys.fence,   keys.queue,
                                 keys.alive,   keys.wake,
                                 keys.readers, keys.rinfo,
                                 keys.xqueue,  keys.history,
                                 "o1",         "h1",
                                 "30000",      "",
                                 "3000",       "web-1",
                                 "1",          "alice",
                                 "./job.sh",   "x"});
    REQUIRE(raw.size() == 5);
    CHECK(raw[0].integer() == 1);
    CHECK(std::string(raw[4].str()).find("WRONGTYPE") != std::string::npos);
    CHECK(std::string(server->cmd({"GET", keys.history}).str()) == "not a stream");
}

TEST_CASE("without the history key (plain redis-cli --eval), nothing is recorded", "[history]") {
    REQUIRE_REDIS(server);
    const auto keys = job_keys();
    auto raw = command(*server, {"EVAL",       std::string(redis::scripts::acquire.body),
                                 "8",          keys.lock,
                                 keys.fence,   keys.queue,
                                 keys.alive,   keys.wake,
                                 keys.readers, keys.rinfo,
                                 keys.xqueue,  "o1",
                                 "h1",         "30000",
                                 "",           "3000",
                                 "web-1",      "1",
                                 "alice",      "./job.sh",
                                 "x"});
    CHECK(raw.size() == 4);
    CHECK_FALSE(exists(*server, keys.history));
}
