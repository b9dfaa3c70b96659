#pragma once

#include "lock/keys.hpp"
#include "util/error.hpp"

#include <string>
#include <utility>
#include <vector>

namespace dlock::lock {

// Field names and values of one history event, in order (see docs/reference.md, "dlock history").
using HistoryFields = std::vector<std::pair<std::string, std::string>>;

// A store's history of each name (`dlock history`), a capability a Backend may have
// (Backend::history()). The store records acquisitions, releases and refusals itself; this adds
// the events only dlock sees: a lease found lost, a --wait that ran out.
class History {
  public:
    virtual ~History() = default;
    // Appends one event to the history of the name of `keys` (stamped with the store's time).
    // Bounded by the store's command timeout.
    virtual Result<void> append(const Keys& keys, const HistoryFields& fields) = 0;
};

} // namespace dlock::lock
