#pragma once

#include <functional>
#include <thread>

namespace dlock {

// Starts `body` on a thread that blocks every signal, so process signals go to the main thread:
// the supervisor reads them from a signalfd, which sees them only while every thread blocks
// them, and a wait notices a caught signal sooner when its own thread is the one interrupted.
// Should blocking fail (only on bad arguments), says so and starts the thread all the same.
std::thread signal_free_thread(std::function<void()> body);

} // namespace dlock
