#pragma once

#include <string>
#include <string_view>

namespace dlock {

// 'text' in single quotes, with control and non-ASCII bytes escaped (\n, \x1b), so that a
// message quoting user input always stays on one line.
std::string quote(std::string_view text);

// `text` with control bytes escaped (\n, \t, \x1b) and everything else as is (UTF-8 stays
// readable): a value from Redis that cannot break a table row or a line.
std::string one_line(std::string_view text);

} // namespace dlock
