#include "config/config_file.hpp"

#include "util/did_you_mean.hpp"
#include "util/small_file.hpp"
#include "util/text.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sys/stat.h>

namespace dlock::config {
namespace {

constexpr size_t kMaxFileSize = 64 * 1024;

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool has_control_byte(std::string_view s) {
    for (unsigned char c : s)
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return true;
    return false;
}

// Why `key` is not one of `options`: renamed, or a likely typo of one, or just unknown.
std::string unknown_key(Options options, const std::string& key) {
    if (auto message = renamed(options, &FormerNames::key, key))
        return *message;
    std::vector<std::string> names;
    for (const auto& option : options)
        names.emplace_back(option.name);
    if (auto near = closest_match(key, names))
        return fmt::format("unknown key {} (did you mean {}?)", quote(key), *near);
    if (key.empty())
        return "unknown key ''";
    // Not near a setting: most often a run option (ttl, wait), which only the command line takes.
    return fmt::format("unknown key {} (a config file holds the global settings that dlock "
                       "config lists; options of run such as --ttl or -w go on its command line)",
                       quote(key));
}

// A '#' after a space or tab: what a comment after the value looks like.
bool comment_after_value(std::string_view value) {
    for (size_t at = value.find('#'); at != std::string_view::npos; at = value.find('#', at + 1))
        if (at > 0 && (value[at - 1] == ' ' || value[at - 1] == '\t'))
            return true;
    return false;
}

// Parses one non-blank, non-comment line into an entry, or says what is wrong with it.
Result<Entry> parse_line(Options options, std::string_view line, bool private_file) {
    const auto eq = line.find('=');
    if (eq == std::string_view::npos)
        // Not shown: the line may be a password (a password file given as the config file).
        return usage_error("expected key = value: the line has no '='");
    Entry entry;
    entry.key = std::string(trim(line.substr(0, eq)));
    entry.value = std::string(trim(line.substr(eq + 1)));
    const Option* spec = find(options, entry.key);
    if (!spec)
        return usage_error(unknown_key(options, entry.key));
    if (entry.value.empty())
        return usage_error(fmt::format("{}: empty value", entry.key));
    if (has_control_byte(entry.value))
        return usage_error(fmt::format("{}: control character in the value", entry.key));
    // "redis = redis://db:6379  # shared" would otherwise fail later, as a strange URL or a
    // missing file; a password may hold " #" and is left alone.
    if (!spec->secret && comment_after_value(entry.value))
        return usage_error(
            fmt::format("{}: '#' after the value: a comment goes on a line of its own", entry.key));
    if (spec->secret && !private_file)
        return usage_error(fmt::format(
            "{0} in a file that other users can read: chmod o-rwx the file, or use {0}-file",
            entry.key));
    if (auto ok = spec->check(entry.value); !ok)
        return usage_error(fmt::format("{}: {}", entry.key, ok.error().message));
    return entry;
}

} // namespace

const Entry* File::find(std::string_view key) const {
    for (const auto& entry : entries)
        if (entry.key == key)
            return &entry;
    return nullptr;
}

Result<File> parse_file(Options options, std::string_view text, std::string path,
                        bool private_file) {
    File file{std::move(path), {}};
    int number = 0;
    while (!text.empty()) {
        ++number;
        const auto end = text.find('\n');
        const auto line = trim(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (line.empty() || line.front() == '#')
            continue;
        auto entry = parse_line(options, line, private_file);
        if (!entry)
            return usage_error(fmt::format("{}:{}: {}", file.path, number, entry.error().message));
        if (const Entry* first = file.find(entry->key))
            return usage_error(fmt::format("{}:{}: {} is already set on line {}", file.path, number,
                                           entry->key, first->line));
        entry->line = number;
        file.entries.push_back(std::move(*entry));
    }
    return file;
}

Result<std::optional<File>> load_file(Options options, const std::string& path, int* error_number) {
    int ignored = 0;
    int& error = error_number ? *error_number : ignored;
    // /dev/null disables a file; a FIFO, a terminal or any other device is refused unread.
    const SmallFile file =
        read_small_file(path, kMaxFileSize, FileKinds{/*dev_null=*/true, /*pipes=*/false});
    error = file.error;
    if (file.error == ENOENT)
        return std::nullopt;
    if (file.error != 0)
        return usage_error(
            fmt::format("cannot read config file {}: {}", path, file_error_text(file.error)));
    return parse_file(options, file.text, path, (file.status.st_mode & S_IRWXO) == 0);
}

} // namespace dlock::config
