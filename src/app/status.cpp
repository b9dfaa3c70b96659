#include "app/status.hpp"

#include "util/exit_codes.hpp"

namespace dlock::app {
namespace {

bool any_in_use(const lock::StatusReading& reading) {
    if (reading.quorum > 0) {
        for (const auto& m : reading.majority)
            if (m.held)
                return true;
        return false;
    }
    for (const auto& member : reading.members)
        if (member.report)
            for (const auto& name : member.report->names)
                if (name.in_use())
                    return true;
    return false;
}

} // namespace

Result<StatusAnswer> status(lock::Store& store, const Target& target,
                            const StatusOptions& options) {
    StatusAnswer answer;
    if (options.names_only) {
        TRY_ASSIGN(answer.names, store.names(target.prefix, lock::NameScope::in_use));
        answer.exit_status = answer.names.empty() ? exit_code::nothing : exit_code::ok;
        return answer;
    }
    if (options.every_known) {
        TRY_ASSIGN(const auto known, store.names(target.prefix, lock::NameScope::known));
        if (known.empty())
            return answer; // nothing known: no reading to make
        TRY_ASSIGN(answer.reading, store.status(target.prefix, known));
        answer.exit_status = exit_code::ok;
        return answer;
    }
    TRY_ASSIGN(answer.reading, store.status(target.prefix, options.names));
    answer.exit_status = any_in_use(answer.reading) ? exit_code::ok : exit_code::nothing;
    return answer;
}

} // namespace dlock::app
