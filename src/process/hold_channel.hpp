#pragma once

#include "util/duration.hpp"
#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

// How `dlock release` reaches the keeper that `dlock acquire` left (app/keeper.hpp): an
// abstract unix socket named after the hold id, so nothing is left in the file system when the
// keeper dies, and both ends check the other's uid (SO_PEERCRED). One request per connection:
// "release[ PID][ status N]\n", or "owner\n" (whom the hold is kept for); the answer: "<exit
// status>\t<one-line message>\n", then the keeper closes it.
namespace dlock::process {

// A hold id: 32 lowercase hex digits (128 random bits), so it cannot be guessed.
std::string new_hold_id();
bool valid_hold_id(std::string_view id);

// The keeper's end: listening on the socket of `hold`, non-blocking, close-on-exec.
Result<int> listen_for_hold(const std::string& hold);

// A request accepted from `listener` and read (within `wait`): its connection (-1 when there was
// none after all), whether it asks for a release, and whether its user may (the keeper's uid, or
// root).
struct HoldRequest {
    int fd = -1;
    bool release = false;
    bool owner_query = false; // "owner": answered "0\t<owner pid> <script pid>"
    bool allowed = false;
    uid_t uid = 0;
    // A release of a hold found in the environment names the script it runs in ("release
    // PID"): a process that merely inherited $DLOCK_HOLD must not release its parent's lock.
    pid_t from_script = 0;
    pid_t pid = 0; // the process that connected (`dlock release`), 0 if unknown
    // How the script ended, as `dlock release --status N` says (counted by the run counters).
    std::optional<int> status;
};
HoldRequest accept_hold_request(int listener, Millis wait);
// Answers `request` (a write of one short line: it does not block) and closes its connection.
void answer_hold_request(HoldRequest& request, int status, std::string_view message);

struct HoldAnswer {
    int status = 0;
    std::string message;
};
// Asks the keeper of `hold` to release. nullopt: no keeper listens there. A keeper of another
// user (neither ours nor root's) is a usage error, unless we are root, who may release any.
// Connecting and the answer are bounded by `wait` together. `from_script`: the script the
// release runs in, when the hold came from the environment; `status`: how the script ended.
Result<std::optional<HoldAnswer>> ask_keeper(const std::string& hold, Millis wait,
                                             pid_t from_script = 0,
                                             std::optional<int> status = std::nullopt);

struct HoldKeeping {
    pid_t owner = 0;  // the process whose exit ends the hold
    pid_t script = 0; // the script that ran dlock acquire (often the owner)
};
// Whom the keeper of `hold` keeps it for. nullopt: no keeper listens there.
Result<std::optional<HoldKeeping>> ask_holder(const std::string& hold, Millis wait);

} // namespace dlock::process
