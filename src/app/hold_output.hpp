#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlock::app {

// What `dlock acquire` prints: the variables a `dlock run` command gets, plus the hold.
using HoldVariables = std::vector<std::pair<std::string, std::string>>;

enum class HoldFormat { sh, json };

// `text` in single quotes for sh, bash and zsh: a ' inside becomes '\'' (nothing else is
// special between single quotes in any of them).
std::string shell_quote(std::string_view text);

// One `export NAME='value'` line per variable, or one JSON object of strings.
std::string format_hold(const HoldVariables& variables, HoldFormat format);

} // namespace dlock::app
