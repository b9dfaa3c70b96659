#pragma once

// The e2e tests of a Redlock quorum: several redis-servers, one --redis each.

#include "e2e/e2e_helpers.hpp"

namespace dlock::test::e2e {

using Members = std::vector<std::unique_ptr<RedisServer>>;

// `args` on the quorum of `members`: "--redis URL" for each member, then `args`.
inline std::vector<std::string> on_members(const Members& members, std::vector<std::string> args) {
    std::vector<std::string> out;
    for (const auto& m : members)
        out.insert(out.end(), {"--redis", m->url()});
    out.insert(out.end(), args.begin(), args.end());
    return out;
}

} // namespace dlock::test::e2e
