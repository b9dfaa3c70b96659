// Workers loop `dlock run -w 20s --ttl 3s` on one name, with the default options, through
// repeated failovers of a Sentinel group: SENTINEL FAILOVER, and kill -9 of the master (restarted
// empty 4 s later). Every critical section is logged with its fencing token: no two sections
// whose runs both exited 0 may overlap, tokens of successful runs grow in the order the sections
// started (measured), and work resumes after every failover. The figures (overlaps, recovery times)
// are printed: `build/tests/e2e_tests '[failover-loop]' -s` (DLOCK_FAILOVERS=N failovers of each
// kind, default 10).
//
// Hidden from the default run ([.]): it takes minutes, so tests/CMakeLists.txt runs it once, as
// a test of its own with a longer timeout.

#include "e2e/e2e_helpers.hpp"
#include "support/sentinel_deployment.hpp"

#include <algorithm>
#include <map>
#include <sstream>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

using WallClock = std::chrono::system_clock;

int64_t wall_ns(WallClock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// One critical section as its command logged it (wall clock, ns, as `date +%s%N` prints it).
struct Section {
    std::string id;
    int64_t start = 0, end = 0, token = 0;
    int exit_code = -1; // dlock's
};

// Shell loops that run `dlock run` again and again until $D/stop exists; each run's exit
// status goes to $D/exits ("RUN STATUS"), its section to $D/log. Processes rather than threads:
// the test's assertions stay on one thread.
class Workers {
  public:
    Workers(const std::string& url, const std::string& dir, int count) : dir_(dir) {
        const std::string section = "echo \"start $RUN $DLOCK_FENCING_TOKEN $(date +%s%N)\" >> "
                                    "\"$D/log\"; sleep 0.1; echo \"end $RUN $(date +%s%N)\" >> "
                                    "\"$D/log\"";
        const std::string loop =
            "n=0; while [ ! -e \"$D/stop\" ]; do RUN=$W.$n; export RUN; "
            "\"$DLOCK\" --redis \"$URL\" run -w 20s --ttl 3s loop -c \"$SECTION\"; "
            "echo \"$RUN $?\" >> \"$D/exits\"; n=$((n+1)); done";
        for (int i = 0; i < count; ++i)
            shells_.push_back(std::make_unique<Process>(std::vector<std::string>{"-c", loop},
                                                        clean_env({{"D", dir},
                                                                   {"W", std::to_string(i)},
                                                                   {"URL", url},
                                                                   {"SECTION", section},
                                                                   {"DLOCK", dlock_binary()}}),
                                                        "/bin/sh"));
    }

    // Asks the loops to stop after their current run, and waits for them.
    void stop() {
        touch(dir_ + "/stop");
        for (auto& shell : shells_)
            shell->wait(60s);
    }
    std::map<std::string, int> exits() const {
        std::map<std::string, int> out;
        for (const auto& line : lines(read_file(dir_ + "/exits"))) {
            std::istringstream in(line);
            std::string id;
            int code = -1;
            in >> id >> code;
            out[id] = code;
        }
        return out;
    }

  private:
    std::string dir_;
    std::vector<std::unique_ptr<Process>> shells_;
};

std::map<std::string, Section> read_sections(const std::string& log) {
    std::map<std::string, Section> sections;
    for (const auto& line : lines(log)) {
        std::istringstream in(line);
        std::string word, id;
        in >> word >> id;
        if (word == "start")
            in >> sections[id].token >> sections[id].start;
        else if (word == "end")
            in >> sections[id].end;
    }
    return sections;
}

// Pairs of successful sections that overlap in time.
int overlapping_pairs(const std::vector<Section>& ok) {
    int pairs = 0;
    for (size_t i = 0; i < ok.size(); ++i)
        for (size_t j = i + 1; j < ok.size() && ok[j].start < ok[i].end; ++j)
            ++pairs;
    return pairs;
}

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

TEST_CASE("workers through repeated Sentinel failovers: no overlap, tokens grow, work resumes",
          "[.][e2e][sentinel][failover-loop]") {
    const char* env = getenv("DLOCK_FAILOVERS");
    const int per_kind = env ? std::max(1, atoi(env)) : 10;
    REQUIRE_SENTINEL(d);
    TempDir dir;
    Workers workers(d->url(), dir.path(), 4);

    struct Failover {
        bool crash;
        WallClock::time_point at;
    };
    std::vector<Failover> failovers;
    for (int i = 0; i < 2 * per_kind; ++i) {
        INFO("failover " << i);
        REQUIRE(eventually([&] { return d->ready(); }, 60s));
        std::this_thread::sleep_for(1500ms); // some work in the steady state
        const bool crash = i % 2 == 1;
        failovers.push_back({crash, WallClock::now()});
        if (!crash) {
            d->failover(60s);
            continue;
        }
        RedisNode& old = d->master();
        d->crash_master(60s);
        std::this_thread::sleep_until(failovers.back().at + 4s);
        old.restart();
    }
    REQUIRE(eventually([&] { return d->ready(); }, 60s));
    std::this_thread::sleep_for(3s);
    workers.stop();

    auto sections = read_sections(read_file(dir / "log"));
    std::map<int, int> by_exit;
    for (const auto& [id, code] : workers.exits()) {
        ++by_exit[code];
        if (sections.count(id))
            sections[id].exit_code = code;
    }
    std::vector<Section> ok;
    for (auto& [id, s] : sections) {
        s.id = id;
        if (s.exit_code == 0 && s.start > 0 && s.end > 0)
            ok.push_back(s);
    }
    std::sort(ok.begin(), ok.end(),
              [](const Section& a, const Section& b) { return a.start < b.start; });

    // The stall each failover caused: the longest time without a section running, from the
    // failover to 30 s after it (a section running at the failover that ends later counts from
    // its end). The workers never pause otherwise, so this is the time work took to resume.
    std::vector<double> graceful, crashed;
    double worst = 0;
    for (const auto& f : failovers) {
        const int64_t from = wall_ns(f.at), to = from + 30'000'000'000;
        int64_t idle_since = from, stall = 0;
        for (const auto& s : ok) {
            if (s.end < from || s.start > to)
                continue;
            stall = std::max(stall, s.start - idle_since);
            idle_since = std::max(idle_since, s.end);
        }
        if (idle_since == from) // nothing ran after it at all
            stall = to - from;
        const double seconds = static_cast<double>(stall) / 1e9;
        (f.crash ? crashed : graceful).push_back(seconds);
        worst = std::max(worst, seconds);
    }
    int backwards = 0;
    std::ostringstream out_of_order;
    for (size_t i = 1; i < ok.size(); ++i) {
        if (ok[i].token > ok[i - 1].token)
            continue;
        if (++backwards <= 5)
            out_of_order << " " << ok[i - 1].id << " (" << ok[i - 1].token << ") then " << ok[i].id
                         << " (" << ok[i].token << ") started "
                         << (ok[i].start - ok[i - 1].start) / 1000000 << " ms later;";
    }
    INFO("tokens out of order:" << out_of_order.str());
    const int overlaps = overlapping_pairs(ok);

    std::ostringstream summary;
    summary << per_kind << " graceful failovers + " << per_kind << " kill -9: " << sections.size()
            << " sections, " << ok.size() << " exited 0; exits:";
    for (const auto& [code, n] : by_exit)
        summary << " " << code << "x" << n;
    summary << "; overlapping pairs " << overlaps << ", tokens out of order " << backwards
            << "; work stalled by a graceful failover for a median " << median(graceful)
            << " s (max " << *std::max_element(graceful.begin(), graceful.end())
            << "), by kill -9 for a median " << median(crashed) << " s (max "
            << *std::max_element(crashed.begin(), crashed.end()) << ")";
    WARN(summary.str());
    CHECK(overlaps == 0);
    // Token order is measured, not asserted: a sentinel that has not refreshed a replica's link
    // status yet undercounts the replicas, so now and then a lease is taken without the replica
    // a failover then promotes (docs/production.md "Safety").
    INFO("tokens out of order: " << backwards);
    // Liveness, not a latency target (the figures above are measured, and recorded in the docs):
    // a loaded machine may be slow, but work must resume within 30 s of every failover.
    CHECK(worst < 30);
}
