// `dlock run --once-per` on a Redis Cluster: the slot key has the name's hash tag, so the claim
// and the mark go to the master of the name's lock, on every master.

#include "e2e/cluster_helpers.hpp"
#include "e2e/ops_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("once-per on a Redis Cluster: one successful run per slot on every master",
          "[e2e][cluster][once-per]") {
    REQUIRE_CLUSTER(cluster);
    TempDir dir;
    const std::string url = cluster->seeds_url();
    for (const auto& name : names_on_every_master(*cluster, "once")) {
        INFO("name " << name);
        auto r = run_on(url, {"run", "--once-per", "1h", name, "--", "false"});
        CHECK(r.exit_code == 1);
        r = run_on(url, {"run", "--once-per", "1h", name, "--", "touch", dir / (name + ".1")});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(file_exists(dir / (name + ".1")));
        CHECK(cluster->exists(key(name, "slot")));
        r = run_on(url,
                   {"-v", "run", "--once-per", "1h", name, "--", "touch", dir / (name + ".2")});
        CHECK(r.exit_code == 0);
        CHECK(contains(r.err, "done this slot"));
        CHECK_FALSE(file_exists(dir / (name + ".2")));
    }
}
