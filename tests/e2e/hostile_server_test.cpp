// Nothing a server sends may crash dlock, grow it without bound, or run a command without a
// lease (issue 18): every subcommand against a fake server answering garbage, with a fixed seed
// (DLOCK_FUZZ_SEED and DLOCK_FUZZ_ITERATIONS change it), plus the two replies that used to
// exhaust memory and crash dlock.

#include "e2e/e2e_helpers.hpp"
#include "support/fake_resp_server.hpp"

#include <algorithm>
#include <hiredis/hiredis.h>
#include <mutex>
#include <random>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The documented reply limit (docs/production.md "Safety") plus what dlock needs besides.
constexpr long kRssBoundKb = (64 + 16) * 1024;

// Generous: a slow machine may be ten times slower; a hang is what this catches.
constexpr milliseconds kRunBound = 90s;

const std::vector<std::string> kTimeouts = {"--redis-timeout", "500ms", "--connect-timeout",
                                            "500ms"};

struct Case {
    std::vector<std::string> args; // after --redis URL and the timeouts
    bool leases = false;           // runs `touch ran` under a lease
};

std::vector<Case> cases(const TempDir& dir) {
    const std::string ran = dir / "ran";
    return {
        {{"run", "-n", "x", "--", "touch", ran}, true},
        {{"sem", "run", "-n", "-p", "2", "s", "--", "touch", ran}, true},
        {{"status"}},
        {{"history", "x"}},
        {{"release", "--force", "x"}},
        {{"latch", "create", "l", "3"}},
        {{"latch", "wait", "l", "-w", "1s"}},
        {{"bench", "--cycles", "3", "-k", "2", "--handovers", "2"}},
    };
}

uint64_t env_number(const char* name, uint64_t fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::stoull(text) : fallback;
}

// Whether any complete reply in `bytes` has the shape of a granted lock or permit: an array
// whose first element reads as 1 (lock_backend.cpp, semaphore_backend.cpp). The generator
// never sends one, so a command that ran had no lease.
bool looks_like_grant(const std::string& bytes) {
    redisReader* reader = redisReaderCreate();
    redisReaderFeed(reader, bytes.data(), bytes.size());
    bool grant = false;
    for (void* raw = nullptr; redisReaderGetReply(reader, &raw) == REDIS_OK && raw != nullptr;) {
        const auto* r = static_cast<redisReply*>(raw);
        if (r->type == REDIS_REPLY_ARRAY && r->elements > 0 && r->element[0] != nullptr) {
            const auto* first = r->element[0];
            grant |= (first->type == REDIS_REPLY_INTEGER && first->integer == 1) ||
                     ((first->type == REDIS_REPLY_STRING || first->type == REDIS_REPLY_STATUS) &&
                      first->len > 0 && first->str[0] == '1');
        }
        freeReplyObject(raw);
    }
    redisReaderFree(reader);
    return grant;
}

class Garbage {
  public:
    explicit Garbage(uint64_t seed, int port) : rng_(seed), port_(port) {}

    FakeAnswer answer(const std::vector<std::string>& command) {
        for (;;) {
            FakeAnswer a = draw(command);
            // An incomplete tail is always followed by a close or a stream: it cannot combine
            // with the next answer into a grant either.
            if (!looks_like_grant(a.bytes))
                return a;
        }
    }

  private:
    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
    template <typename T>
    const T& one_of(const std::vector<T>& items) {
        return items[pick(items.size())];
    }

    std::string bulk(const std::string& s) {
        return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n";
    }

    std::string random_bytes(size_t max) {
        std::string out(1 + pick(max), '\0');
        for (char& c : out)
            c = static_cast<char>(pick(256));
        return out;
    }

    // A well-formed RESP2 value of random shape.
    std::string value(int depth) {
        switch (pick(depth > 0 ? 7 : 6)) {
        case 0:
            return ":" +
                   one_of<std::string>({"0", "-1", "2", "-2", "3", "9223372036854775807",
                                        "-9223372036854775808", "12345678901234567890"}) +
                   "\r\n";
        case 1:
            return bulk(one_of<std::string>({"", "0", "x", "s", "master", "OK", "-1", "2"}));
        case 2:
            return "$-1\r\n";
        case 3:
            return "+" + one_of<std::string>({"OK", "PONG", "QUEUED", "0"}) + "\r\n";
        case 4:
            return "-" + one_of(errors()) + "\r\n";
        case 5:
            return bulk(random_bytes(40));
        default: {
            const size_t n = pick(14);
            std::string out = "*" + std::to_string(n) + "\r\n";
            for (size_t i = 0; i < n; ++i)
                out += value(depth - 1);
            return out;
        }
        }
    }

    std::vector<std::string> errors() const {
        const std::string self = "127.0.0.1:" + std::to_string(port_);
        return {"ERR unknown command",
                "NOSCRIPT No matching script",
                "LOADING Redis is loading",
                "BUSY Redis is busy",
                "TRYAGAIN",
                "CLUSTERDOWN",
                "READONLY",
                "MASTERDOWN",
                "UNBLOCKED",
                "NOAUTH Authentication required.",
                "NOPERM no",
                "WRONGPASS",
                "MOVED 1 " + self,
                "ASK 2 " + self,
                "MOVED 16384 " + self,
                "MOVED -1 " + self,
                "MOVED 1 127.0.0.1:0",
                "MOVED 1 :99999",
                "ASK 99999999999999999999 x:1",
                "MOVED 1 [::1]:1",
                "MOVED",
                "ERR " + std::string(300, 'e')};
    }

    std::string cluster_shards() {
        const size_t masters = one_of<size_t>({1, 3, 100, 20000});
        std::string out = "*" + std::to_string(masters) + "\r\n";
        for (size_t i = 0; i < masters; ++i) {
            const auto first = one_of<std::string>(
                {"0", "-5", "16383", "16384", "99999999999", std::to_string(i % 16384), "x"});
            const auto last = one_of<std::string>({"0", "16383", "5", "-1", "99999999999"});
            const auto port =
                one_of<std::string>({"0", "-1", "70000", "1", std::to_string(1 + i % 65535)});
            out += "*4\r\n" + bulk("slots") + "*2\r\n:" + first + "\r\n:" + last + "\r\n" +
                   bulk("nodes") + "*1\r\n*6\r\n" + bulk("ip") + bulk("127.0.0.1") + bulk("port") +
                   ":" + port + "\r\n" + bulk("role") + bulk("master");
        }
        return out;
    }

    FakeAnswer draw(const std::vector<std::string>& command) {
        const bool shards = command.size() >= 2 && command[0] == "CLUSTER";
        if (shards && pick(2) == 0)
            return {cluster_shards(), false, false};
        switch (pick(10)) {
        case 0: // bytes that are no RESP
            return {random_bytes(200), false, true};
        case 1: // a length beyond any limit, then more bytes or nothing
            return {one_of<std::string>({"$", "*"}) +
                        one_of<std::string>({"999999999999", "2147483648", "4294967297", "67108865",
                                             "9223372036854775807", "99999999999999999999"}) +
                        "\r\n",
                    pick(2) == 0, true};
        case 2: // negative lengths
            return {one_of<std::string>({"$-5\r\n", "*-5\r\n", "*-2147483649\r\n", "$-1\r\n",
                                         "*-1\r\n", "*4\r\n$-7\r\n"}) +
                        value(1),
                    false, true};
        case 3: { // deep nesting
            std::string out;
            for (size_t i = pick(12); i > 0; --i)
                out += "*1\r\n";
            return {out + ":0\r\n", false, false};
        }
        case 4: { // a reply cut short
            const std::string whole = value(3);
            return {whole.substr(0, pick(whole.size())), false, true};
        }
        case 5: // RESP3 types, which dlock never asks for
            return {one_of<std::string>({"%1\r\n+a\r\n:1\r\n", "~2\r\n:1\r\n:1\r\n", ",1.5\r\n",
                                         "#t\r\n", "_\r\n", "(123\r\n", "=5\r\ntxt:x\r\n",
                                         ">2\r\n+a\r\n+b\r\n", "|1\r\n+a\r\n+b\r\n"}),
                    false, false};
        case 6: // a line without end
            return {"+" + std::string(1000, 'a'), pick(2) == 0, true};
        default: // any well-formed value
            return {value(3), false, false};
        }
    }

    std::mt19937_64 rng_;
    int port_;
};

} // namespace

TEST_CASE("no reply from a server crashes dlock, grows it without bound or runs a command "
          "without a lease",
          "[e2e][hostile]") {
    const uint64_t seed = env_number("DLOCK_FUZZ_SEED", 18);
    const uint64_t iterations = env_number("DLOCK_FUZZ_ITERATIONS", 48);
    TempDir dir;
    const auto all = cases(dir);
    for (uint64_t i = 0; i < iterations; ++i) {
        const Case& c = all[i % all.size()];
        std::unique_ptr<Garbage> garbage;
        FakeRespServer server(
            [&](const std::vector<std::string>& command) { return garbage->answer(command); });
        garbage = std::make_unique<Garbage>(seed * 1'000'003 + i, server.port());
        std::vector<std::string> args = with_redis_url(server.url(), kTimeouts);
        args.insert(args.end(), c.args.begin(), c.args.end());
        std::string shown;
        for (const auto& a : c.args)
            shown += " " + a;
        INFO("DLOCK_FUZZ_SEED=" << seed << ", iteration " << i << ": dlock" << shown);
        auto r = run_raw(args, {}, kRunBound);
        INFO("exit " << r.exit_code << ", stderr: " << r.err);
        CHECK(r.term_signal == 0);
        CHECK(r.max_rss_kb < kRssBoundKb);
        if (c.leases)
            CHECK_FALSE(file_exists(dir / "ran"));
    }
}

TEST_CASE("a bulk string longer than the reply limit fails at once, memory bounded",
          "[e2e][hostile]") {
    FakeRespServer server([](const std::vector<std::string>&) {
        return FakeAnswer{"$999999999999\r\n", true, false};
    });
    // Long enough for the old dlock to read gigabytes.
    auto r = run_raw({"--redis", server.url(), "--redis-timeout", "3s", "status"}, {}, kRunBound);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    CHECK(r.err == "dlock: Redis at 127.0.0.1:" + std::to_string(server.port()) +
                       " sent a reply larger than 64 MiB (protocol error)\n");
    CHECK(r.max_rss_kb < kRssBoundKb);
}

TEST_CASE("a Cluster topology of 40000 masters is one error, no crash", "[e2e][hostile]") {
    std::string shards = "*40000\r\n";
    for (int i = 0; i < 40000; ++i) {
        const std::string slot = std::to_string(i % 16384), port = std::to_string(1 + i);
        shards +=
            "*4\r\n$5\r\nslots\r\n*2\r\n:" + slot + "\r\n:" + slot +
            "\r\n$5\r\nnodes\r\n*1\r\n*6\r\n$2\r\nip\r\n$9\r\n127.0.0.1\r\n$4\r\nport\r\n:" + port +
            "\r\n$4\r\nrole\r\n$6\r\nmaster\r\n";
    }
    FakeRespServer server([&](const std::vector<std::string>& command) {
        if (command.size() == 2 && command[0] == "CLUSTER" && command[1] == "SHARDS")
            return FakeAnswer{shards, false, false};
        return FakeAnswer{"-ERR unknown command\r\n", false, false};
    });
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"status"}, {"bench", "--cycles", "3", "--handovers", "2"}}) {
        std::vector<std::string> all = {"--redis", server.url(), "--redis-timeout", "5s"};
        all.insert(all.end(), args.begin(), args.end());
        auto r = run_raw(all, {}, kRunBound);
        INFO("dlock " << args[0] << ": exit " << r.exit_code << ", stderr: " << r.err);
        CHECK(r.term_signal == 0);
        CHECK(r.exit_code == 69);
        CHECK(one_line(r.err));
        CHECK(r.err.find("invalid Cluster topology") != std::string::npos);
    }
}

namespace {

// A server that grants every acquire (acquire.lua: the lock, then the fencing counter) and
// answers the release (release.lua: the lock, then the queue) with `release`, WAIT with `wait`,
// anything else +OK.
FakeRespServer granting(std::string release, std::string wait = ":0\r\n") {
    return FakeRespServer([=](const std::vector<std::string>& command) {
        const bool script = command.size() > 4 && command[0] == "EVALSHA";
        if (script && command[4].ends_with(":fence"))
            return FakeAnswer{"*4\r\n:1\r\n:42\r\n:1\r\n$1\r\nx\r\n"};
        if (script && command[4].ends_with(":queue"))
            return FakeAnswer{release};
        if (!command.empty() && command[0] == "WAIT")
            return FakeAnswer{wait};
        return FakeAnswer{"+OK\r\n"};
    });
}

} // namespace

TEST_CASE("a release answered with an unexpected reply after the command ran is 70",
          "[e2e][hostile]") {
    auto server = granting("*1\r\n:7\r\n");
    TempDir dir;
    auto r =
        run_raw({"--redis", server.url(), "run", "job", "--", "touch", dir / "ran"}, {}, kRunBound);
    INFO("stderr: " << r.err);
    CHECK(file_exists(dir / "ran"));
    CHECK(r.exit_code == 70);
    CHECK(one_line(r.err));
    CHECK(r.err == "dlock: could not release the lease on job: unexpected reply from script "
                   "release.lua; whether the command ran alone under it is unknown\n");
}

TEST_CASE("a WAIT answered with anything but a count is an error naming the server, not '-1 of'",
          "[e2e][hostile]") {
    auto server = granting("*2\r\n:1\r\n:0\r\n", "+OK\r\n");
    TempDir dir;
    auto r = run_raw(
        {"--redis", server.url(), "--min-replicas", "1", "run", "job", "--", "touch", dir / "ran"},
        {}, kRunBound);
    INFO("stderr: " << r.err);
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(r.exit_code == 69);
    CHECK(one_line(r.err));
    CHECK(r.err.find("answered WAIT with an unexpected reply") != std::string::npos);
    CHECK(r.err.find("-1 of") == std::string::npos);
}

TEST_CASE("a refusal that lets a waiter stay silent for ages still bounds its every block",
          "[e2e][hostile][wait]") {
    // The refusal's last field is how long the waiter may stay silent; it blocks for a third of
    // that. A server saying "forever" must not make a `-w forever` waiter block without bound.
    std::mutex mutex;
    double longest_block_s = 0;
    int blocks = 0;
    FakeRespServer server([&](const std::vector<std::string>& command) {
        if (!command.empty() && command[0] == "BLPOP" && command.size() == 3) {
            std::lock_guard lock(mutex);
            longest_block_s = std::max(longest_block_s, std::stod(command[2]));
            ++blocks;
            return FakeAnswer{"*-1\r\n"};
        }
        if (!command.empty() && command[0].starts_with("EVAL"))
            return FakeAnswer{"*12\r\n:0\r\n:100000\r\n$1\r\nh\r\n:1\r\n$1\r\nu\r\n$1\r\nc\r\n"
                              ":0\r\n:1\r\n:1\r\n:0\r\n:0\r\n:9223372036854775807\r\n"};
        return FakeAnswer{"+OK\r\n"};
    });
    TempDir dir;
    auto waiter =
        start_on(server.url(), {"run", "-w", "forever", "job", "--", "touch", dir / "ran"});
    const bool blocked = eventually([&] {
        std::lock_guard lock(mutex);
        return blocks >= 3;
    });
    waiter->signal(SIGKILL);
    waiter->wait(10s);
    CHECK(blocked);
    std::lock_guard lock(mutex);
    CHECK(longest_block_s <= 20.0); // a third of the longest window a waiter is allowed
    CHECK_FALSE(file_exists(dir / "ran"));
}

namespace {

std::string resp_array(const std::vector<std::string>& elements) {
    std::string out = "*" + std::to_string(elements.size()) + "\r\n";
    for (const auto& e : elements)
        out += e;
    return out;
}

// `elements` with element k of another type: an array for a scalar, an integer for an array.
std::string garbled(std::vector<std::string> elements, size_t k) {
    elements[k] = elements[k][0] == '*' ? ":1\r\n" : "*1\r\n:1\r\n";
    return resp_array(elements);
}

// A server answering the script whose second key ends with `tail` (acquire.lua: ":fence",
// release.lua: ":queue", renew.lua and status.lua: ":readers") with `reply`, every other acquire
// with a grant and every other release with "released", anything else +OK.
FakeRespServer answering(std::string tail, std::string reply) {
    return FakeRespServer([=](const std::vector<std::string>& command) {
        const bool script = command.size() > 4 && command[0] == "EVALSHA";
        if (script && command[4].ends_with(tail))
            return FakeAnswer{reply};
        if (script && command[4].ends_with(":fence"))
            return FakeAnswer{"*4\r\n:1\r\n:42\r\n:1\r\n$1\r\nx\r\n"};
        if (script && command[4].ends_with(":queue"))
            return FakeAnswer{"*2\r\n:1\r\n:0\r\n"};
        return FakeAnswer{"+OK\r\n"};
    });
}

const std::vector<std::string> kHolder = {"$4\r\nweb1\r\n",   ":4242\r\n",          "$3\r\nops\r\n",
                                          "$6\r\nbackup\r\n", ":1700000000000\r\n", ":17\r\n"};

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

TEST_CASE("an acquire answered with a field of another type is 70, and nothing runs",
          "[e2e][hostile]") {
    const std::vector<std::string> grant = {":1\r\n", ":42\r\n", ":1\r\n", "$1\r\nx\r\n"};
    const auto refusal = joined(joined({":0\r\n", ":900\r\n"}, kHolder),
                                {":1\r\n", ":0\r\n", ":0\r\n", ":3000\r\n"});
    const std::vector<std::string> paused = {":-2\r\n",         ":0\r\n",
                                             "$5\r\nalice\r\n", "$5\r\nops-1\r\n",
                                             "$2\r\ndb\r\n",    ":1700000000000\r\n",
                                             ":1\r\n"};
    for (const auto& valid : {grant, refusal, paused}) {
        for (size_t k = 0; k < valid.size(); ++k) {
            auto server = answering(":fence", garbled(valid, k));
            TempDir dir;
            auto r =
                run_raw({"--redis", server.url(), "run", "-n", "job", "--", "touch", dir / "ran"},
                        {}, kRunBound);
            INFO("element " << k << " of " << valid.size() << ", stderr: " << r.err);
            CHECK(r.exit_code == 70);
            CHECK(one_line(r.err));
            CHECK(r.err.find("unexpected reply from script acquire.lua (") != std::string::npos);
            CHECK_FALSE(file_exists(dir / "ran"));
        }
    }
}

TEST_CASE("a release answered with a field of another type is 70 after the command ran",
          "[e2e][hostile]") {
    const std::vector<std::string> released = {":1\r\n", ":0\r\n", "$0\r\n\r\n"};
    for (size_t k = 0; k < released.size(); ++k) {
        auto server = answering(":queue", garbled(released, k));
        TempDir dir;
        auto r = run_raw({"--redis", server.url(), "run", "job", "--", "touch", dir / "ran"}, {},
                         kRunBound);
        INFO("element " << k << ", stderr: " << r.err);
        CHECK(file_exists(dir / "ran"));
        CHECK(r.exit_code == 70);
        CHECK(one_line(r.err));
        CHECK(r.err.find("unexpected reply from script release.lua (") != std::string::npos);
    }
}

TEST_CASE("a status answered with a field of another type is 70", "[e2e][hostile]") {
    const std::vector<std::string> status = {
        ":1700000004000\r\n",
        resp_array(joined(joined({"$1\r\nx\r\n", ":5000\r\n"}, kHolder), {":1\r\n", ":0\r\n"})),
        "*0\r\n",
        ":0\r\n",
        "*0\r\n",
        "*0\r\n",
        "*0\r\n",
        ":0\r\n",
        "*0\r\n"};
    {
        auto server = answering(":readers", resp_array(status));
        auto r = run_raw({"--redis", server.url(), "status", "job"}, {}, kRunBound);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find("web1") != std::string::npos);
    }
    for (size_t k = 0; k < status.size(); ++k) {
        auto server = answering(":readers", garbled(status, k));
        auto r = run_raw({"--redis", server.url(), "status", "job"}, {}, kRunBound);
        INFO("element " << k << ", stderr: " << r.err);
        CHECK(r.exit_code == 70);
        CHECK(one_line(r.err));
        CHECK(r.err.find("unexpected reply from script status.lua") != std::string::npos);
    }
}

TEST_CASE("a renewal answered with a number of another type fails the renewal, never renews",
          "[e2e][hostile]") {
    // renew.lua answers 1 or 0: "1" as a string is no renewal, so the lease runs out and the
    // command is stopped.
    auto server = answering(":readers", "$1\r\n1\r\n");
    auto r = run_raw({"--redis", server.url(), "run", "--ttl", "1s", "job", "--", "sleep", "20"},
                     {}, kRunBound);
    INFO("stderr: " << r.err);
    CHECK(r.err.find("unexpected reply from script renew.lua") != std::string::npos);
    CHECK(r.exit_code != 0);
    CHECK(r.elapsed < 15s);
}
