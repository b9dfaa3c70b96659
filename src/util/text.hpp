#pragma once

#include <string>
#include <string_view>

namespace dlock {

// 'text' in single quotes, with control and non-ASCII bytes escaped (\n, \x1b), so that a
// message quoting user input always stays on one line.
std::string quote(std::string_view text);

// "text" as a JSON string: quotes, backslashes and control bytes escaped; other bytes as they
// are (dlock's own strings are ASCII; host, user and command are passed through as UTF-8).
std::string json_string(std::string_view text);

} // namespace dlock
