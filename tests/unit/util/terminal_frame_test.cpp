#include "util/terminal_frame.hpp"

#include <catch2/catch.hpp>
#include <csignal>

using namespace dlock;

TEST_CASE("a frame goes home, erases each line's end and everything below", "[terminal]") {
    const std::string frame = compose_frame({"one", "two"}, TerminalSize{80, 24}, false);
    CHECK(frame == "\x1b[Hone\x1b[K\r\ntwo\x1b[K\x1b[J");
}

TEST_CASE("only a frame that must clear the screen clears it", "[terminal]") {
    CHECK(compose_frame({"one"}, TerminalSize{80, 24}, true) == "\x1b[2J\x1b[Hone\x1b[K\x1b[J");
    CHECK(compose_frame({}, TerminalSize{80, 24}, false) == "\x1b[H\x1b[J");
}

TEST_CASE("a frame's lines are cut one column short of the width", "[terminal]") {
    const std::string frame =
        compose_frame({"0123456789", "012345678", "01234567"}, TerminalSize{10, 24}, false);
    CHECK(frame == "\x1b[H012345...\x1b[K\r\n012345678\x1b[K\r\n01234567\x1b[K\x1b[J");
    // Wide characters count two columns each.
    CHECK(compose_frame({"日本語テキスト"}, TerminalSize{10, 24}, false) ==
          "\x1b[H日本語...\x1b[K\x1b[J");
}

TEST_CASE("a frame taller than the terminal ends in a line saying how many more", "[terminal]") {
    const std::vector<std::string> lines{"a", "b", "c", "d", "e"};
    CHECK(compose_frame(lines, TerminalSize{80, 3}, false) ==
          "\x1b[Ha\x1b[K\r\nb\x1b[K\r\n... 3 more\x1b[K\x1b[J");
    // Exactly the height: every line, no newline after the last (the screen does not scroll).
    CHECK(compose_frame(lines, TerminalSize{80, 5}, false) ==
          "\x1b[Ha\x1b[K\r\nb\x1b[K\r\nc\x1b[K\r\nd\x1b[K\r\ne\x1b[K\x1b[J");
    CHECK(compose_frame(lines, TerminalSize{80, 1}, false) == "\x1b[H... 5 more\x1b[K\x1b[J");
}

TEST_CASE("the redraw signals are caught while asked for, and taken once", "[terminal]") {
    {
        RedrawSignals redraw;
        CHECK_FALSE(redraw.take());
        raise(SIGWINCH);
        CHECK(redraw.take());
        CHECK_FALSE(redraw.take());
        raise(SIGCONT);
        CHECK(redraw.take());
    }
    struct sigaction now {};
    sigaction(SIGWINCH, nullptr, &now);
    CHECK(now.sa_handler == SIG_DFL);
}
