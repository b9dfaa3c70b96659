// `dlock status`: the table, --json, --names and the exit codes, against a private redis-server.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("status lists what is held, a free name is shown as free and exits 1", "[e2e][status]") {
    REQUIRE_REDIS(server);
    TempDir dir;

    auto r = run(*server, {"status"});
    CHECK(r.exit_code == 1);
    CHECK(r.out == "nothing under prefix dlock\n");
    CHECK(r.err.empty());

    auto holder = start_holder(*server, dir, "job");
    const std::string token = hget(*server, key("job"), "fence");
    REQUIRE(run(*server, {"latch", "create", "deploy", "2"}).exit_code == 0);
    auto waiter = start(*server, {"run", "-w", "20s", "job", "--", "true"});
    REQUIRE(eventually([&] { return server->cmd({"ZCARD", key("job", "queue")}).integer() == 1; }));

    r = run(*server, {"status", "--wide"});
    INFO("stdout:\n" << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto table = lines(r.out);
    REQUIRE(table.size() == 3);
    CHECK(columns(table[0]) == std::vector<std::string>{"NAME", "KIND", "STATE", "HOST", "PID",
                                                        "USER", "SINCE", "TTL", "TOKEN", "HOLDS",
                                                        "WAITERS", "COMMAND"});
    // Sorted by name; columns aligned: every row's KIND starts where the header's does.
    const auto kind_at = table[0].find("KIND");
    CHECK(table[1].rfind("deploy", 0) == 0);
    CHECK(table[1].substr(kind_at, 5) == "latch");
    CHECK(contains(table[1], "count 2/2"));
    CHECK(table[2].rfind("job", 0) == 0);
    CHECK(table[2].substr(kind_at, 4) == "lock");
    const auto job = columns(table[2]);
    REQUIRE(job.size() >= 13);
    CHECK(job[2] == "exclusive");
    CHECK(job[3] == this_host());
    CHECK(job[4] == std::to_string(holder->pid()));
    CHECK(job[6].size() == 8); // HH:MM:SS
    CHECK(job[7].rfind("(", 0) == 0);
    CHECK(job[8] == "ago)");
    CHECK(job[10] == token);
    CHECK(job[11] == "1"); // holds
    CHECK(job[12] == "1"); // waiters
    CHECK(contains(table[2], "/bin/sh") == false);
    CHECK(contains(table[2], "echo $$ >"));
    // -l is --wide. The TTL and the age move on between two runs (29.9s vs 30s when they
    // straddle a tenth of a second), so compare runs made back to back until a pair agrees.
    CHECK(eventually([&] {
        return run(*server, {"status", "-l"}).out == run(*server, {"status", "--wide"}).out;
    }));

    // By default, the columns that fit 100: no user, token, holds or age.
    r = run(*server, {"status"});
    CHECK(r.exit_code == 0);
    const auto narrow = lines(r.out);
    REQUIRE(narrow.size() == 3);
    CHECK(columns(narrow[0]) == std::vector<std::string>{"NAME", "KIND", "STATE", "HOST", "PID",
                                                         "SINCE", "TTL", "WAITERS", "COMMAND"});
    const auto row = columns(narrow[2]);
    REQUIRE(row.size() >= 9);
    CHECK(row[0] == "job");
    CHECK(row[3] == this_host());
    CHECK(row[4] == std::to_string(holder->pid()));
    CHECK(row[5] == job[6]); // since
    CHECK(row[7] == "1");    // waiters
    CHECK_FALSE(contains(r.out, token));
    CHECK_FALSE(contains(r.out, " ago)"));

    r = run(*server, {"status", "job"});
    CHECK(r.exit_code == 0);
    CHECK(lines(r.out).size() == 2);

    r = run(*server, {"status", "nothing-here"});
    CHECK(r.exit_code == 1);
    REQUIRE(lines(r.out).size() == 2);
    CHECK(columns(lines(r.out)[1])[2] == "free");

    // Several names: 0 when at least one is held.
    CHECK(run(*server, {"status", "nothing-here", "job"}).exit_code == 0);

    r = run(*server, {"status", "--names"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "deploy\njob\n");

    let_go(dir, {holder.get(), waiter.get()});
    CHECK(run(*server, {"status", "job"}).exit_code == 1);
    r = run(*server, {"status", "--names"});
    CHECK(r.out == "deploy\n");
}

TEST_CASE("status --json has the documented fields", "[e2e][status]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "job");
    const std::string token = hget(*server, key("job"), "fence");

    auto r = run(*server, {"status", "--json", "job", "free"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    REQUIRE(lines(r.out).size() == 1);
    const std::string& j = r.out;
    CHECK(j.rfind("{\"server_time_ms\":", 0) == 0);
    CHECK(contains(
        j, "\"names\":[{\"name\":\"job\",\"in_use\":true,\"paused\":null,\"lock\":{\"state\":"
           "\"exclusive\",\"waiters\":0,\"held_until_ms\":null,\"holders\":[{"));
    CHECK(contains(j, "{\"host\":\"" + this_host() + "\",\"pid\":" + std::to_string(holder->pid()) +
                          ",\"user\":\""));
    CHECK(contains(j, "\"command\":\"echo $$ > \\\"$D/job.held\\\"; "));
    for (const auto* field : {"\"since_ms\":", "\"age_ms\":", "\"ttl_ms\":"})
        CHECK(contains(j, field));
    CHECK(contains(j, "\"fence\":" + token +
                          ",\"holds\":1}]},\"semaphore\":null,"
                          "\"latch\":null}"));
    CHECK(contains(
        j, "{\"name\":\"free\",\"in_use\":false,\"paused\":null,\"lock\":{\"state\":\"free\","
           "\"waiters\":0,\"held_until_ms\":null,\"holders\":[]},"
           "\"semaphore\":null,\"latch\":null}]}"));

    let_go(dir, {holder.get()});
    r = run(*server, {"status", "--json"});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "\"names\":[]}"));
}

TEST_CASE("status shows shared holders and semaphores", "[e2e][status]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r1 = start_holder(*server, dir, "rw", {"-s"});
    std::filesystem::rename(dir / "rw.held", dir / "first.held");
    auto r2 = start_holder(*server, dir, "rw", {"-s"});
    // A semaphore as the semaphore commands lay it out.
    auto time = server->cmd({"TIME"});
    const int64_t now = time[0].to_int().value() * 1000 + time[1].to_int().value() / 1000;
    server->cmd({"HSET", key("pool", "sem"), "limit", "3", "p:x1",
                 "own\tdb-7\t321\tcarol\t./pool.sh\t" + std::to_string(now - 5000) + "\t9"});
    server->cmd({"ZADD", key("pool", "permits"), std::to_string(now + 60'000), "x1"});

    auto r = run(*server, {"status", "--wide"});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    const auto rw = lines_with(r.out, "shared");
    REQUIRE(rw.size() == 2);
    CHECK(columns(rw[0])[4] == std::to_string(r1->pid()));
    CHECK(columns(rw[1])[4] == std::to_string(r2->pid()));
    const auto pool = lines_with(r.out, "semaphore");
    REQUIRE(pool.size() == 1);
    CHECK(columns(pool[0])[2] == "1/3");
    CHECK(columns(pool[0])[4] == "db-7");
    CHECK((contains(pool[0], "(5s ago)") || contains(pool[0], "(6s ago)")));
    CHECK(contains(pool[0], "./pool.sh"));
    let_go(dir, {r1.get(), r2.get()});
}

TEST_CASE("status, history and release reject bad input with 64 and touch nothing",
          "[e2e][status][bad-input]") {
    REQUIRE_REDIS(server);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"status", "bad name"},
             {"status", "--names", "job"},
             {"status", "--names", "--json"},
             {"history"},
             {"history", "bad{name}"},
             {"history", "job", "-n", "0"},
             {"history", "job", "-n", "1001"},
             {"history", "job", "-n", "ten"},
             {"release", "job"},
             {"release", "--force"},
             {"release", "--force", "a b"},
         }) {
        auto r = run(*server, args);
        INFO(args[0] << " " << (args.size() > 1 ? args[1] : "") << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(r.out.empty());
    }
    CHECK(dbsize(*server) == 0);
}

TEST_CASE("status fits 100 columns for a typical holder, --wide has every column",
          "[e2e][status]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start_holder(*server, dir, "nightly-job");
    const std::string token = hget(*server, key("nightly-job"), "fence");
    // As a holder on another host records itself: a long host name and command.
    server->cmd({"HSET", key("nightly-job"), "host", "web-20.corp.example", "cmd",
                 "/usr/local/bin/backup.sh --full --target s3://backups/nightly --verbose"});
    auto r = run(*server, {"status"});
    INFO("stdout:\n" << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    const auto table = lines(r.out);
    REQUIRE(table.size() == 2);
    for (const auto& line : table)
        CHECK(line.size() <= 100);
    CHECK(contains(table[1], "web-20.corp.example"));
    CHECK(contains(table[1], "  /usr/local/"));
    CHECK(table[1].ends_with("..."));
    CHECK_FALSE(contains(r.out, token));

    r = run(*server, {"status", "--wide"});
    CHECK(contains(r.out, "  " + token + "  "));
    CHECK(r.out.find("--verbose\n") != std::string::npos); // the whole command
    let_go(dir, {holder.get()});
}

TEST_CASE("status fits 100 columns for a long name, an EC2 host name and --min-hold",
          "[e2e][status]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string name = "nightly-backup-db-01"; // 20 characters
    const std::string host = "ip-10-0-12-34.eu-west-1.compute.internal";
    auto holder = start_holder(*server, dir, name, {"--min-hold", "10m"});
    let_go(dir, {holder.get()});
    REQUIRE(holder->wait(30s).exit_code == 0); // finished, held on by --min-hold
    // As a holder on an EC2 instance records itself.
    server->cmd({"HSET", key(name), "host", host, "cmd",
                 "/usr/local/bin/backup.sh --full --target s3://backups/nightly --verbose"});
    auto r = run(*server, {"status"});
    INFO("stdout:\n" << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    const auto table = lines(r.out);
    REQUIRE(table.size() == 2);
    for (const auto& line : table)
        CHECK(line.size() <= 100);
    CHECK(contains(table[1], name + "  lock  min-hold  "));
    CHECK(contains(table[1], "  ip-10-0-1")); // the host's start
    CHECK(contains(table[1], "...  "));
    CHECK(table[1].ends_with("..."));

    r = run(*server, {"status", "--wide"});
    INFO("--wide:\n" << r.out);
    CHECK(contains(r.out, "finished, held until "));
    CHECK(contains(r.out, "  " + host + "  "));
    CHECK(r.out.find("--verbose\n") != std::string::npos); // the whole command
}

TEST_CASE("status --wide is a table option: not with --json or --names",
          "[e2e][status][bad-input]") {
    for (const auto& flags :
         std::vector<std::vector<std::string>>{{"--wide", "--json"}, {"-l", "--names"}}) {
        auto r = run_raw(
            {"--redis", "unix:///nonexistent/dlock-e2e.sock", "status", flags[0], flags[1]});
        INFO(flags[0] << " " << flags[1] << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(lines(r.err).size() == 1);
    }
}
