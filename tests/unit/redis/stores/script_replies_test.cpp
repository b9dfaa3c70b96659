// The decoders of the scripts' replies (redis/stores/*_replies.cpp) against hand-built replies:
// the layouts each lua/ file documents decode by name, and any element of another type or a
// reply of another shape is the script's "unexpected reply", never a 0.

#include "redis/scripts/script_reply.hpp"
#include "redis/stores/inspection_replies.hpp"
#include "redis/stores/latch_replies.hpp"
#include "redis/stores/lease_replies.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <hiredis/hiredis.h>
#include <string>
#include <vector>

using namespace dlock;
using namespace dlock::redis;

namespace {

Reply parse(const std::string& resp) {
    redisReader* reader = redisReaderCreate();
    REQUIRE(redisReaderFeed(reader, resp.data(), resp.size()) == REDIS_OK);
    void* raw = nullptr;
    REQUIRE(redisReaderGetReply(reader, &raw) == REDIS_OK);
    redisReaderFree(reader);
    REQUIRE(raw != nullptr);
    return Reply(static_cast<redisReply*>(raw));
}

std::string i(long long n) {
    return ":" + std::to_string(n) + "\r\n";
}
std::string s(const std::string& text) {
    return "$" + std::to_string(text.size()) + "\r\n" + text + "\r\n";
}
std::string array(const std::vector<std::string>& elements) {
    std::string out = "*" + std::to_string(elements.size()) + "\r\n";
    for (const auto& e : elements)
        out += e;
    return out;
}

// host, pid, user, cmd, since, fence: as the scripts send them.
std::vector<std::string> holder() {
    return {s("web1"), i(4242), s("ops"), s("backup.sh"), i(1700000000000), i(17)};
}
std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Every element of `elements` replaced in turn by one of another type (an array for a scalar, an
// integer for an array) must fail `decode` with an unexpected reply of `script`.
void each_field_of_another_type(const std::vector<std::string>& elements, const std::string& script,
                                const std::function<Result<bool>(const Reply&)>& decode) {
    REQUIRE(decode(parse(array(elements))));
    for (size_t k = 0; k < elements.size(); ++k) {
        auto garbled = elements;
        garbled[k] = elements[k][0] == '*' ? i(1) : array({i(1)});
        auto decoded = decode(parse(array(garbled)));
        INFO(script << ": element " << k << " of another type");
        REQUIRE_FALSE(decoded);
        CHECK(decoded.error().fault == Fault::internal);
        CHECK(decoded.error().message.starts_with("unexpected reply from script " + script));
    }
}

template <typename F>
std::function<Result<bool>(const Reply&)> succeeds(F decode) {
    return [decode](const Reply& r) -> Result<bool> {
        auto decoded = decode(r);
        if (!decoded)
            return tl::unexpected(decoded.error());
        return true;
    };
}

} // namespace

TEST_CASE("acquire.lua's grant, refusal, upgrade refusal and pause decode by name",
          "[script_replies]") {
    auto grant = decode_acquire(parse(array({i(1), i(42), i(2), s("s")})));
    REQUIRE(grant);
    CHECK(grant->kind == AcquireReply::Kind::granted);
    CHECK(grant->fence == 42);
    CHECK(grant->holds == 2);
    CHECK(grant->shared);
    CHECK(grant->history_error.empty());

    auto refusal =
        decode_acquire(parse(array(std::vector<std::string>{i(0), i(900)} + holder() +
                                   std::vector<std::string>{i(3), i(0), i(0), i(6000), s("OOM")})));
    REQUIRE(refusal);
    CHECK(refusal->kind == AcquireReply::Kind::refused);
    CHECK(refusal->left_ms == 900);
    CHECK(refusal->holder.host == "web1");
    CHECK(refusal->holder.pid == 4242);
    CHECK(refusal->holder.fence == 17);
    CHECK(refusal->waiters == 3);
    CHECK(refusal->window_ms == 6000);
    CHECK(refusal->history_error == "OOM");

    auto upgrade = decode_acquire(parse(array({i(-1)})));
    REQUIRE(upgrade);
    CHECK(upgrade->kind == AcquireReply::Kind::upgrade_refused);

    auto paused = decode_acquire(parse(array({i(-2), i(1700000009000), s("alice"), s("ops-1"),
                                              s("db migration"), i(1700000000000), i(1)})));
    REQUIRE(paused);
    CHECK(paused->kind == AcquireReply::Kind::paused);
    CHECK(paused->pause.until_ms == 1700000009000);
    CHECK(paused->pause.by == "alice");
    CHECK(paused->pause.host == "ops-1");
    CHECK(paused->pause.reason == "db migration");
    CHECK(paused->pause.recorded);
    CHECK_FALSE(decode_acquire(parse(array({i(-2), i(0), s("a"), s("h"), s("r"), i(0), i(2)}))));
    CHECK_FALSE(decode_acquire(parse(array({i(-2), i(0), s("a")}))));
}

TEST_CASE("numbers a script read from a hash may come as their text, and only whole",
          "[script_replies]") {
    auto grant = decode_acquire(parse(array({i(1), s("42"), i(1), s("x")})));
    REQUIRE(grant);
    CHECK(grant->fence == 42);
    auto garbled = decode_acquire(parse(array({i(1), s("42x"), i(1), s("x")})));
    REQUIRE_FALSE(garbled);
    CHECK(garbled.error().message ==
          "unexpected reply from script acquire.lua (fencing token: not an integer)");
}

TEST_CASE("a reply of another shape is the script's unexpected reply", "[script_replies]") {
    for (const auto& resp : {array({i(7)}), array({}), i(1), s("OK"), array({i(1), i(42), i(1)}),
                             array({i(2), i(42), i(1), s("x")})}) {
        auto decoded = decode_acquire(parse(resp));
        REQUIRE_FALSE(decoded);
        CHECK(decoded.error().fault == Fault::internal);
    }
    auto release = decode_release(parse(array({i(7)})));
    REQUIRE_FALSE(release);
    CHECK(release.error().message == "unexpected reply from script release.lua");
    CHECK_FALSE(decode_release(parse(array({i(2), i(0)}))));                // neither ours nor not
    CHECK_FALSE(decode_acquire(parse(array({i(1), i(42), i(1), s("q")})))); // no such mode
}

TEST_CASE("a field of another type fails the acquire, renew, release and status replies",
          "[script_replies]") {
    each_field_of_another_type({i(1), i(42), i(1), s("x"), s("")}, "acquire.lua",
                               succeeds(decode_acquire));
    each_field_of_another_type(std::vector<std::string>{i(0), i(900)} + holder() +
                                   std::vector<std::string>{i(3), i(1), i(0), i(6000), s("")},
                               "acquire.lua", succeeds(decode_acquire));
    each_field_of_another_type({i(1), i(0), s("")}, "release.lua", succeeds(decode_release));
    each_field_of_another_type({i(1), i(3)}, "sem_release.lua", succeeds(decode_sem_release));
    each_field_of_another_type({i(1), i(42), i(2)}, "sem_acquire.lua",
                               succeeds(decode_sem_acquire));
    each_field_of_another_type(std::vector<std::string>{i(0), i(900), i(3), i(3), i(1)} + holder(),
                               "sem_acquire.lua", succeeds(decode_sem_acquire));
    for (const auto& renew : {s("1"), i(2), array({i(1)}), std::string("$-1\r\n")}) {
        auto flag = flag_of(parse(renew), scripts::renew);
        REQUIRE_FALSE(flag);
        CHECK(flag.error().message == "unexpected reply from script renew.lua");
    }
    CHECK(flag_of(parse(i(1)), scripts::renew) == true);
    CHECK(flag_of(parse(i(0)), scripts::renew) == false);
}

TEST_CASE("status.lua's reply decodes by name, and any field of another type fails it",
          "[script_replies]") {
    const auto lock = array(std::vector<std::string>{s("x"), i(5000)} + holder() +
                            std::vector<std::string>{i(1), i(0)});
    const auto shared = array(std::vector<std::string>{i(1700000009000)} + holder() +
                              std::vector<std::string>{i(2)});
    const auto latch = array({i(2), i(3), i(60000), i(1)});
    const auto sem = array(std::vector<std::string>{i(4), i(0), i(1700000009000)} + holder() +
                           std::vector<std::string>{i(1)});
    const auto runs = array(std::vector<std::string>(16, "$-1\r\n"));
    const auto pause = array({s("alice"), s("ops-1"), s("db migration"), i(1700000000000), i(0)});
    const std::vector<std::string> reply{
        i(1700000004000), lock, shared, i(2), latch, sem, runs, i(1), pause};
    auto status = decode_status("job", parse(array(reply)));
    REQUIRE(status);
    CHECK(status->now_ms == 1700000004000);
    CHECK(status->status.lock.holders.size() == 2);
    CHECK(status->status.lock.holders[1].ttl_left == Millis(5000));
    CHECK(status->status.lock.waiters == 2);
    REQUIRE(status->status.latch);
    CHECK(status->status.latch->count == 2);
    REQUIRE(status->status.semaphore);
    CHECK(status->status.semaphore->holders.size() == 1);
    CHECK(status->status.semaphore_traces);
    REQUIRE(status->status.paused);
    CHECK(status->status.paused->by == "alice");
    CHECK(status->status.paused->reason == "db migration");
    CHECK(status->status.paused->until_ms == 0);
    each_field_of_another_type(reply, "status.lua",
                               succeeds([](const Reply& r) { return decode_status("job", r); }));
    // ... and inside the lock, a holder and the latch.
    const auto garbled_lock =
        array(std::vector<std::string>{s("x"), i(5000), s("web1"), s("pid?")} +
              std::vector<std::string>{s("ops"), s("cmd"), i(1), i(2), i(1), i(0)});
    auto bad = decode_status("job", parse(array({i(1), garbled_lock, array({}), i(0), array({}),
                                                 array({}), array({}), i(0), array({})})));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message ==
          "unexpected reply from script status.lua (holder pid: not an integer)");
}

TEST_CASE("the other scripts' fields of another type fail too", "[script_replies]") {
    each_field_of_another_type(
        std::vector<std::string>{i(1), i(4), i(0), s("p1"), i(2)} + holder(), "sem_status.lua",
        succeeds([](const Reply& r) { return decode_sem_status("pool", r); }));
    each_field_of_another_type({i(1), s(""), array(std::vector<std::string>{s("x")} + holder())},
                               "force_release.lua", succeeds(decode_force_release));
    each_field_of_another_type(
        {i(1), s(""), i(0), array(std::vector<std::string>{s("p1")} + holder())},
        "sem_force_release.lua", succeeds(decode_sem_force_release));
    each_field_of_another_type({i(0), i(7), i(8), s("web1"), s("4242"), s("ops"), i(5), s("3")},
                               "slot.lua", succeeds(decode_slot));
    each_field_of_another_type({i(1), i(7), i(5), s("1h"), s("0"), s("web1"), s("x")}, "slot.lua",
                               succeeds(decode_slot));
    each_field_of_another_type({i(1), i(3), i(3)}, "latch_create.lua",
                               succeeds(decode_latch_create));
    each_field_of_another_type({i(1), i(0), i(2)}, "latch_count_down.lua",
                               succeeds(decode_latch_count_down));
    each_field_of_another_type({i(2), i(1)}, "latch_wait.lua", succeeds(decode_latch_wait));
    each_field_of_another_type({i(1), i(1), i(3), i(500), i(0)}, "latch_status.lua",
                               succeeds(decode_latch_status));
    CHECK_FALSE(decode_latch_wait(parse(array({i(5), i(1)})))); // no such status
}
