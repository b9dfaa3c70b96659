#include "app/target.hpp"

#include <fmt/format.h>

namespace dlock::app {

Result<void> refuse_under_redlock(const Target& target, std::string_view what) {
    if (target.quorum.empty())
        return {};
    return usage_error(fmt::format("{} is not available with several --redis (a Redlock "
                                   "quorum): it offers exclusive locks only",
                                   what));
}

} // namespace dlock::app
