// A release hands the lock straight to the exclusive head of the queue (lua/lib/grant.lua): the
// grant is a lease like any other, taken by popping its token or by the waiter's own acquire,
// ended when its waiter gives up or never takes it by its heartbeat deadline.

#include "integration/lock_helpers.hpp"
#include "lock/acquire.hpp"
#include "redis/stores/history.hpp"

#include <fmt/format.h>

using namespace dlock;
using namespace dlock::test;

namespace {

using Strings = std::vector<std::string>;

std::vector<redis::HistoryEntry> history(const RedisServer& server) {
    auto session = server.session();
    return ok(redis::read_history(session, job_keys().history, 100));
}

// A backend that counts the calls lock::acquire makes.
class CountingBackend final : public lock::Backend {
  public:
    explicit CountingBackend(lock::Backend& inner) : inner_(inner) {}
    Result<lock::AcquireOutcome> acquire(const lock::Keys& k,
                                         const lock::AcquireRequest& r) override {
        ++acquires;
        return inner_.acquire(k, r);
    }
    using lock::Backend::renew;
    std::vector<Result<lock::Renewal>> renew(std::span<const lock::RenewRequest> r) override {
        return inner_.renew(r);
    }
    Result<std::optional<int64_t>> release(const lock::Keys& k,
                                           const lock::ReleaseRequest& r) override {
        return inner_.release(k, r);
    }
    Result<bool> await_wake(const lock::Keys& k, std::string_view w, Millis t) override {
        return inner_.await_wake(k, w, t);
    }
    Result<lock::Wake> await_grant(const lock::Keys& k, std::string_view w, Millis t) override {
        return inner_.await_grant(k, w, t);
    }
    Result<void> leave_queue(const lock::Keys& k, std::string_view w, Millis h) override {
        return inner_.leave_queue(k, w, h);
    }
    int acquires = 0;

  private:
    lock::Backend& inner_;
};

} // namespace

TEST_CASE("a release grants the lock to the exclusive queue head, recorded like an acquisition",
          "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}, {"wb"}});
    const auto fence_before = std::stoll(std::string(server->cmd({"GET", keys.fence}).str()));

    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    CHECK(hget(*server, keys.lock, "owner") == "owner-wa");
    CHECK(hget(*server, keys.lock, "host") == "wa-host");
    CHECK(hget(*server, keys.lock, "cmd") == "./wa.sh --full");
    CHECK(std::stoll(hget(*server, keys.lock, "fence")) > fence_before);
    CHECK(pttl(*server, keys.lock) > 25000); // the waiter's own TTL
    CHECK(zrange(*server, keys.queue) == Strings{"wb"});
    CHECK_FALSE(exists(*server, keys.wake + "wb"));

    auto entries = history(*server);
    REQUIRE(entries.size() >= 2);
    CHECK(entries[0].field("event") == "acquire");
    CHECK(entries[0].field("host") == "wa-host");
    CHECK(entries[0].field("command") == "./wa.sh --full");
    CHECK(entries[0].field("fence") == hget(*server, keys.lock, "fence"));
}

TEST_CASE("the grantee's own acquire finds the grant without a second hold", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);

    auto again = try_acquire(*backend, waiter("wa"));
    CHECK(again.acquired);
    CHECK(again.holds == 1);
    CHECK(std::to_string(again.fence) == hget(*server, keys.lock, "fence"));
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
    CHECK(release_hold(*backend, "owner-wa", "hold-wa") == 0);
    CHECK_FALSE(exists(*server, keys.lock));
}

TEST_CASE("a waiter woken by a grant holds the lock without asking again", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    std::thread releaser([&] {
        auto other = open_backend(*server);
        REQUIRE(eventually([&] { return exists(*server, keys.queue); }, 10s));
        (void)other->release(keys, releasing("owner-h", "hold-h"));
    });
    CountingBackend counting(*backend);
    auto result = lock::acquire(
        counting, lock::AcquireSpec{keys, request("owner-w", "hold-w", 30s, "", 3s, "w"), 20s});
    releaser.join();
    REQUIRE(result);
    auto* acquired = std::get_if<lock::Acquired>(&*result);
    REQUIRE(acquired);
    CHECK(counting.acquires == 1); // the refused one that queued it
    CHECK(std::to_string(acquired->fence) == hget(*server, keys.lock, "fence"));
    CHECK(acquired->holds == 1);
    CHECK(hget(*server, keys.lock, "owner") == "owner-w");
    CHECK(release_hold(*backend, "owner-w", "hold-w") == 0);
}

TEST_CASE("an untaken grant is ended at its waiter's heartbeat deadline and handed on", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa", 1500ms}, {"wb", 10s}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    REQUIRE(hget(*server, keys.lock, "owner") == "owner-wa"); // A has died: it never takes it

    auto early = try_acquire(*backend, waiter("wb", 10s));
    CHECK_FALSE(early.acquired);
    // B learns when A's grant may be ended, not the lease's 30 s.
    CHECK(early.lease_left > 0ms);
    CHECK(early.lease_left <= 1500ms);

    REQUIRE(
        eventually([&] { return try_acquire(*backend, waiter("wb", 10s)).acquired; }, 10s, 50ms));
    CHECK(hget(*server, keys.lock, "owner") == "owner-wb");
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
    auto entries = history(*server);
    REQUIRE(entries.size() >= 3);
    CHECK(entries[0].field("event") == "acquire");
    CHECK(entries[0].field("host") == "wb-host");
    CHECK(entries[1].field("event") == "release"); // A's grant, ended
    CHECK(entries[1].field("host") == "wa-host");
}

TEST_CASE("a taken grant is never ended by others, however long it runs", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa", 300ms}, {"wb", 10s}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    auto woken = ok(backend->await_grant(keys, "wa", 1s));
    REQUIRE(woken.granted_fence);
    CHECK(std::to_string(*woken.granted_fence) == hget(*server, keys.lock, "fence"));
    std::this_thread::sleep_for(600ms); // past A's heartbeat deadline

    CHECK_FALSE(try_acquire(*backend, waiter("wb", 10s)).acquired);
    CHECK(hget(*server, keys.lock, "owner") == "owner-wa");
}

TEST_CASE("a waiter leaving after a grant gives it back and it is handed on", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}, {"wb"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    REQUIRE(hget(*server, keys.lock, "owner") == "owner-wa");

    ok(backend->leave_queue(keys, "wa", 3s)); // A's own timeout, racing the grant
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
    CHECK(hget(*server, keys.lock, "owner") == "owner-wb");
    CHECK(zrange(*server, keys.queue).empty());
    // A's next pop finds nothing: it never runs on the grant it gave back.
    CHECK_FALSE(ok(backend->await_grant(keys, "wa", 100ms)).woken);
}

TEST_CASE("the last waiter leaving after a grant leaves the name free", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    ok(backend->leave_queue(keys, "wa", 3s));
    for (const auto& key : {keys.lock, keys.queue, keys.alive, keys.winfo, keys.wake + "wa"}) {
        INFO(key);
        CHECK_FALSE(exists(*server, key));
    }
    CHECK(try_acquire(*backend, request("owner-x", "hold-x")).acquired);
}

TEST_CASE("grants follow the queue order", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wz"}, {"wy"}, {"wx"}});
    std::string previous = "h";
    for (auto id : {"wz", "wy", "wx"}) {
        REQUIRE(release_hold(*backend, "owner-" + previous, "hold-" + previous) == 0);
        CHECK(hget(*server, keys.lock, "owner") == std::string("owner-") + id);
        previous = id;
    }
    REQUIRE(release_hold(*backend, "owner-wx", "hold-wx") == 0);
    CHECK_FALSE(exists(*server, keys.lock));
}

TEST_CASE("a shared head is woken, not granted", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    auto reader = waiter("wr");
    reader.shared = true;
    REQUIRE_FALSE(try_acquire(*backend, reader).acquired);
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    CHECK_FALSE(exists(*server, keys.lock));
    CHECK(llen(*server, keys.wake + "wr") == 1);
    CHECK_FALSE(ok(backend->await_grant(keys, "wr", 1s)).granted_fence);
}

TEST_CASE("release --force takes an untaken grant's token with it", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    hold_with_queue(*backend, {{"wa"}});
    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    eval_script(*server, redis::scripts::force_release,
                {keys.lock, keys.queue, keys.alive, keys.wake, keys.readers, keys.rinfo},
                {"3000", "host", "1", "user", "cmd"});
    CHECK_FALSE(exists(*server, keys.lock));
    CHECK_FALSE(exists(*server, keys.wake + "wa"));
}

TEST_CASE("a deep waiter may stay silent longer, and is nudged back once it is next", "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    std::vector<std::string> ids;
    for (int i = 0; i < 34; ++i)
        ids.push_back(fmt::format("w{:02}", i));
    lock::AcquireOutcome deep;
    for (const auto& id : ids)
        deep = try_acquire(*backend, waiter(id));
    CHECK(deep.heartbeat_window > 3s); // 33 ahead of it
    CHECK(try_acquire(*backend, waiter("w00")).heartbeat_window == 3s);
    for (size_t i = 0; i < 32; ++i)
        ok(backend->leave_queue(keys, ids[i], 3s));
    REQUIRE(zrange(*server, keys.queue) == Strings{"w32", "w33"});
    CHECK(server->cmd({"ZSCORE", keys.alive, "w33"}).to_int().value() >
          server_time_ms(*server) + 3500);

    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    CHECK(hget(*server, keys.lock, "owner") == "owner-w32");
    // w33 is next: if w32 never takes its grant, w33 is the one to notice, within a heartbeat.
    CHECK(server->cmd({"ZSCORE", keys.alive, "w33"}).to_int().value() <=
          server_time_ms(*server) + 3000);
    auto woken = ok(backend->await_grant(keys, "w33", 1s));
    CHECK(woken.nudged);
    CHECK_FALSE(woken.granted_fence);
}

TEST_CASE("a grant cuts back the next few deep waiters together, so dead ones lapse together",
          "[grant]") {
    REQUIRE_REDIS(server);
    auto backend = open_backend(*server);
    const auto keys = job_keys();
    REQUIRE(try_acquire(*backend, request("owner-h", "hold-h")).acquired);
    std::vector<std::string> ids;
    for (int i = 0; i < 40; ++i)
        ids.push_back(fmt::format("w{:02}", i));
    for (const auto& id : ids)
        (void)try_acquire(*backend, waiter(id));
    // The waiters queued deep keep their long windows while those ahead leave.
    for (size_t i = 0; i < 30; ++i)
        ok(backend->leave_queue(keys, ids[i], 3s));
    const auto now = server_time_ms(*server);
    for (size_t i = 31; i < 36; ++i)
        REQUIRE(server->cmd({"ZSCORE", keys.alive, ids[i]}).to_int().value() > now + 3500);

    REQUIRE(release_hold(*backend, "owner-h", "hold-h") == 0);
    REQUIRE(hget(*server, keys.lock, "owner") == "owner-w30");
    // The four next in line must all come back within a heartbeat; the fifth may stay silent.
    const auto by = server_time_ms(*server) + 3000;
    for (size_t i = 31; i < 35; ++i) {
        CAPTURE(ids[i]);
        CHECK(server->cmd({"ZSCORE", keys.alive, ids[i]}).to_int().value() <= by);
        CHECK(ok(backend->await_grant(keys, ids[i], 1s)).nudged);
    }
    CHECK(server->cmd({"ZSCORE", keys.alive, ids[35]}).to_int().value() > by + 500);
}
