#pragma once

#include <fmt/format.h>
#include <string_view>
#include <utility>

// dlock's own output on stdout (tables, JSON, help): every subcommand prints through here, so
// that a write error is never ignored nor an exception. Writes are buffered and checked; once
// one fails, the rest is dropped, and finish() turns the failure into dlock's exit status.
namespace dlock::out {

void write(std::string_view text);

template <typename... Args>
void print(fmt::format_string<Args...> format, Args&&... args) {
    write(fmt::format(format, std::forward<Args>(args)...));
}

// Writes out what is buffered; false once any write to stdout has failed.
bool flush();

// Called once, at the end: flushes and returns the exit status. `status` when every write
// succeeded. When the reader of a pipe has gone (EPIPE), dlock ends as other tools do, by
// SIGPIPE, silently (the shell sees 141). Any other write error is one line on stderr ("cannot
// write to stdout: No space left on device") and exit 70.
int finish(int status);

} // namespace dlock::out
