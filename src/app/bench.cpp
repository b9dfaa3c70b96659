#include "app/bench.hpp"

#include "lock/acquire.hpp"
#include "lock/self_info.hpp"
#include "redis/protocol/command_stats.hpp"
#include "redis/scripts/script_session.hpp"
#include "util/bench_stats.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"
#include "util/random.hpp"

#include <atomic>
#include <condition_variable>
#include <fmt/format.h>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace dlock::app {
namespace {

using Clock = std::chrono::steady_clock;
constexpr Millis kBenchTtl{10'000};

// The hand-rolled lock dlock is compared with: SET NX PX, then compare-and-delete, each as a
// script on one connection: the same two round trips per cycle, without dlock's bookkeeping.
constexpr const char* kMinimalAcquire =
    "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then return 1 end return 0";
constexpr const char* kMinimalRelease =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end "
    "return 0";

struct Uncontended {
    double cycles_per_s = 0;          // dlock acquire + release
    double baseline_cycles_per_s = 0; // the minimal lock above
    double ratio() const {
        return baseline_cycles_per_s > 0 ? cycles_per_s / baseline_cycles_per_s : 0;
    }
};

struct Handover {
    int waiters = 0;
    LatencyStats latency;
    double scripts_per_handover = 0;     // EVALSHA/EVAL
    double round_trips_per_handover = 0; // scripts + BLPOP
};

lock::AcquireRequest request() {
    return {random_hex(16),
            random_hex(8),
            kBenchTtl,
            "",
            lock::kWaiterHeartbeat,
            {"bench", getpid(), "bench", "dlock bench", 0, 0}};
}

double per_second(int count, Clock::duration elapsed) {
    return count / std::chrono::duration<double>(elapsed).count();
}

// Runs `cycles` dlock acquire+release cycles and as many minimal-lock cycles, interleaved in
// chunks so that both see the same machine load.
Result<Uncontended> measure_uncontended(const Target& c, const BenchOptions& o,
                                        const lock::BackendFactory& open) {
    const auto keys = lock::Keys::of(c.prefix, o.name + "-uncontended");
    TRY_ASSIGN(const auto opened, open());
    lock::Backend& backend = *opened;
    redis::ScriptSession session(c.redis);
    TRY(session.masters()); // in a Cluster, learns which node has the bench's keys
    TRY_ASSIGN(redis::Connection * found, session.connection(keys.lock));
    redis::Connection& conn = *found;
    TRY_ASSIGN(const auto acquire_sha, conn.command({"SCRIPT", "LOAD", kMinimalAcquire}));
    TRY_ASSIGN(const auto release_sha, conn.command({"SCRIPT", "LOAD", kMinimalRelease}));
    const std::string acquire_sha1(acquire_sha.str()), release_sha1(release_sha.str());
    const std::string minimal_key = keys.lock + "-minimal";

    auto dlock_cycle = [&]() -> Result<void> {
        auto req = request();
        TRY_ASSIGN(const auto got, backend.acquire(keys, req));
        if (!got.acquired)
            return fail(Fault::not_obtained, fmt::format("{} is busy; is another bench running?",
                                                         o.name + "-uncontended"));
        return backend
            .release(keys, lock::ReleaseRequest{req.owner, req.hold_id, lock::kWaiterHeartbeat})
            .map([](auto) {});
    };
    auto minimal_cycle = [&]() -> Result<void> {
        const std::string token = random_hex(16);
        for (const auto* sha1 : {&acquire_sha1, &release_sha1})
            TRY(conn.command({"EVALSHA", *sha1, "1", minimal_key, token}));
        return {};
    };

    Clock::duration dlock_time{}, minimal_time{};
    constexpr int kChunk = 100;
    for (int done = 0; done < o.cycles; done += kChunk) {
        const int n = std::min(kChunk, o.cycles - done);
        auto start = Clock::now();
        for (int i = 0; i < n; ++i)
            TRY(dlock_cycle());
        dlock_time += Clock::now() - start;
        start = Clock::now();
        for (int i = 0; i < n; ++i)
            TRY(minimal_cycle());
        minimal_time += Clock::now() - start;
    }
    (void)conn.command({"DEL", keys.lock, keys.fence, keys.history, minimal_key});
    return Uncontended{per_second(o.cycles, dlock_time), per_second(o.cycles, minimal_time)};
}

// K waiter threads, each with its own connection, queue behind a gate holder; the gate
// releases and the lock is handed down the queue. Repeated until enough samples.
class HandoverRun {
  public:
    HandoverRun(const Target& c, const BenchOptions& o, lock::BackendFactory open, int waiters)
        : c_(c), open_(std::move(open)),
          keys_(lock::Keys::of(c.prefix, fmt::format("{}-handover-{}", o.name, waiters))),
          waiters_(waiters), rounds_((o.handovers + waiters - 1) / waiters) {}

    Result<Handover> run();

  private:
    void worker(lock::Backend& backend);
    Result<void> round(redis::Connection& stats, lock::Backend& gate, redis::CommandCalls& total);
    Result<void> wait_queued(redis::Connection& stats);

    const Target& c_;
    lock::BackendFactory open_;
    lock::Keys keys_;
    int waiters_;
    int rounds_;

    std::mutex mutex_;
    std::condition_variable changed_;
    int round_ = 0, finished_ = 0;
    bool quit_ = false;
    std::optional<Error> error_;
    std::vector<std::chrono::nanoseconds> samples_;
    std::atomic<Clock::rep> last_release_{0};
};

void HandoverRun::worker(lock::Backend& backend) {
    int seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return quit_ || round_ > seen; });
            if (quit_)
                return;
            seen = round_;
        }
        lock::AcquireSpec spec{keys_, request(), Millis(30'000)};
        auto got = lock::acquire(backend, spec);
        const auto acquired_at = Clock::now();
        std::optional<Error> failure;
        if (!got)
            failure = got.error();
        else if (!std::holds_alternative<lock::Acquired>(*got))
            failure = Error{Fault::not_obtained, "a bench waiter timed out"};
        std::chrono::nanoseconds sample{};
        if (!failure) {
            sample = acquired_at - Clock::time_point(Clock::duration(last_release_.load()));
            last_release_.store(Clock::now().time_since_epoch().count());
            auto rel = backend.release(keys_, lock::ReleaseRequest{spec.request.owner,
                                                                   spec.request.hold_id,
                                                                   lock::kWaiterHeartbeat});
            if (!rel)
                failure = rel.error();
        }
        std::lock_guard lock(mutex_);
        if (failure)
            error_ = failure;
        else
            samples_.push_back(sample);
        ++finished_;
        changed_.notify_all();
    }
}

Result<void> HandoverRun::wait_queued(redis::Connection& stats) {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < deadline) {
        TRY_ASSIGN(const auto queued, stats.command({"ZCARD", keys_.queue}));
        if (queued.integer() >= waiters_)
            return {};
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return fail(Fault::internal, "bench waiters did not queue within 10s");
}

Result<void> HandoverRun::round(redis::Connection& stats, lock::Backend& gate,
                                redis::CommandCalls& total) {
    auto req = request();
    TRY_ASSIGN(const auto got, gate.acquire(keys_, req));
    if (!got.acquired)
        return fail(Fault::not_obtained, fmt::format("{} is busy", keys_.lock));
    {
        std::lock_guard lock(mutex_);
        ++round_;
        finished_ = 0;
    }
    changed_.notify_all();
    TRY(wait_queued(stats));
    TRY_ASSIGN(const auto before, redis::command_stats(stats));
    last_release_.store(Clock::now().time_since_epoch().count());
    TRY(gate.release(keys_, lock::ReleaseRequest{req.owner, req.hold_id, lock::kWaiterHeartbeat}));
    {
        std::unique_lock lock(mutex_);
        if (!changed_.wait_for(lock, std::chrono::seconds(60),
                               [&] { return finished_ == waiters_; }))
            return fail(Fault::internal, "bench round did not finish within 60s");
        if (error_)
            return tl::unexpected(*error_);
    }
    TRY_ASSIGN(const auto after, redis::command_stats(stats));
    for (auto& [name, n] : redis::calls_between(before, after))
        total[name] += n;
    return {};
}

Result<Handover> HandoverRun::run() {
    redis::ScriptSession session(c_.redis);
    TRY(session.masters()); // in a Cluster, learns which node has the bench's keys
    TRY_ASSIGN(redis::Connection * found, session.connection(keys_.lock));
    redis::Connection& stats = *found;
    TRY_ASSIGN(const auto gate, open_());
    std::vector<std::unique_ptr<lock::Backend>> backends;
    for (int i = 0; i < waiters_; ++i) {
        TRY_ASSIGN(auto backend, open_());
        backends.push_back(std::move(backend));
    }
    std::vector<std::thread> threads;
    for (auto& backend : backends)
        threads.emplace_back([this, &backend] { worker(*backend); });

    redis::CommandCalls total;
    Result<void> ok;
    for (int r = 0; r < rounds_ && ok; ++r)
        ok = round(stats, *gate, total);
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    changed_.notify_all();
    for (auto& t : threads)
        t.join();
    (void)stats.command({"DEL", keys_.lock, keys_.fence, keys_.queue, keys_.alive, keys_.history});
    TRY(ok);

    Handover out;
    out.waiters = waiters_;
    out.latency = latency_stats(samples_);
    const double handovers = static_cast<double>(rounds_) * waiters_;
    // Command stats also count the redis.call()s inside scripts: only what clients send counts.
    const int64_t scripts = total["evalsha"] + total["eval"];
    out.scripts_per_handover = static_cast<double>(scripts) / handovers;
    out.round_trips_per_handover = static_cast<double>(scripts + total["blpop"]) / handovers;
    return out;
}

void print_table(const Target& c, const Uncontended& u, const std::vector<Handover>& runs) {
    out::print("dlock bench against {}\n\n", c.redis.display());
    out::print("uncontended acquire+release, dlock:           {:>8.0f} cycles/s\n", u.cycles_per_s);
    out::print("same with minimal SET NX + compare-and-delete: {:>8.0f} cycles/s\n",
               u.baseline_cycles_per_s);
    out::print("ratio dlock / minimal:                         {:>8.2f}\n\n", u.ratio());
    out::print("{:>8} {:>8} {:>9} {:>9} {:>9} {:>17} {:>21}\n", "waiters", "samples", "p50 ms",
               "p99 ms", "max ms", "scripts/handover", "round trips/handover");
    for (const auto& h : runs)
        out::print("{:>8} {:>8} {:>9.3f} {:>9.3f} {:>9.3f} {:>17.2f} {:>21.2f}\n", h.waiters,
                   h.latency.samples, h.latency.p50_ms, h.latency.p99_ms, h.latency.max_ms,
                   h.scripts_per_handover, h.round_trips_per_handover);
}

void print_json(const Target& c, const Uncontended& u, const std::vector<Handover>& runs) {
    out::print("{{\"redis\":\"{}\",\"uncontended\":{{\"cycles_per_s\":{:.1f},"
               "\"minimal_cycles_per_s\":{:.1f},\"ratio\":{:.3f}}},\"handover\":[",
               c.redis.display(), u.cycles_per_s, u.baseline_cycles_per_s, u.ratio());
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto& h = runs[i];
        out::print("{}{{\"waiters\":{},\"samples\":{},\"p50_ms\":{:.4f},\"p99_ms\":{:.4f},"
                   "\"max_ms\":{:.4f},\"mean_ms\":{:.4f},\"scripts_per_handover\":{:.3f},"
                   "\"round_trips_per_handover\":{:.3f}}}",
                   i ? "," : "", h.waiters, h.latency.samples, h.latency.p50_ms, h.latency.p99_ms,
                   h.latency.max_ms, h.latency.mean_ms, h.scripts_per_handover,
                   h.round_trips_per_handover);
    }
    out::print("]}}\n");
}

} // namespace

Result<int> bench(lock::Store& store, const Target& target, const BenchOptions& options) {
    const lock::Capabilities offered = store.capabilities();
    TRY(lock::require(offered.bench, offered, "dlock bench"));
    const auto self = self_info("dlock bench");
    const lock::BackendFactory open = store.leases(0, self, kBenchTtl).factory;
    TRY_ASSIGN(const auto uncontended, measure_uncontended(target, options, open));
    std::vector<Handover> runs;
    for (int k : options.waiters) {
        auto h = HandoverRun(target, options, open, k).run();
        if (!h) {
            h.error().message = fmt::format("handover with {} waiters: {}", k, h.error().message);
            return tl::unexpected(h.error());
        }
        runs.push_back(*h);
    }
    if (options.json)
        print_json(target, uncontended, runs);
    else
        print_table(target, uncontended, runs);
    return exit_code::ok;
}

} // namespace dlock::app
