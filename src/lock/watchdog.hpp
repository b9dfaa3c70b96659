#pragma once

#include "lock/backend.hpp"
#include "lock/lease_clock.hpp"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace dlock::lock {

// Renews the lease every TTL/3 from its own thread and Redis connection. Errors are retried
// until the lease clock says it is too late; "not ours" marks the lease lost at once. Either
// way `on_change` is called so the supervisor can re-check the stop deadline.
// stop() ends renewals before the lease is released, so nothing renews a released lease.
class Watchdog {
  public:
    Watchdog(BackendFactory open_backend, Keys keys, std::string owner, Millis ttl,
             LeaseClock& clock, std::function<void()> on_change,
             std::optional<std::string> shared_hold = std::nullopt);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    void start();
    void stop();

  private:
    void loop();
    bool sleep_until(LeaseClock::Clock::time_point when); // false when stopping

    BackendFactory open_backend_;
    Keys keys_;
    std::string owner_;
    Millis ttl_;
    LeaseClock& clock_;
    std::function<void()> on_change_;
    std::optional<std::string>
        shared_hold_; // renew this shared hold instead of the exclusive lease

    std::mutex mutex_;
    std::condition_variable wakeup_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace dlock::lock
