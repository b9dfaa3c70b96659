#pragma once

#include "lock/backend.hpp"
#include "redis/scripts/embedded_scripts.hpp"
#include "redis/stores/lock_backend.hpp"
#include "redis/topology/deployment.hpp"
#include "redis/transport/endpoint.hpp"
#include "support/dlock_process.hpp"
#include "support/redis_server.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

// Shared helpers for the integration tests: backends on the fixture's server, requests with
// recognisable holder metadata, and raw commands with a variable number of arguments.
namespace dlock::test {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

inline redis::ConnectOptions connect_options(const std::string& url) {
    auto endpoint = redis::parse_url(url);
    if (!endpoint)
        FAIL(endpoint.error().message);
    redis::ConnectOptions options;
    options.endpoint = *endpoint;
    return options;
}

inline std::unique_ptr<redis::LockBackend> open_backend(const RedisServer& server) {
    auto backend = std::make_unique<redis::LockBackend>(connect_options(server.url()));
    if (auto ok = backend->connect(); !ok)
        FAIL(ok.error().message);
    return backend;
}

inline lock::Keys job_keys(std::string_view name = "job") {
    return lock::Keys::of("dlock", name);
}

// A request whose holder metadata names `who`: host "<who>-host", pid, user "<who>", command.
inline lock::AcquireRequest request(std::string owner, std::string hold, Millis ttl = 30s,
                                    std::string waiter = "", Millis heartbeat = 3s,
                                    std::string who = "alice", int64_t pid = 4242) {
    lock::AcquireRequest r;
    r.owner = std::move(owner);
    r.hold_id = std::move(hold);
    r.ttl = ttl;
    r.waiter_id = std::move(waiter);
    r.heartbeat = heartbeat;
    r.self = lock::HolderInfo{who + "-host", pid, who, "./" + who + ".sh --full", 0, 0};
    return r;
}

// A waiter's request: queues under `waiter` when refused.
inline lock::AcquireRequest waiter(std::string id, Millis heartbeat = 3s) {
    return request("owner-" + id, "hold-" + id, 30s, id, heartbeat, id);
}

template <typename T>
T ok(Result<T> result) {
    if (!result)
        FAIL("unexpected error: " << result.error().message);
    return std::move(*result);
}

inline void ok(Result<void> result) {
    if (!result)
        FAIL("unexpected error: " << result.error().message);
}

inline lock::AcquireOutcome try_acquire(lock::Backend& backend, const lock::AcquireRequest& r,
                                        const lock::Keys& keys = job_keys()) {
    return ok(backend.acquire(keys, r));
}

// A waiter for hold_with_queue: its id and heartbeat.
struct Queued {
    std::string id;
    Millis heartbeat = 3s;
};

// "owner-h" takes hold "hold-h" of `keys`, then `waiters` are refused and queue in that order.
inline void hold_with_queue(lock::Backend& backend, std::initializer_list<Queued> waiters,
                            const lock::Keys& keys = job_keys()) {
    REQUIRE(try_acquire(backend, request("owner-h", "hold-h"), keys).acquired);
    for (const auto& w : waiters)
        REQUIRE_FALSE(try_acquire(backend, waiter(w.id, w.heartbeat), keys).acquired);
}

// The release of hold `hold` of `owner`, waking waiters with a 3 s heartbeat.
inline lock::ReleaseRequest releasing(std::string_view owner, std::string_view hold,
                                      bool shared = false) {
    return lock::ReleaseRequest{owner, hold, 3s, shared};
}

inline std::optional<int64_t> release_hold(lock::Backend& backend, std::string_view owner,
                                           std::string_view hold,
                                           const lock::Keys& keys = job_keys()) {
    return ok(backend.release(keys, releasing(owner, hold)));
}

// Runs one command with any number of arguments (fails the test on error).
inline redis::Reply command(const RedisServer& server, const std::vector<std::string>& args) {
    auto conn = server.connect();
    std::vector<std::string_view> views(args.begin(), args.end());
    auto reply = conn.command(views);
    if (!reply)
        FAIL("redis command failed: " << reply.error().message);
    return std::move(*reply);
}

// Runs `script` with plain EVAL, as `redis-cli --eval` would (fails the test on error).
inline redis::Reply eval_script(const RedisServer& server, const redis::EmbeddedScript& script,
                                const std::vector<std::string>& script_keys,
                                const std::vector<std::string>& args) {
    std::vector<std::string> argv{"EVAL", std::string(script.body),
                                  std::to_string(script_keys.size())};
    argv.insert(argv.end(), script_keys.begin(), script_keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return command(server, argv);
}

// What is stored under `keys` (their DUMPs), to show that a call changed nothing.
inline std::string snapshot(const RedisServer& server, std::initializer_list<std::string> keys) {
    std::string out;
    for (const auto& key : keys) {
        auto dump = server.cmd({"DUMP", key});
        out += key + "=" + (dump.is_nil() ? "nil" : std::string(dump.str())) + ";";
    }
    return out;
}

inline int64_t pttl(const RedisServer& server, const std::string& key) {
    return server.cmd({"PTTL", key}).integer();
}

// Members of a sorted set in score order.
inline std::vector<std::string> zrange(const RedisServer& server, const std::string& key) {
    auto reply = server.cmd({"ZRANGE", key, "0", "-1"});
    std::vector<std::string> out;
    for (size_t i = 0; i < reply.size(); ++i)
        out.emplace_back(reply[i].str());
    return out;
}

inline int64_t llen(const RedisServer& server, const std::string& key) {
    return server.cmd({"LLEN", key}).integer();
}

// The Redis server clock in microseconds since the epoch.
inline int64_t server_time_us(const RedisServer& server) {
    auto t = server.cmd({"TIME"});
    return t[0].to_int().value() * 1'000'000 + t[1].to_int().value();
}

// The Redis server clock in ms since the epoch.
inline int64_t server_time_ms(const RedisServer& server) {
    return server_time_us(server) / 1000;
}

inline Millis elapsed_since(Clock::time_point start) {
    return std::chrono::duration_cast<Millis>(Clock::now() - start);
}

} // namespace dlock::test
