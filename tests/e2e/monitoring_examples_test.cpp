// The Grafana dashboard and the Prometheus alert rules under docs/examples use only metrics that
// `dlock metrics` exports: every dlock_* name in them is a sample of a real reading (after runs
// of every kind, with a holder and a waiter, so that every family has samples).

#include "e2e/metrics_helpers.hpp"

#include <regex>
#include <set>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// Every dlock_* metric name in the example file `file`.
std::set<std::string> metrics_used_in(const std::string& file) {
    const std::string text = read_file(std::string(DLOCK_SOURCE_DIR) + "/docs/examples/" + file);
    REQUIRE_FALSE(text.empty());
    std::set<std::string> names;
    const std::regex metric("dlock_[a-z_]+");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), metric);
         it != std::sregex_iterator(); ++it)
        names.insert(it->str());
    return names;
}

// The metric names of the samples in `text` (the part before "{" or " ").
std::set<std::string> sample_names(const std::string& text) {
    std::set<std::string> names;
    for (const auto& line : lines(text))
        if (!line.empty() && line[0] != '#')
            names.insert(line.substr(0, line.find_first_of("{ ")));
    return names;
}

} // namespace

TEST_CASE("examples: every metric the Grafana dashboard and the alert rules use is exported",
          "[metrics]") {
    REQUIRE_REDIS(server_ptr);
    const RedisServer& server = *server_ptr;
    CHECK(run(server, {"run", "job", "--", "true"}).exit_code == 0);
    CHECK(run(server, {"run", "job", "--", "false"}).exit_code == 1);
    auto holder = start(server, {"run", "job", "--", "sleep", "60"});
    REQUIRE(eventually([&] { return run(server, {"status", "job"}).exit_code == 0; }, 20s));
    const auto r = run(server, {"metrics"});
    holder->signal(SIGTERM);
    holder->wait();
    REQUIRE(r.exit_code == 0);
    const auto exported = sample_names(r.out);
    for (const char* file : {"grafana-dashboard.json", "prometheus-alerts.yml"}) {
        const auto used = metrics_used_in(file);
        CHECK(used.size() >= 3);
        for (const auto& name : used) {
            INFO(file << " uses " << name);
            CHECK(exported.count(name) == 1);
        }
    }
}
