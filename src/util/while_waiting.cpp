#include "util/while_waiting.hpp"

#include <utility>

namespace dlock {
namespace {

thread_local WhileWaiting* pending = nullptr;

} // namespace

WhileWaiting::WhileWaiting(std::function<void()> work) : work_(std::move(work)) {
    pending = this;
}

WhileWaiting::~WhileWaiting() {
    if (pending == this)
        pending = nullptr;
}

void WhileWaiting::run_now() {
    if (pending == this)
        pending = nullptr;
    if (auto work = std::exchange(work_, nullptr))
        work();
}

void WhileWaiting::run_pending() {
    if (WhileWaiting* waiting = pending)
        waiting->run_now();
}

} // namespace dlock
