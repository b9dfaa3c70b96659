#include "util/terminal_frame.hpp"

#include "util/display_width.hpp"

#include <cerrno>
#include <csignal>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace dlock {
namespace {

constexpr std::string_view kHome = "\x1b[H";
constexpr std::string_view kClearScreen = "\x1b[2J";
constexpr std::string_view kEraseLine = "\x1b[K";
constexpr std::string_view kEraseBelow = "\x1b[J";

volatile sig_atomic_t g_redraw = 0;

extern "C" void record_redraw(int) {
    g_redraw = 1;
}

constexpr int kRedrawSignals[] = {SIGWINCH, SIGCONT};
struct sigaction g_previous[std::size(kRedrawSignals)];

} // namespace

std::optional<TerminalSize> terminal_size(int fd) {
    winsize size{};
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0 || size.ws_row == 0)
        return std::nullopt;
    return TerminalSize{size.ws_col, size.ws_row};
}

std::string compose_frame(const std::vector<std::string>& lines, TerminalSize size, bool clear) {
    const size_t width = size.columns > 1 ? size.columns - 1 : 1;
    const size_t rows = size.rows > 0 ? size.rows : 1;
    size_t shown = lines.size();
    std::string more;
    if (lines.size() > rows) {
        shown = rows - 1;
        more = fmt::format("... {} more", lines.size() - shown);
    }
    std::string frame(clear ? kClearScreen : "");
    frame += kHome;
    for (size_t i = 0; i < shown; ++i) {
        frame += cut_to_width(lines[i], width);
        frame += kEraseLine;
        if (i + 1 < shown || !more.empty())
            frame += "\r\n";
    }
    if (!more.empty()) {
        frame += cut_to_width(more, width);
        frame += kEraseLine;
    }
    frame += kEraseBelow;
    return frame;
}

RedrawSignals::RedrawSignals() {
    g_redraw = 0;
    struct sigaction catcher {};
    catcher.sa_handler = record_redraw;
    catcher.sa_flags = SA_RESTART;
    sigemptyset(&catcher.sa_mask);
    for (size_t i = 0; i < std::size(kRedrawSignals); ++i)
        (void)sigaction(kRedrawSignals[i], &catcher, &g_previous[i]);
}

RedrawSignals::~RedrawSignals() {
    for (size_t i = 0; i < std::size(kRedrawSignals); ++i)
        (void)sigaction(kRedrawSignals[i], &g_previous[i], nullptr);
}

bool RedrawSignals::take() {
    const bool came = g_redraw != 0;
    g_redraw = 0;
    return came;
}

} // namespace dlock
