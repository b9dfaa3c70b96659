#include "util/display_width.hpp"
#include "util/table.hpp"
#include "util/text.hpp"

#include <catch2/catch.hpp>

using namespace dlock;

TEST_CASE("tables align columns two spaces apart and do not pad the last", "[table]") {
    CHECK(format_table({{"NAME", "KIND", "COMMAND"},
                        {"job", "lock", "./backup.sh --full"},
                        {"deploy-all", "latch", "-"}}) == "NAME        KIND   COMMAND\n"
                                                          "job         lock   ./backup.sh --full\n"
                                                          "deploy-all  latch  -\n");
}

TEST_CASE("table widths count UTF-8 characters, not bytes", "[table]") {
    CHECK(format_table({{"USER", "X"}, {"j\xc3\xb6rg", "1"}}) == "USER  X\nj\xc3\xb6rg  1\n");
}

TEST_CASE("table cells cannot break a row", "[table]") {
    CHECK(format_table({{"a\nb", "c\td"}}) == "a\\nb  c\\td\n");
}

TEST_CASE("a table with a width cuts its last column to fit, never below a minimum", "[table]") {
    const std::vector<std::vector<std::string>> rows{{"NAME", "COMMAND"},
                                                     {"job", "./backup.sh --full --verbose"}};
    CHECK(format_table(rows, 20) == "NAME  COMMAND\njob   ./backup.sh...\n");
    CHECK(format_table(rows, 100) == format_table(rows)); // it fits: nothing cut
    // Too narrow for the other columns: the last keeps kMinLastColumn columns.
    CHECK(format_table(rows, 4) == "NAME  COMMAND\njob   ./backup....\n");
    // A cut counts characters, and never splits one.
    CHECK(format_table({{"A", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
                              "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"}},
                       1) ==
          "A  \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...\n");
}

TEST_CASE("one_line escapes control bytes and keeps UTF-8", "[text]") {
    CHECK(one_line("plain") == "plain");
    CHECK(one_line("x\ny\x1b") == "x\\ny\\x1b");
    CHECK(one_line("\xc3\xa9") == "\xc3\xa9");
    CHECK(one_line("\xe2\x9c\x93 \xf0\x9f\x9a\x80") == "\xe2\x9c\x93 \xf0\x9f\x9a\x80");
    // C1 controls (the 8-bit CSI), a bidirectional override, invalid UTF-8: escaped bytes.
    CHECK(one_line("a\xc2\x9b"
                   "2J") == "a\\xc2\\x9b2J");
    CHECK(one_line("\xe2\x80\xae"
                   "x") == "\\xe2\\x80\\xaex");
    CHECK(one_line("\x9b\xff\xc3(") == "\\x9b\\xff\\xc3(");
    CHECK(one_line("\xc0\xaf") == "\\xc0\\xaf");          // overlong '/'
    CHECK(one_line("\xed\xa0\x80") == "\\xed\\xa0\\x80"); // a surrogate
    CHECK(one_line("\xc3") == "\\xc3");                   // cut in the middle
    CHECK(quote("\xc3\xa9") == "'\\xc3\\xa9'");
}

TEST_CASE("a table with a width cuts the columns it is given in turn, each to its minimum",
          "[table]") {
    const std::vector<std::vector<std::string>> rows{
        {"NAME", "HOST", "PID", "COMMAND"},
        {"job", "ip-10-0-12-34.eu-west-1.compute.internal", "42", "./backup.sh --full"}};
    const std::vector<Cuttable> cuttable{{3, 12}, {1, 21}};
    // COMMAND is cut first, to its minimum; then HOST keeps its start.
    CHECK(format_table(rows, 45, cuttable) == "NAME  HOST                   PID  COMMAND\n"
                                              "job   ip-10-0-12-34.eu-w...  42   ./backup....\n");
    // Enough room once COMMAND is cut: HOST stays whole.
    CHECK(format_table(rows, 65, cuttable) ==
          "NAME  HOST                                      PID  COMMAND\n"
          "job   ip-10-0-12-34.eu-west-1.compute.internal  42   ./backup....\n");
    // Neither goes below its minimum, even when the line still does not fit.
    CHECK(format_table(rows, 10, cuttable) == format_table(rows, 45, cuttable));
}

TEST_CASE("a table counts a wide character as two columns", "[table]") {
    CHECK(display_width("j\xc3\xb6rg") == 4);
    CHECK(display_width("\xe6\x97\xa5\xe6\x9c\xac") == 4);         // 日本
    CHECK(display_width("\xf0\x9f\x9a\x80\xf0\x9f\xaa\x84") == 4); // a rocket, a magic wand
    // 日本 lines up with HOST: both take four columns.
    CHECK(format_table({{"HOST", "X"}, {"\xe6\x97\xa5\xe6\x9c\xac", "1"}}) ==
          "HOST  X\n\xe6\x97\xa5\xe6\x9c\xac  1\n");
    // 日本語テキスト cut to 9 columns: three wide characters and "...".
    CHECK(cut_to_width("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9"
                       "\xe3\x83\x88",
                       9) == "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e...");
    // A wide character that would straddle the cut is left out whole.
    CHECK(cut_to_width("ab\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 6) == "ab...");
    // Narrower than the ellipsis: cut bare, never wider than asked.
    CHECK(cut_to_width("abcdef", 3) == "abc");
    CHECK(cut_to_width("abcdef", 1) == "a");
    CHECK(cut_to_width("abcdef", 0).empty());
}
