#include "app/compat_inspect.hpp"

#include "lock/self_info.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

namespace dlock::app {
namespace {

std::string lease_left(int64_t left_ms) {
    if (left_ms < 0)
        return "no expiry";
    return format_duration(Millis(left_ms)) + " left";
}

// "owner field 'f3b1...:1', reentrant count 2" or "owner value '8c1e...'": quoted, so that
// whatever the other side wrote stays on one line.
std::string holders_text(lock::CompatFormat format, const lock::CompatReading& reading) {
    std::string out;
    for (const auto& h : reading.holders) {
        if (!out.empty())
            out += "; ";
        if (format == lock::CompatFormat::redisson)
            out += fmt::format("owner field {}, reentrant count {}", quote(h.owner), h.count);
        else
            out += fmt::format("owner value {}", quote(h.owner));
    }
    return out.empty() ? "no owner" : out;
}

// One line about `reading` of `name`, after `verb` ("held" or "released").
std::string reading_text(lock::CompatFormat format, const std::string& name,
                         const lock::CompatReading& reading, std::string_view verb) {
    const auto format_name = lock::compat_name(format);
    if (reading.type == "none")
        return fmt::format("{}: free (no {} lock)", one_line(name), format_name);
    if (reading.type != lock::compat_key_type(format))
        return fmt::format("{}: a {} key, not a {} lock ({})", one_line(name),
                           one_line(reading.type), format_name, lease_left(reading.left_ms));
    return fmt::format("{}: {} ({}), {}, lease {}", one_line(name), verb, format_name,
                       holders_text(format, reading), lease_left(reading.left_ms));
}

} // namespace

Result<int> compat_status(lock::Store& store, const Target&, lock::CompatFormat format,
                          const std::string& name) {
    const lock::Capabilities offered = store.capabilities();
    TRY(lock::require(offered.compat, offered, "--compat"));
    TRY_ASSIGN(const auto reading, store.compat_status(format, name));
    out::print("{}\n", reading_text(format, name, reading, "held"));
    return reading.type == "none" ? exit_code::nothing : exit_code::ok;
}

Result<int> compat_force_release(lock::Store& store, const Target& target,
                                 lock::CompatFormat format, const std::string& name) {
    const lock::Capabilities offered = store.capabilities();
    TRY(lock::require(offered.compat, offered, "--compat"));
    const auto forcer = self_info(
        fmt::format("dlock release --force --compat {} {}", lock::compat_name(format), name));
    TRY_ASSIGN(const auto broken, store.compat_force_release(
                                      format, name, lock::Keys::of(target.prefix, name), forcer));
    const bool released = broken.type == lock::compat_key_type(format);
    out::print("{}{}\n", reading_text(format, name, broken, "released"),
               released ? "" : "; nothing to release");
    return released ? exit_code::ok : exit_code::nothing;
}

} // namespace dlock::app
