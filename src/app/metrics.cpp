#include "app/metrics.hpp"

#include "lock/keys.hpp"

#include <algorithm>
#include <functional>

namespace dlock::app {
namespace {

// The shortest TTL of `holders` into `ttl` (-1: no expiry, kept only when nothing expires).
void shortest_ttl(const std::vector<lock::HolderStatus>& holders, std::optional<int64_t>& ttl) {
    for (const auto& h : holders) {
        const int64_t left = h.ttl_left.count();
        if (!ttl || *ttl < 0 || (left >= 0 && left < *ttl))
            ttl = left;
    }
}

// One deployment: the state as its only member reports it.
void current_state(const lock::NameStatus& s, NameMetrics& m) {
    m.holders = static_cast<int64_t>(s.lock.holders.size());
    m.waiters = s.lock.waiters;
    shortest_ttl(s.lock.holders, m.ttl_ms);
    if (s.semaphore) {
        m.holders += static_cast<int64_t>(s.semaphore->holders.size());
        m.waiters += s.semaphore->waiters;
        shortest_ttl(s.semaphore->holders, m.ttl_ms);
        m.permits_used = s.semaphore->used();
        m.permits_limit = s.semaphore->limit;
    }
}

// Under a quorum: the majority's holder, and the waiters at least a majority of members have.
void majority_state(const lock::StatusReading& reading, const std::string& name, NameMetrics& m) {
    for (const auto& majority : reading.majority)
        if (majority.name == name && majority.held && majority.holder) {
            m.holders = 1;
            m.ttl_ms = majority.holder->ttl_left.count();
        }
    std::vector<int64_t> waiters;
    for (const lock::NameStatus* s : reading.of(name))
        waiters.push_back(s->lock.waiters);
    if (waiters.size() >= reading.quorum) {
        std::sort(waiters.begin(), waiters.end(), std::greater<>());
        m.waiters = waiters[reading.quorum - 1];
    }
}

} // namespace

NameMetrics name_metrics(const lock::StatusReading& reading, const std::string& name) {
    NameMetrics m;
    m.name = name;
    m.paused = reading.pause_of(name).has_value();
    if (auto runs = lock::runs_of(reading, name))
        m.runs = std::move(*runs);
    if (reading.quorum > 0) {
        majority_state(reading, name, m);
        return m;
    }
    const auto found = reading.of(name);
    if (!found.empty()) {
        const lock::NameStatus& s = *found.front();
        current_state(s, m);
        m.counts_runs = !m.runs.empty() || !s.uncounted_kind();
    }
    return m;
}

Result<MetricsReading> read_metrics(lock::Store& store, const Target& target,
                                    const std::vector<std::string>& names) {
    auto wanted = lock::distinct(names); // a name twice would be a duplicate series
    if (wanted.empty()) {
        TRY_ASSIGN(wanted, store.names(target.prefix, lock::NameScope::known));
    }
    MetricsReading out;
    TRY_ASSIGN(const auto reading, store.status(target.prefix, wanted));
    out.up = true;
    out.server_now_ms = reading.server_now_ms().value_or(0);
    for (const auto& name : wanted)
        out.names.push_back(name_metrics(reading, name));
    return out;
}

} // namespace dlock::app
