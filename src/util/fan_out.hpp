#pragma once

#include <cstddef>
#include <functional>

namespace dlock {

// Runs task(0) ... task(n - 1) at the same time, task(0) on the calling thread and each other on
// a thread of its own, and returns when all have returned. Each task must bound itself (every
// Redis call has a deadline). The extra threads block every signal: signals are the business of
// the main thread (the supervisor reads them from a signalfd).
void fan_out(size_t n, const std::function<void(size_t)>& task);

} // namespace dlock
