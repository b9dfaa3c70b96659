// `dlock release --force`: breaks a lock held by someone else; the holder is stopped at its
// next renewal (76), the waiters are woken, and the forcer is in the history.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("release --force stops the running holder with 76, wakes a waiter and is recorded",
          "[e2e][force]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job", {"--ttl", "3s"});
    const pid_t command = read_pid(dir / "job.held");
    auto waiter = start(*server, {"run", "-w", "30s", "job", "--", "touch", dir / "waiter-ran"});
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));

    const auto forced = Clock::now();
    auto r = run(*server, {"release", "--force", "job"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto out = lines(r.out);
    REQUIRE(out.size() == 2);
    CHECK(out[0].rfind("released job (exclusive) held by " + this_host() + " (pid " +
                           std::to_string(holder->pid()) + ", since ",
                       0) == 0);
    CHECK(out[1] == "woke 1 waiter");

    // The waiter is woken at once; the holder notices at its next renewal (every TTL/3 = 1s).
    auto w = waiter->wait(10s);
    CHECK(w.exit_code == 0);
    CHECK(file_exists(dir / "waiter-ran"));
    CHECK(since(forced) < 3s);
    auto h = holder->wait(15s);
    INFO("holder stderr: " << h.err);
    CHECK(h.exit_code == 76);
    CHECK(since(forced) < 6s);
    CHECK(process_gone(command));
    CHECK(contains(h.err, "dlock: lost the lease on job"));

    r = run(*server, {"history", "job", "--json"});
    const auto force_entry = lines_with(r.out, "\"event\":\"force\"");
    REQUIRE(force_entry.size() == 1);
    CHECK(contains(force_entry[0], "\"host\":\"" + this_host() + "\""));
    CHECK(contains(force_entry[0], "\"command\":\"dlock release --force job\""));
    CHECK(contains(force_entry[0], "\"other_pid\":" + std::to_string(holder->pid()) + ","));
    CHECK(contains(force_entry[0], "\"woken\":1"));
    const auto lost = lines_with(r.out, "\"event\":\"lost\"");
    REQUIRE(lost.size() == 1);
    CHECK(contains(lost[0], "\"exit_status\":76"));

    r = run(*server, {"release", "--force", "job"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "job is not held; nothing to release\n");
}

namespace {

// The pid of the forcer recorded by the one `force` entry of the history of `name`.
std::string forcer_pid(const RedisServer& server, const std::string& name) {
    const auto r = run(server, {"history", name, "--json"});
    const auto entries = lines_with(r.out, "\"event\":\"force\"");
    REQUIRE(entries.size() == 1);
    const auto at = entries[0].find("\"pid\":");
    REQUIRE(at != std::string::npos);
    const auto from = at + 6;
    return entries[0].substr(from, entries[0].find(',', from) - from);
}

} // namespace

TEST_CASE("a holder broken by release --force names the forcer and when, exclusive or shared",
          "[e2e][force]") {
    REQUIRE_REDIS(server);
    const std::string by = "released by --force by alice@" + this_host() + " (pid ";
    SECTION("exclusive") {
        TempDir dir;
        auto holder = start_holder(*server, dir, "job", {"--ttl", "3s"});
        REQUIRE(run(*server, {"release", "--force", "job"}, {{"LOGNAME", "alice"}}).exit_code == 0);
        auto h = holder->wait(30s);
        INFO("holder stderr: " << h.err);
        CHECK(h.exit_code == 76);
        CHECK(one_line(h.err));
        CHECK(contains(h.err, "dlock: lost the lease on job: " + by + forcer_pid(*server, "job") +
                                  ") at "));
        CHECK(contains(h.err, "; the command was stopped"));
    }
    SECTION("two shared holders: each is told") {
        TempDir a, b;
        auto first = start_holder(*server, a, "rw", {"-s", "--ttl", "3s"});
        auto second = start_holder(*server, b, "rw", {"-s", "--ttl", "3s"});
        REQUIRE(run(*server, {"release", "--force", "rw"}, {{"LOGNAME", "alice"}}).exit_code == 0);
        const std::string pid = forcer_pid(*server, "rw");
        for (auto* holder : {first.get(), second.get()}) {
            auto h = holder->wait(30s);
            INFO("holder stderr: " << h.err);
            CHECK(h.exit_code == 76);
            CHECK(contains(h.err, "dlock: lost the lease on rw: " + by + pid + ") at "));
        }
    }
}

namespace {

// Starts `dlock sem run -p PERMITS --ttl 3s pool` whose command runs `sleep 60` in the
// background (its pid in $D/<tag>.sleep) and records its permit id in $D/<tag>.permit; returns
// once the permit is held.
std::unique_ptr<Process> start_permit_holder(const RedisServer& server, const TempDir& dir,
                                             const std::string& tag, const std::string& permits) {
    auto holder = start(server,
                        {"sem", "run", "-p", permits, "--ttl", "3s", "pool", "-c",
                         "sleep 60 & echo $! > \"$D/" + tag +
                             ".sleep\"; echo $DLOCK_PERMIT > \"$D/" + tag + ".permit\"; wait"},
                        {{"D", dir.path()}});
    wait_for_line(dir / (tag + ".permit"));
    return holder;
}

// Everything stored for semaphore pool, to show that a call changed nothing.
std::string pool_snapshot(const RedisServer& server) {
    std::string out = all_keys(server);
    for (const auto* part : {"sem", "permits", "squeue", "salive", "history"}) {
        auto dump = server.cmd({"DUMP", key("pool", part)});
        out += std::string(part) + "=" + (dump.is_nil() ? "nil" : std::string(dump.str())) + ";";
    }
    return out;
}

} // namespace

TEST_CASE("release --force --permit stops that holder with 76 and hands the permit to a waiter",
          "[e2e][force][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_permit_holder(*server, dir, "h", "1");
    const auto permit = trim(read_file(dir / "h.permit"));
    const pid_t sleeper = read_pid(dir / "h.sleep");
    auto waiter =
        start(*server, {"sem", "run", "-p", "1", "-w", "30s", "pool", "--", "touch", dir / "ran"});
    REQUIRE(eventually([&] { return exists(*server, key("pool", "squeue")); }));

    const auto forced = Clock::now();
    auto r = run(*server, {"release", "--force", "--permit", permit, "pool"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto out = lines(r.out);
    REQUIRE(out.size() == 2);
    CHECK(out[0].starts_with("released permit " + permit + " of pool held by " + this_host() +
                             " (pid " + std::to_string(holder->pid()) + ", since "));
    CHECK(out[0].ends_with(" running sleep 60 & echo $! > \"$D/h.sleep\"; echo $DLOCK_PERMIT > "
                           "\"$D/h.permit\"; wait"));
    CHECK(out[1] == "woke 1 waiter");

    // The waiter takes the permit at once; the holder notices at its next renewal (TTL/3).
    auto w = waiter->wait(10s);
    INFO("waiter stderr: " << w.err);
    CHECK(w.exit_code == 0);
    CHECK(file_exists(dir / "ran"));
    CHECK(since(forced) < 3s);
    auto h = holder->wait(15s);
    INFO("holder stderr: " << h.err);
    CHECK(h.exit_code == 76);
    CHECK(since(forced) < 6s);
    CHECK(contains(h.err, "dlock: lost the lease on pool"));
    CHECK(eventually([&] { return process_gone(sleeper); }, 5s));

    r = run(*server, {"history", "pool", "--json"});
    const auto force_entry = lines_with(r.out, "\"event\":\"force\"");
    REQUIRE(force_entry.size() == 1);
    CHECK(contains(force_entry[0], "\"mode\":\"permit\""));
    CHECK(contains(force_entry[0], "\"permit\":\"" + permit + "\""));
    CHECK(contains(force_entry[0], "\"other_pid\":" + std::to_string(holder->pid()) + ","));
    CHECK(contains(force_entry[0], "\"woken\":1"));
    r = run(*server, {"history", "pool"});
    const auto row = lines_with(r.out, "force (permit)");
    REQUIRE(row.size() == 1);
    CHECK(contains(row[0], "; broke permit " + permit + " held by " + this_host() + " (pid " +
                               std::to_string(holder->pid()) + ", since "));

    // The permit is gone now: nothing to break.
    r = run(*server, {"release", "--force", "--permit", permit, "pool"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "semaphore pool has no permit " + permit +
                       " (released, expired or never taken); nothing to release\n");
}

TEST_CASE("release --force --all-permits breaks every permit, bad input exits 64 and changes "
          "nothing",
          "[e2e][force][sem]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto a = start_permit_holder(*server, dir, "a", "2");
    auto b = start_permit_holder(*server, dir, "b", "2");
    const auto permit = trim(read_file(dir / "a.permit"));

    const auto before = pool_snapshot(*server);
    std::string upper = permit;
    std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"release", "--force", "--permit", "xyz", "pool"},
             {"release", "--force", "--permit", upper, "pool"},
             {"release", "--force", "--permit", permit + "0", "pool"},
             {"release", "--force", "--permit", "", "pool"},
             {"release", "--force", "--permit", permit, "--all-permits", "pool"},
             {"release", "--permit", permit, "pool"},
             {"release", "--all-permits", "pool"},
             {"release", "--force", "--all-permits"},
             {"release", "--force", "--all-permits", "bad name"}}) {
        auto r = run(*server, args);
        INFO(args[args.size() - 2] << " " << args.back() << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(r.out.empty());
    }
    CHECK(pool_snapshot(*server) == before);

    // The lock pool is free; the message points at the semaphore of the same name.
    auto r = run(*server, {"release", "--force", "pool"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "pool is not held; nothing to release (semaphore pool has 2 permits held: "
                   "break them with --permit ID or --all-permits)\n");

    r = run(*server, {"release", "--force", "--all-permits", "pool"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    const auto out = lines(r.out);
    REQUIRE(out.size() == 3);
    CHECK(lines_with(r.out, "released permit " + permit + " of pool held by ").size() == 1);
    CHECK(lines_with(r.out, " of pool held by " + this_host() + " (pid ").size() == 2);
    CHECK(out[2] == "woke 0 waiters");
    for (auto* holder : {a.get(), b.get()}) {
        auto h = holder->wait(15s);
        INFO("holder stderr: " << h.err);
        CHECK(h.exit_code == 76);
    }
    r = run(*server, {"release", "--force", "--all-permits", "pool"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "semaphore pool has no permit held; nothing to release\n");
}

TEST_CASE("release --force prints a holder's control characters escaped, one line per holder",
          "[e2e][force]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start(*server,
                        {"run", "--ttl", "3s", "job", "-c",
                         "echo $$ > \"$D/job.held\"; " + kAwaitGo + "; : 'a\nb\tc\x1b[31md'"},
                        {{"D", dir.path()}});
    wait_for_line(dir / "job.held");
    auto r = run(*server, {"release", "--force", "job"});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    for (char c : r.out)
        CHECK((c == '\n' || static_cast<unsigned char>(c) >= 0x20));
    const auto out = lines(r.out);
    REQUIRE(out.size() == 2);
    CHECK(out[0].ends_with("; : 'a\\nb c\\x1b[31md'"));
    CHECK(holder->wait(15s).exit_code == 76);
}
