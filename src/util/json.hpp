#pragma once

#include <string>
#include <string_view>

namespace dlock {

// `text` as a JSON string literal, quotes included. Control characters are escaped; bytes that
// are not valid UTF-8 become U+FFFD, so the output is always valid JSON.
std::string json_string(std::string_view text);

} // namespace dlock
