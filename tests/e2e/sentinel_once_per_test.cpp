// `dlock run --once-per` through a redis-sentinel:// URL: the claim and the mark go to the
// master found by the sentinels, like the lease.

#include "e2e/e2e_helpers.hpp"
#include "support/sentinel_deployment.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

TEST_CASE("once-per through Sentinel: the slot is kept on the master",
          "[e2e][sentinel][once-per]") {
    REQUIRE_SHARED_SENTINEL(d);
    TempDir dir;
    const Env env{{"DLOCK_SENTINEL_PASSWORD", d->options().sentinel_password},
                  {"DLOCK_REDIS_PASSWORD", d->options().master_password}};
    const std::string name = "once-sentinel";
    auto r = run_on(d->url(), {"run", "--once-per", "1h", name, "--", "touch", dir / "first"}, env);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(file_exists(dir / "first"));
    CHECK(d->master().cmd({"EXISTS", key(name, "slot")}).integer() == 1);
    r = run_on(d->url(), {"-v", "run", "--once-per", "1h", name, "--", "touch", dir / "second"},
               env);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("done this slot") != std::string::npos);
    CHECK_FALSE(file_exists(dir / "second"));
    d->master().cmd({"DEL", key(name, "slot")}); // the deployment is shared by other tests
}
