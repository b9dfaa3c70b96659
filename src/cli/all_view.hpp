#pragma once

#include "app/status.hpp"

#include <string>

namespace dlock::cli {

// `dlock status --all`: every name known under the prefix (in use, or with runs counted), one
// row each: its kind and state, then its last run (outcome, when it ended, where, how long,
// exit status) and its last success. Fits 100 columns for typical names (HOST is cut first).
// `prefix` names what was searched when nothing was found.
std::string all_table(const app::StatusAnswer& answer, const std::string& prefix);

// The same as a JSON array, one object per name (docs/reference.md, "dlock status --all").
std::string all_json(const app::StatusAnswer& answer);

} // namespace dlock::cli
