// Re-entry: a dlock run started inside the command on the same name (inheriting DLOCK_OWNER)
// enters at once, shares the fencing token, and the lease is released by the outermost run.

#include "e2e/e2e_helpers.hpp"

#include <sys/stat.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Writes an executable script into `dir`.
void write_script(const TempDir& dir, const std::string& name, const std::string& body) {
    const std::string path = dir / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    REQUIRE(chmod(path.c_str(), 0755) == 0);
}

} // namespace

TEST_CASE("a nested run on the same name re-enters and the outermost run releases",
          "[e2e][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The inner command: record what it sees, wait for the test, exit 3.
    write_script(dir, "inner.sh",
                 "echo \"$DLOCK_FENCING_TOKEN $DLOCK_OWNER\" > \"$D/inner\"\n"
                 "while [ ! -e \"$D/go-inner\" ]; do sleep 0.02; done\nexit 3");
    // The outer command: run the inner one under the same lock without waiting (-n: a refusal
    // would be 75), record its status and what the outer command sees, then wait for the test.
    write_script(dir, "outer.sh",
                 "\"$DLOCK_BIN\" --redis \"$URL\" run -n job -- \"$D/inner.sh\"\n"
                 "echo $? > \"$D/inner-status\"\n"
                 "echo \"$DLOCK_FENCING_TOKEN $DLOCK_OWNER\" > \"$D/outer\"\n" +
                     kAwaitGo);
    auto outer = start(*server, {"run", "job", "--", dir / "outer.sh"}, nested_env(*server, dir));

    // Both holds are on the lease while the inner command runs.
    const auto inner_seen = wait_for_line(dir / "inner");
    CHECK(hget(*server, key("job"), "holds") == "2");

    touch(dir / "go-inner");
    const auto inner_status = wait_for_line(dir / "inner-status");
    const auto outer_seen = wait_for_line(dir / "outer");
    CHECK(inner_status == "3");      // the inner command ran, and its status came back
    CHECK(inner_seen == outer_seen); // same fencing token, same owner

    // The inner run is over, the outer one still runs: the lock is still held.
    CHECK(exists(*server, key("job")));
    CHECK(hget(*server, key("job"), "holds") == "1");
    CHECK(hget(*server, key("job"), "pid") == std::to_string(outer->pid()));
    auto other = run(*server, {"run", "job", "--", "true"});
    CHECK(other.exit_code == 75);

    touch(dir / "go");
    auto r = outer->wait(10s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
}

TEST_CASE("re-entry works several levels deep and with -c", "[e2e][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    write_script(dir, "level3.sh", "echo \"3 $DLOCK_FENCING_TOKEN\" >> \"$D/tokens\"");
    write_script(dir, "level2.sh",
                 "echo \"2 $DLOCK_FENCING_TOKEN\" >> \"$D/tokens\"\n"
                 "exec \"$DLOCK_BIN\" --redis \"$URL\" run -w 1s job -- \"$D/level3.sh\"");
    auto r = run(*server,
                 {"run", "job", "-c",
                  "echo \"1 $DLOCK_FENCING_TOKEN\" >> \"$D/tokens\"; "
                  "\"$DLOCK_BIN\" --redis \"$URL\" run job -c '\"$D/level2.sh\"' && "
                  "\"$DLOCK_BIN\" --redis \"$URL\" run job -- true"},
                 nested_env(*server, dir));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    const auto seen = lines(read_file(dir / "tokens"));
    REQUIRE(seen.size() == 3);
    const auto token = seen[0].substr(2);
    CHECK(seen[0] == "1 " + token);
    CHECK(seen[1] == "2 " + token);
    CHECK(seen[2] == "3 " + token);
    CHECK_FALSE(exists(*server, key("job")));
}

TEST_CASE("a nested run on another name takes its own lock", "[e2e][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto r = run(*server,
                 {"run", "outer", "-c",
                  "echo $DLOCK_FENCING_TOKEN > \"$D/outer\"; "
                  "\"$DLOCK_BIN\" --redis \"$URL\" run inner -c "
                  "'echo $DLOCK_NAME $DLOCK_FENCING_TOKEN > \"$D/inner\"'"},
                 nested_env(*server, dir));
    CHECK(r.exit_code == 0);
    CHECK(trim(read_file(dir / "inner")).rfind("inner ", 0) == 0);
    CHECK(exists(*server, key("inner", "fence")));
    CHECK(exists(*server, key("outer", "fence")));
    CHECK_FALSE(exists(*server, key("inner")));
    CHECK_FALSE(exists(*server, key("outer")));
}

TEST_CASE("without the inherited ownership a nested run is refused", "[e2e][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // The nested run does not inherit the lock: it is a stranger and must not get in.
    auto r = run(*server,
                 {"run", "job", "-c",
                  "env -u DLOCK_OWNER -u DLOCK_HELD \"$DLOCK_BIN\" -q --redis \"$URL\" run job -- "
                  "true; echo $? > \"$D/status\""},
                 nested_env(*server, dir));
    CHECK(r.exit_code == 0);
    CHECK(trim(read_file(dir / "status")) == "75");
}

TEST_CASE("re-entry is per name: siblings taking another name inside a lock exclude each other",
          "[e2e][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    write_script(dir, "section.sh",
                 "echo \"start $$ $DLOCK_FENCING_TOKEN\" >> \"$D/log\"\nsleep 0.3\n"
                 "echo \"end $$ $DLOCK_FENCING_TOKEN\" >> \"$D/log\"");
    // Inside A, two background processes both take B (waiting for it).
    auto r = run(*server,
                 {"run", "A", "-c",
                  "for i in 1 2; do \"$DLOCK_BIN\" --redis \"$URL\" run -w 20s B -- "
                  "\"$D/section.sh\" & done; wait %1; s1=$?; wait %2; s2=$?; "
                  "echo \"$s1 $s2\" > \"$D/status\""},
                 nested_env(*server, dir));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(trim(read_file(dir / "status")) == "0 0");
    const auto log = lines(read_file(dir / "log"));
    INFO("log:\n" << read_file(dir / "log"));
    REQUIRE(log.size() == 4);
    // One section after the other, each with its own lease on B.
    auto field = [](const std::string& line, int n) {
        std::istringstream in(line);
        std::string word;
        for (int i = 0; i <= n; ++i)
            in >> word;
        return word;
    };
    CHECK(field(log[0], 0) == "start");
    CHECK(field(log[1], 0) == "end");
    CHECK(field(log[1], 1) == field(log[0], 1));
    CHECK(field(log[2], 0) == "start");
    CHECK(field(log[3], 0) == "end");
    CHECK(field(log[3], 1) == field(log[2], 1));
    CHECK(std::stoll(field(log[2], 2)) > std::stoll(field(log[0], 2)));
    CHECK_FALSE(exists(*server, key("A")));
    CHECK_FALSE(exists(*server, key("B")));
}

TEST_CASE("re-entry reaches through another lock: A inside B inside A", "[e2e][reentry]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    write_script(dir, "innermost.sh",
                 "echo \"$DLOCK_NAME $DLOCK_FENCING_TOKEN\" > \"$D/innermost\"");
    write_script(dir, "b.sh",
                 "echo \"$DLOCK_NAME $DLOCK_FENCING_TOKEN\" > \"$D/b\"\n"
                 "exec \"$DLOCK_BIN\" --redis \"$URL\" run -n A -- \"$D/innermost.sh\"");
    auto r = run(*server,
                 {"run", "A", "-c",
                  "echo \"$DLOCK_NAME $DLOCK_FENCING_TOKEN\" > \"$D/a\"; "
                  "\"$DLOCK_BIN\" --redis \"$URL\" run -n B -- \"$D/b.sh\""},
                 nested_env(*server, dir));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    const auto a = trim(read_file(dir / "a"));
    CHECK(a.rfind("A ", 0) == 0);
    CHECK(trim(read_file(dir / "b")).rfind("B ", 0) == 0);
    CHECK(trim(read_file(dir / "innermost")) == a); // A again, with A's token
    CHECK(dbsize(*server) == 6); // per name: the fencing counter, history and run counters
}
