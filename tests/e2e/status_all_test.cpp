// `dlock status --all`: every name known under the prefix, free ones too, with its state and
// last run, as a table that fits 100 columns and as JSON.

#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// The row of `name` in a table: the line that starts with it.
std::string row_of(const std::string& table, const std::string& name) {
    for (const auto& line : lines(table))
        if (line.rfind(name + " ", 0) == 0)
            return line;
    return "";
}

} // namespace

TEST_CASE("status --all lists every known name with its last run, free ones too",
          "[e2e][status][all]") {
    REQUIRE_REDIS(server);
    auto none = run(*server, {"status", "--all"});
    CHECK(none.exit_code == 1);
    CHECK(none.out == "nothing under prefix dlock\n");

    TempDir dir;
    REQUIRE(run(*server, {"run", "nightly-backup", "--", "true"}).exit_code == 0);
    REQUIRE(run(*server, {"run", "report", "--", "sh", "-c", "exit 3"}).exit_code == 3);
    auto holder = start_holder(*server, dir, "import");
    auto r = run(*server, {"status", "--all"});
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto rows = lines(r.out);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].rfind("NAME", 0) == 0);
    for (const auto& row : rows)
        CHECK(row.size() <= 100);
    const std::string backup = row_of(r.out, "nightly-backup");
    CHECK(contains(backup, " lock "));
    CHECK(contains(backup, " free "));
    CHECK(contains(backup, " ok "));
    CHECK(contains(backup, " " + this_host() + " "));
    const std::string report = row_of(r.out, "report");
    CHECK(contains(report, " failed "));
    CHECK(contains(report, " 3 "));
    CHECK(contains(report, "never"));
    const std::string import = row_of(r.out, "import");
    CHECK(contains(import, " exclusive "));
    CHECK(contains(import, "never"));

    auto json = run(*server, {"status", "--all", "--json"});
    CHECK(json.exit_code == 0);
    CHECK(contains(json.out,
                   R"({"name":"nightly-backup","kind":"lock","state":"free","paused":null,)"
                   R"("last_run":{"outcome":"ok",)"));
    CHECK(contains(json.out, R"("exit_status":3})"));
    CHECK(contains(json.out, R"({"name":"import","kind":"lock","state":"exclusive","paused":null,)"
                             R"("last_run":null,"last_success":null,)"));
    let_go(dir, {holder.get()});
}

TEST_CASE("status --all takes no NAME and no other view", "[e2e][status][all][usage]") {
    REQUIRE_REDIS(server);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"status", "--all", "job"},
                                               {"status", "--all", "--names"},
                                               {"status", "--all", "--watch"},
                                               {"status", "--all", "-l"},
                                               {"status", "--all", "--compat", "setnx", "job"}}) {
        auto r = run(*server, args);
        INFO("dlock " << args.back() << ": " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_dlock_line(r.err));
        CHECK(dbsize(*server) == 0);
    }
}
