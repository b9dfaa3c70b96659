#pragma once

namespace dlock {

// Logs go to stderr (stdout belongs to the command), one line each, prefixed "dlock: ".
// verbosity: -1 errors only (-q), 0 warnings (default), 1 info (-v), 2 debug (-vv).
void setup_logging(int verbosity);

} // namespace dlock
