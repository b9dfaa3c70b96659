#include "util/did_you_mean.hpp"

#include <algorithm>

namespace dlock {
namespace {

// The optimal string alignment distance between `a` and `b` (Damerau-Levenshtein without
// editing a substring twice): enough for typos, and three rows of memory.
size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        previous[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        before.swap(previous);
        previous.swap(current);
    }
    return previous[b.size()];
}

} // namespace

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
    const std::string* best = nullptr;
    size_t best_distance = 0;
    bool tie = false;
    for (const auto& candidate : candidates) {
        if (candidate == word)
            continue;
        const size_t distance = edit_distance(word, candidate);
        if (distance > (candidate.size() <= 4 ? 1u : 2u) || distance >= candidate.size())
            continue;
        if (best != nullptr && distance == best_distance && candidate != *best)
            tie = true;
        if (best == nullptr || distance < best_distance) {
            best = &candidate;
            best_distance = distance;
            tie = false;
        }
    }
    if (best == nullptr || tie)
        return std::nullopt;
    return *best;
}

} // namespace dlock
