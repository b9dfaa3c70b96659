// A Redis outage while the command runs is reported twice, not once per retried renewal: one
// warning when renewals start failing (saying when the command will be stopped), then either
// "renewals recovered" or the lost-lease error.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

size_t count_lines_with(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (const auto& line : lines(text))
        count += line.find(part) != std::string::npos ? 1 : 0;
    return count;
}

size_t line_with(const std::string& text, const std::string& part) {
    const auto all = lines(text);
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].find(part) != std::string::npos)
            return i;
    return all.size();
}

} // namespace

TEST_CASE("renewals failing until the lease is lost warn once, then the loss",
          "[e2e][lost][outage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // A 3 s lease is renewed every second and retried every 150 ms while Redis refuses
    // connections: several failed attempts before the command is stopped.
    auto dlock = start(
        *server,
        {"run", "--ttl", "3s", "job", "--", "sh", "-c", "echo $$ > \"$D/pid\"; exec sleep 60"},
        {{"D", dir.path()}});
    read_pid(dir / "pid");
    server->stop();
    auto r = dlock->wait(20s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(count_lines_with(r.err, "cannot renew") == 1);
    CHECK(count_lines_with(r.err, "dlock: cannot renew the lease on job: ") == 1);
    CHECK(count_lines_with(r.err, "the command will be stopped in ") == 1);
    CHECK(count_lines_with(r.err, "could not renew the lease on job in time") == 1);
    CHECK(line_with(r.err, "cannot renew") < line_with(r.err, "could not renew the lease"));
}

TEST_CASE("renewals that recover after a pause of Redis warn once, then say so",
          "[e2e][lost][outage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    // Renewed every 5 s; a renewal to a paused Redis fails after the 2 s command timeout, and
    // the command would be stopped 11 s after the last renewal: time to resume Redis first.
    auto dlock = start(*server,
                       {"run", "--ttl", "15s", "job", "--", "sh", "-c",
                        "echo $$ > \"$D/pid\"; while [ ! -e \"$D/go\" ]; do sleep 0.05; done"},
                       {{"D", dir.path()}});
    read_pid(dir / "pid");
    server->pause();
    const bool warned = eventually(
        [&] { return dlock->err().find("cannot renew") != std::string::npos; }, 30s, 20ms);
    server->resume();
    REQUIRE(warned);
    REQUIRE(eventually([&] { return dlock->err().find("renewals recovered") != std::string::npos; },
                       30s));
    touch(dir / "go");
    auto r = dlock->wait(20s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(count_lines_with(r.err, "cannot renew") == 1);
    CHECK(count_lines_with(r.err, "dlock: renewals recovered: renewed the lease on job again") ==
          1);
    CHECK(line_with(r.err, "cannot renew") < line_with(r.err, "renewals recovered"));
}

TEST_CASE("each failed renewal attempt is a debug line at -vv", "[e2e][lost][outage]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto dlock = start(*server,
                       {"-vv", "run", "--ttl", "3s", "job", "--", "sh", "-c",
                        "echo $$ > \"$D/pid\"; exec sleep 60"},
                       {{"D", dir.path()}});
    read_pid(dir / "pid");
    server->stop();
    auto r = dlock->wait(20s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(count_lines_with(r.err, "warning: cannot renew") == 1);
    CHECK(count_lines_with(r.err, "debug: cannot renew the lease on job: ") >= 1);
}
