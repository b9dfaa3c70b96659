#include "lock/status.hpp"

namespace dlock::lock {

int64_t SemaphoreStatus::used() const {
    int64_t n = 0;
    for (const auto& h : holders)
        n += h.holds;
    return n;
}

bool NameStatus::in_use() const {
    return lock.state != LockStatus::State::free || (semaphore && semaphore->used() > 0) ||
           latch.has_value();
}

const char* NameStatus::uncounted_kind() const {
    if (lock.state != LockStatus::State::free)
        return nullptr;
    return semaphore || semaphore_traces ? "a semaphore" : latch ? "a latch" : nullptr;
}

const char* state_name(LockStatus::State state) {
    switch (state) {
    case LockStatus::State::exclusive:
        return "exclusive";
    case LockStatus::State::shared:
        return "shared";
    case LockStatus::State::min_hold:
        return "min-hold";
    case LockStatus::State::free:
        break;
    }
    return "free";
}

} // namespace dlock::lock
