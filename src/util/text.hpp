#pragma once

#include <string>
#include <string_view>

namespace dlock {

// 'text' in single quotes, with control and non-ASCII bytes escaped (\n, \x1b), so that a
// message quoting user input always stays on one line.
std::string quote(std::string_view text);

} // namespace dlock
