#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A view redrawn in place at a terminal (`dlock status --watch`), in the few escape sequences
// every terminal since the VT100 knows: no alternate screen and no hidden cursor, so that nothing
// has to be restored when dlock is stopped or killed.
namespace dlock {

struct TerminalSize {
    size_t columns = 80;
    size_t rows = 24;
};

// The window size of the terminal on `fd`; nullopt when it is no terminal or reports none.
std::optional<TerminalSize> terminal_size(int fd);

// One frame, written over the last one without flicker: the cursor home, each line cut to the
// width (one column to spare: a full line would leave the cursor waiting to wrap) and followed
// by erase-to-end-of-line, then erase-below. With `clear`, the screen is cleared first (the
// first frame, or after a resize or a resume, when the old one may be anywhere). Lines beyond
// the height are replaced by "... N more" on the last row. The cursor stays at the end of the
// last line: no newline after it, so a frame of the full height never scrolls.
std::string compose_frame(const std::vector<std::string>& lines, TerminalSize size, bool clear);

// After the last frame: the cursor on a fresh line below it.
inline constexpr std::string_view kAfterLastFrame = "\r\n";

// Catches SIGWINCH (the window was resized) and SIGCONT (resumed after Ctrl-Z and fg) while it
// exists: either means the next frame must clear the screen. One at a time; the previous
// actions are restored when it is destroyed.
class RedrawSignals {
  public:
    RedrawSignals();
    ~RedrawSignals();
    RedrawSignals(const RedrawSignals&) = delete;
    RedrawSignals& operator=(const RedrawSignals&) = delete;

    // Whether one came since the last call (and forgets it).
    bool take();
};

} // namespace dlock
