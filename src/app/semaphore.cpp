#include "app/semaphore.hpp"

#include "app/status_view.hpp"
#include "redis/stores/status_reader.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"

#include <fmt/format.h>

namespace dlock::app {

Result<int> semaphore_status(const Target& target, const SemaphoreStatusOptions& options) {
    TRY(refuse_under_redlock(target, "dlock sem status"));
    redis::ScriptSession session(target.redis);
    TRY(session.connect());
    auto state = redis::read_permits(session, target.prefix, options.name);
    TRY(state);
    out::print("{}", options.json ? permits_json(*state) + "\n" : permits_table(*state));
    return state->permits.empty() ? exit_code::nothing : exit_code::ok;
}

} // namespace dlock::app
