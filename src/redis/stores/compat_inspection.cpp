#include "redis/stores/compat_inspection.hpp"

#include "redis/stores/compat_replies.hpp"
#include "util/log.hpp"

namespace dlock::redis {
namespace {

// The forced release as an event of dlock's history: the forcer, and the first holder broken
// as the other party (its owner value; these formats know no host or pid).
void record_force(ScriptSession& session, lock::CompatFormat format, const lock::Keys& keys,
                  const lock::HolderInfo& forcer, const lock::CompatReading& broken) {
    const std::string pid = std::to_string(forcer.pid);
    const std::string count = std::to_string(broken.holders.size());
    const std::string other = broken.holders.empty() ? "" : broken.holders.front().owner;
    const std::vector<std::string_view> args = {
        "event",   "force",        "mode",          "x",   "compat",      lock::compat_name(format),
        "host",    forcer.host,    "pid",           pid,   "user",        forcer.user,
        "command", forcer.command, "other_command", other, "other_count", count};
    if (auto written = session.run(scripts::compat_record, {keys.history, keys.runs}, args);
        !written)
        log::info("could not write the history of {}: {}", keys.history, written.error().message);
}

} // namespace

Result<lock::CompatReading> read_compat(ScriptSession& session, const std::string& key) {
    TRY_ASSIGN(const auto reply, session.run(scripts::compat_status, {key}, {}));
    return decode_compat_reading(reply, scripts::compat_status);
}

Result<lock::CompatReading> force_release_compat(ScriptSession& session, lock::CompatFormat format,
                                                 const std::string& key, const lock::Keys& keys,
                                                 const lock::HolderInfo& forcer) {
    std::vector<std::string_view> args = {lock::compat_key_type(format)};
    const std::string channel = lock::redisson_channel(key);
    if (format == lock::CompatFormat::redisson)
        args.push_back(channel);
    TRY_ASSIGN(const auto reply, session.run(scripts::compat_force_release, {key}, args));
    TRY_ASSIGN(auto broken, decode_compat_reading(reply, scripts::compat_force_release));
    if (broken.type == lock::compat_key_type(format))
        record_force(session, format, keys, forcer, broken);
    return broken;
}

} // namespace dlock::redis
