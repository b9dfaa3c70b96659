// The uncontended path of acquire.lua and release.lua (nobody holds, reads or queues: one look at
// the keys, then straight to the lease): it records and stores what the full path does, and
// hands over to the full path as soon as anyone else is around.

#include "integration/lock_helpers.hpp"

using namespace dlock;
using namespace dlock::test;

namespace {

using Strings = std::vector<std::string>;

// The field names of the history's entries, oldest first, as XRANGE gives them.
std::vector<Strings> history_field_names(const RedisServer& server) {
    const auto entries = command(server, {"XRANGE", job_keys().history, "-", "+"});
    std::vector<Strings> out;
    for (size_t i = 0; i < entries.size(); ++i) {
        const auto& fields = entries[i][1];
        Strings names;
        for (size_t j = 0; j < fields.size(); j += 2)
            names.emplace_back(fields[j].str());
        out.push_back(names);
    }
    return out;
}

} // namespace

TEST_CASE("an uncontended acquisition and release record every field, in order",
          "[acquire.lua][release.lua][history]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    auto taken = try_acquire(*backend, request("owner-a", "hold-1"));
    REQUIRE(taken.acquired);
    CHECK(hget(*server, keys.lock, "ttl") == "30000");
    CHECK(hget(*server, keys.lock, "h:hold-1") == "1");
    REQUIRE(ok(backend->release(keys, lock::ReleaseRequest{"owner-a", "hold-1", 3s, false, 0})) ==
            0);

    CHECK(history_field_names(*server) ==
          std::vector<Strings>{
              {"event", "mode", "host", "pid", "user", "command", "fence", "start_ms"},
              {"event", "mode", "host", "pid", "user", "command", "fence", "start_ms", "end_ms",
               "duration_ms", "exit_status"}});
    // Tokens and times are written as integer digits.
    const auto last = command(*server, {"XREVRANGE", keys.history, "+", "-", "COUNT", "1"});
    CHECK(last[0][1][13].str() == std::to_string(taken.fence));
    CHECK(last[0][1][15].str().find_first_not_of("0123456789") == std::string::npos);
}

TEST_CASE("an acquisition with a waiter id on an idle name leaves no queue behind",
          "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, waiter("w1")).acquired);
    for (const auto& key : {keys.queue, keys.alive, keys.xqueue, keys.wake + "w1"})
        CHECK(command(*server, {"EXISTS", key}).integer() == 0);
}

TEST_CASE("a name that is free but has a queue still goes to its head first", "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    auto queued = open_backend(*server);
    REQUIRE_FALSE(try_acquire(*queued, waiter("w1")).acquired);
    REQUIRE(release_hold(*backend, "owner-a", "hold-1") == 0);

    // Not idle: the newcomer is refused in favour of the queued head, which then gets it.
    auto newcomer = open_backend(*server);
    CHECK_FALSE(try_acquire(*newcomer, request("owner-b", "hold-2")).acquired);
    CHECK(try_acquire(*queued, waiter("w1")).acquired);
}

TEST_CASE("exclusive owners on an idle name are refused while a shared hold lives",
          "[acquire.lua]") {
    REQUIRE_REDIS(server);
    auto reader = open_backend(*server);
    auto shared = request("owner-r", "hold-r");
    shared.shared = true;
    REQUIRE(try_acquire(*reader, shared).acquired);

    auto writer = open_backend(*server);
    CHECK_FALSE(try_acquire(*writer, request("owner-w", "hold-w")).acquired);
    REQUIRE(ok(reader->release(job_keys(), lock::ReleaseRequest{"owner-r", "hold-r", 3s, true})) ==
            0);
    CHECK(try_acquire(*writer, request("owner-w", "hold-w")).acquired);
}

TEST_CASE("shared-hold info left behind without its holds does not refuse its owner",
          "[acquire.lua]") {
    REQUIRE_REDIS(server);
    const auto keys = job_keys();
    // As if the holds' zset expired a moment before the info hash.
    command(*server, {"HSET", keys.rinfo, "o:owner-a", "1"});
    auto backend = open_backend(*server);
    auto taken = try_acquire(*backend, request("owner-a", "hold-1"));
    CHECK(taken.acquired);
    CHECK(taken.holds == 1);
}

TEST_CASE("the last release hands the lease to a queued waiter, an inner one keeps it",
          "[release.lua]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-1")).acquired);
    REQUIRE(try_acquire(*backend, request("owner-a", "hold-2")).holds == 2);
    auto queued = open_backend(*server);
    REQUIRE_FALSE(try_acquire(*queued, waiter("w1")).acquired);

    CHECK(release_hold(*backend, "owner-a", "hold-2") == 1);
    CHECK(hget(*server, keys.lock, "owner") == "owner-a");
    CHECK(llen(*server, keys.wake + "w1") == 0);
    CHECK(release_hold(*backend, "owner-a", "hold-1") == 0);
    CHECK(hget(*server, keys.lock, "owner") == "owner-w1");
    CHECK(llen(*server, keys.wake + "w1") == 1); // its grant token
}
