#pragma once

#include "config/option.hpp"
#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::config {

struct Entry {
    std::string key;
    std::string value;
    int line = 0;
};

// A parsed config file: every key one of the options, every value valid, no key twice.
struct File {
    std::string path;
    std::vector<Entry> entries;

    const Entry* find(std::string_view key) const;
};

// Parses the config file format:
//   # a comment line          (only at the start of a line: '#' in a value is part of it)
//   key = value               (spaces around '=' and at both ends are ignored)
// Blank lines are skipped. Errors are usage errors naming "path:line". A `password` key is
// refused unless `private_file` (nobody but the owner and group may read the file).
Result<File> parse_file(Options options, std::string_view text, std::string path,
                        bool private_file);

// Reads and parses `path`; std::nullopt when it does not exist. A file that exists but cannot
// be read is an error: quietly ignoring it could send dlock to the wrong Redis. When it could not
// be opened or read, `*error_number` is set to the errno (0 otherwise; ENOENT when absent).
Result<std::optional<File>> load_file(Options options, const std::string& path,
                                      int* error_number = nullptr);

} // namespace dlock::config
