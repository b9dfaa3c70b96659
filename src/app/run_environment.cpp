#include "app/run_environment.hpp"

#include "util/random.hpp"

#include <cstdlib>

namespace dlock::app {
namespace {

// Appends `word` to a space-separated list.
void append_word(std::string& list, std::string_view word) {
    if (!list.empty())
        list.push_back(' ');
    list += word;
}

} // namespace

RunOwners RunOwners::resolve(const std::vector<std::string>& names, bool reenter) {
    RunOwners owners{lock::InheritedHolds::from_environment(), {}, {}};
    std::string fresh; // generated only when needed: re-entry takes no random token
    for (const auto& name : names) {
        if (auto inherited = reenter ? owners.inherited.owner_of(name) : std::nullopt) {
            owners.of_name.push_back(std::move(*inherited));
            continue;
        }
        if (fresh.empty())
            fresh = random_hex(16);
        owners.of_name.push_back(fresh);
    }
    owners.run_owner = fresh.empty() ? owners.of_name.front() : fresh;
    return owners;
}

std::vector<lock::LeaseRequest> lease_requests(const Target& target, const RunOptions& options,
                                               const RunOwners& owners,
                                               const lock::HolderInfo& self) {
    std::vector<lock::LeaseRequest> requests;
    requests.reserve(options.names.size());
    for (size_t i = 0; i < options.names.size(); ++i) {
        lock::LeaseId id{options.names[i], lock::Keys::of(target.prefix, options.names[i]),
                         owners.of_name[i], random_hex(8)};
        if (options.compat) // the other side's key, as given; the records stay under the prefix
            id.keys.lock = options.names[i];
        lock::AcquireRequest request{
            id.owner, id.hold_id, options.ttl, "", lock::kWaiterHeartbeat, self, options.shared};
        requests.push_back({std::move(id), std::move(request)});
    }
    return requests;
}

void export_leases(const RunOptions& options, const RunOwners& owners,
                   const lock::LeaseSet& leases) {
    lock::InheritedHolds held = owners.inherited;
    std::string names, tokens;
    for (size_t i = 0; i < options.names.size(); ++i) {
        const std::string& name = options.names[i];
        held.held = held.with(name, owners.of_name[i]);
        append_word(names, name);
        append_word(tokens, name + "=" + std::to_string(leases.find(name)->fence()));
    }
    const auto first_token = std::to_string(leases.find(options.names.front())->fence());
    // A permit is not re-entered (a nested `sem run` takes another one): not in DLOCK_HELD.
    if (options.permits > 0) {
        setenv("DLOCK_PERMIT", leases.find(options.names.front())->hold_id().c_str(), 1);
    } else {
        setenv("DLOCK_HELD", held.held.c_str(), 1);
        unsetenv("DLOCK_PERMIT");
    }
    setenv("DLOCK_NAME", names.c_str(), 1);
    setenv("DLOCK_OWNER", owners.run_owner.c_str(), 1);
    setenv("DLOCK_FENCING_TOKEN", first_token.c_str(), 1);
    setenv("DLOCK_FENCING_TOKENS", tokens.c_str(), 1);
    setenv("DLOCK_TTL_MS", std::to_string(options.ttl.count()).c_str(), 1);
}

} // namespace dlock::app
