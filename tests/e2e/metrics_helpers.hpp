#pragma once

// `dlock metrics` output read back through the Prometheus client's own parser
// (tests/e2e/parse_metrics.py, Debian's python3-prometheus-client), and runs on simulated hosts
// for the monitoring tests.

#include "e2e/fleet_helpers.hpp"

#include <map>
#include <string>

namespace dlock::test::e2e {

struct ParsedMetrics {
    bool parser = false;                         // false: the parser is not installed
    std::map<std::string, std::string> families; // name -> type
    std::map<std::string, double> samples;       // "NAME{k=v,...}" (labels sorted) -> value
    double at(const std::string& sample) const {
        const auto it = samples.find(sample);
        INFO("sample " << sample);
        REQUIRE(it != samples.end());
        return it->second;
    }
};

// Parses `text` with the real parser; a text that does not parse fails the test.
inline ParsedMetrics parse_metrics(const std::string& text) {
    TempDir dir;
    write_file(dir / "metrics.prom", text);
    Process p({"-c", "exec /usr/bin/python3 \"$0\" < \"$1\"",
               std::string(DLOCK_SOURCE_DIR) + "/tests/e2e/parse_metrics.py", dir / "metrics.prom"},
              {}, "/bin/sh");
    const auto r = p.wait();
    ParsedMetrics parsed;
    if (r.exit_code == 77)
        return parsed;
    INFO(text << r.err);
    REQUIRE(r.exit_code == 0);
    parsed.parser = true;
    for (const auto& line : lines(r.out)) {
        const auto space = line.rfind(' ');
        if (line.starts_with("family "))
            parsed.families[line.substr(7, space - 7)] = line.substr(space + 1);
        else
            parsed.samples[line.substr(0, space)] = std::stod(line.substr(space + 1));
    }
    return parsed;
}

// Runs `dlock ARGS...` as if on `host` when this machine can simulate hosts, else as itself.
inline ProcessResult run_on_host(const RedisServer& server, const std::string& host,
                                 std::vector<std::string> args) {
    if (can_simulate_hosts())
        return run_as_host(server, host, std::move(args));
    return run(server, std::move(args));
}

} // namespace dlock::test::e2e
