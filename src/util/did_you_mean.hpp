#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock {

// The candidate `word` is most likely a typo of: the one at the smallest edit distance
// (insertions, deletions, substitutions and swaps of two neighbours, each 1), when that distance
// is small for its length (1 up to 4 letters, 2 beyond; less than the whole) and no other candidate
// is as close. nullopt otherwise: a far or ambiguous guess would mislead more than it helps.
// Compared as given: strip shared prefixes such as "--" first.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);

} // namespace dlock
