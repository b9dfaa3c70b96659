// `dlock run -s`: shared holders overlap, exclusive ones never overlap anybody, and a writer
// is not starved by readers that keep arriving.

#include "e2e/e2e_helpers.hpp"

#include <map>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Each section logs "start KIND PID" and "end KIND PID" lines around a short sleep.
std::string section(const std::string& kind, const std::string& seconds) {
    return "echo \"start " + kind + " $$\" >> \"$D/log\"; sleep " + seconds + "; echo \"end " +
           kind + " $$\" >> \"$D/log\"";
}

struct Event {
    bool start;
    std::string kind, pid;
};

std::vector<Event> events(const std::string& log) {
    std::vector<Event> out;
    for (const auto& line : lines(log)) {
        std::istringstream in(line);
        std::string what, kind, pid;
        in >> what >> kind >> pid;
        out.push_back({what == "start", kind, pid});
    }
    return out;
}

} // namespace

TEST_CASE("shared holders run at the same time", "[e2e][shared]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    std::vector<std::unique_ptr<Process>> readers;
    for (int i = 0; i < 3; ++i)
        readers.push_back(start(*server, {"run", "-s", "-w", "20s", "rw", "-c", section("R", "1")},
                                {{"D", dir.path()}}));
    for (auto& p : readers) {
        auto r = p->wait(30s);
        INFO(r.err);
        CHECK(r.exit_code == 0);
    }
    // All three started before the first one ended.
    auto log = events(read_file(dir / "log"));
    INFO(read_file(dir / "log"));
    REQUIRE(log.size() == 6);
    CHECK(log[0].start);
    CHECK(log[1].start);
    CHECK(log[2].start);
    CHECK_FALSE(exists(*server, key("rw", "readers")));
}

TEST_CASE("an exclusive holder never overlaps shared or exclusive holders", "[e2e][shared]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    std::vector<std::unique_ptr<Process>> procs;
    for (int i = 0; i < 6; ++i) {
        const bool writer = i % 3 == 0;
        std::vector<std::string> args{"run", "-w", "30s",
                                      "rw",  "-c", section(writer ? "W" : "R", "0.2")};
        if (!writer)
            args.insert(args.begin() + 1, "-s");
        procs.push_back(start(*server, args, {{"D", dir.path()}}));
    }
    for (auto& p : procs) {
        auto r = p->wait(40s);
        INFO(r.err);
        CHECK(r.exit_code == 0);
    }
    auto log = events(read_file(dir / "log"));
    INFO(read_file(dir / "log"));
    REQUIRE(log.size() == 12);
    std::map<std::string, bool> running; // pid -> is writer
    for (const auto& e : log) {
        if (e.start) {
            // A writer starts alone; a reader starts when no writer runs.
            if (e.kind == "W")
                CHECK(running.empty());
            for (const auto& [pid, is_writer] : running)
                CHECK_FALSE(is_writer);
            running[e.pid] = e.kind == "W";
        } else {
            running.erase(e.pid);
        }
    }
}

TEST_CASE("a waiting writer is not starved by a stream of readers", "[e2e][shared]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const Env env{{"D", dir.path()}};
    auto first = start(*server, {"run", "-s", "rw", "-c", section("R", "1")}, env);
    REQUIRE(eventually([&] { return exists(*server, key("rw", "readers")); }));
    auto writer = start(*server, {"run", "-w", "20s", "rw", "-c", section("W", "0.3")}, env);
    REQUIRE(eventually([&] { return exists(*server, key("rw", "xqueue")); }));
    // Readers keep arriving after the writer queued; each would overlap the first one.
    std::vector<std::unique_ptr<Process>> late;
    for (int i = 0; i < 4; ++i) {
        late.push_back(
            start(*server, {"run", "-s", "-w", "20s", "rw", "-c", section("L", "0.1")}, env));
        std::this_thread::sleep_for(150ms);
    }
    CHECK(first->wait(20s).exit_code == 0);
    CHECK(writer->wait(20s).exit_code == 0);
    for (auto& p : late)
        CHECK(p->wait(30s).exit_code == 0);

    auto log = events(read_file(dir / "log"));
    INFO(read_file(dir / "log"));
    // The writer ran before every late reader.
    bool writer_seen = false;
    for (const auto& e : log) {
        if (e.kind == "W")
            writer_seen = true;
        if (e.kind == "L" && e.start)
            CHECK(writer_seen);
    }
}

TEST_CASE("a shared refusal names the shared holders", "[e2e][shared]") {
    REQUIRE_REDIS(server);
    auto holder = start(*server, {"run", "-s", "rw", "--", "sleep", "2"});
    REQUIRE(eventually([&] { return exists(*server, key("rw", "readers")); }));
    auto r = run(*server, {"-v", "run", "rw", "--", "true"});
    CHECK(r.exit_code == 75);
    CHECK(r.err.find("rw is held shared by ") != std::string::npos);
    CHECK(r.err.find("more") == std::string::npos);
    CHECK(r.err.find("pid " + std::to_string(holder->pid())) != std::string::npos);
    holder->signal(SIGTERM);
    holder->wait();
}

TEST_CASE("run with -s and -x together is a usage error", "[e2e][shared]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"run", "-s", "-x", "rw", "--", "true"});
    CHECK(r.exit_code == 64);
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("taking a held shared lock exclusively from inside is refused", "[e2e][shared]") {
    REQUIRE_REDIS(server);
    auto r = run(*server, {"run", "-s", "up", "--", dlock_binary(), "--redis", server->url(), "run",
                           "up", "--", "true"});
    CHECK(r.exit_code == 64);
    CHECK(r.err.find("cannot be upgraded") != std::string::npos);
}
