#include "cli/option_table.hpp"
#include "config/config_file.hpp"

#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace dlock;

namespace {

// The real rows, with their checks.
const config::Options kOptions = cli::global_option_table();

Result<config::File> parse_file(std::string_view text, std::string path, bool private_file) {
    return config::parse_file(kOptions, text, std::move(path), private_file);
}

// The error message of parsing `text` as "f.conf" (a private file), "" when it parses.
std::string error_of(const std::string& text, bool private_file = true) {
    auto file = parse_file(text, "f.conf", private_file);
    if (file)
        return "";
    CHECK(file.error().fault == dlock::Fault::bad_input);
    return file.error().message;
}

} // namespace

const std::string kRunOptionHint =
    " (a config file holds the global settings that dlock config lists; options of run such as "
    "--ttl or -w go on its command line)";

TEST_CASE("config files: key = value lines, comments and blank lines", "[config]") {
    auto file = parse_file("# dlock settings\n"
                           "\n"
                           "redis = redis://10.0.0.5:6380/2\n"
                           "  prefix=myapp  \n"
                           "\t# indented comment\n"
                           "redis-timeout\t=\t500ms\r\n"
                           "password = pa#ss = word\n",
                           "f.conf", true)
                    .value();
    REQUIRE(file.entries.size() == 4);
    CHECK(file.entries[0].key == "redis");
    CHECK(file.entries[0].value == "redis://10.0.0.5:6380/2");
    CHECK(file.entries[0].line == 3);
    CHECK(file.entries[1].key == "prefix");
    CHECK(file.entries[1].value == "myapp");
    CHECK(file.entries[2].value == "500ms"); // CRLF files work
    CHECK(file.entries[2].line == 6);
    // '#' and '=' inside a value are part of it: only a line starting with '#' is a comment.
    CHECK(file.find("password")->value == "pa#ss = word");
    CHECK(file.find("syslog") == nullptr);
}

TEST_CASE("config files: an empty file and a file without a final newline", "[config]") {
    CHECK(parse_file("", "f.conf", false).value().entries.empty());
    CHECK(parse_file("prefix = x", "f.conf", false).value().find("prefix")->value == "x");
}

TEST_CASE("config file errors name the file and the line", "[config]") {
    CHECK(error_of("\n# c\nfoo = 1\n") == "f.conf:3: unknown key 'foo'" + kRunOptionHint);
    CHECK(error_of("redis\n") == "f.conf:1: expected key = value: the line has no '='");
    CHECK(error_of("password: S3cret\n").find("S3cret") == std::string::npos);
    CHECK(error_of("= x\n") == "f.conf:1: unknown key ''");
    CHECK(error_of("prefix =\n") == "f.conf:1: prefix: empty value");
    CHECK(error_of("prefix = a\nprefix = b\n") == "f.conf:2: prefix is already set on line 1");
    CHECK(error_of("redis-timeout = 0\n") == "f.conf:1: redis-timeout: must be greater than zero");
    CHECK(error_of("connect-timeout = soon\n").starts_with("f.conf:1: connect-timeout: invalid"));
    CHECK(error_of("syslog = maybe\n") == "f.conf:1: syslog: 'maybe': expected true or false");
    CHECK(error_of("log-format = xml\n") == "f.conf:1: log-format: 'xml': expected text or json");
    CHECK(error_of("log-level = loud\n").starts_with("f.conf:1: log-level: 'loud'"));
    CHECK(error_of("prefix = a b\n").starts_with("f.conf:1: prefix: invalid prefix"));
    CHECK(error_of("prefix = a\x01"
                   "b\n") == "f.conf:1: prefix: control character in the value");
    // Keys are case-sensitive, and the flag spelling is not a key (each close to the key).
    CHECK(error_of("Redis = redis://h\n") == "f.conf:1: unknown key 'Redis' (did you mean redis?)");
    CHECK(error_of("--redis = redis://h\n") ==
          "f.conf:1: unknown key '--redis' (did you mean redis?)");
}

TEST_CASE("config files: a former key is refused, a misspelt one gets a suggestion", "[config]") {
    CHECK(error_of("timeout = 5s\n") ==
          "f.conf:1: timeout was renamed redis-timeout (the Redis command timeout; to wait for "
          "the lock: dlock run -w DURATION, or run --timeout DURATION)");
    CHECK(error_of("prefx = p\n") == "f.conf:1: unknown key 'prefx' (did you mean prefix?)");
    CHECK(error_of("log_level = info\n") ==
          "f.conf:1: unknown key 'log_level' (did you mean log-level?)");
    CHECK(error_of("redis-timout = 5s\n") ==
          "f.conf:1: unknown key 'redis-timout' (did you mean redis-timeout?)");
    CHECK(error_of("redis-url = redis://h\n") ==
          "f.conf:1: unknown key 'redis-url'" + kRunOptionHint);
}

TEST_CASE("config files: a comment after a value is refused, except in a password", "[config]") {
    CHECK(error_of("redis = redis://db:6379  # shared\n") ==
          "f.conf:1: redis: '#' after the value: a comment goes on a line of its own");
    CHECK(error_of("password-file = /etc/pw\t# root only\n") ==
          "f.conf:1: password-file: '#' after the value: a comment goes on a line of its own");
    CHECK(error_of("password-file = /etc/pw#1\n") == "");
    CHECK(error_of("password = pa #ss\n") == "");
}

TEST_CASE("a bad Redis URL in a config file does not show its password", "[config]") {
    auto message = error_of("redis = http://user:pa55-secret@host\n");
    CHECK(message.starts_with("f.conf:1: redis: invalid Redis URL"));
    CHECK(message.find("pa55-secret") == std::string::npos);
}

TEST_CASE("a password key needs a file other users cannot read", "[config]") {
    CHECK(error_of("password = s3cret\n", false) ==
          "f.conf:1: password in a file that other users can read: chmod o-rwx the file, or "
          "use password-file");
    CHECK(error_of("password = s3cret\n", true).empty());
    CHECK(error_of("password-file = /etc/dlock/pw\n", false).empty());
}

TEST_CASE("load_file: absent files, permissions, directories", "[config]") {
    char dir_template[] = "/tmp/dlock-config-test-XXXXXX";
    REQUIRE(mkdtemp(dir_template) != nullptr);
    const std::string dir = dir_template, path = dir + "/config";

    CHECK_FALSE(config::load_file(kOptions, dir + "/absent").value().has_value());
    CHECK(config::load_file(kOptions, "/dev/null").value()->entries.empty());
    auto directory = config::load_file(kOptions, dir);
    REQUIRE_FALSE(directory);
    CHECK(directory.error().message == "cannot read config file " + dir + ": Is a directory");

    std::ofstream(path) << "password = s3cret\nprefix = p\n";
    chmod(path.c_str(), 0640);
    auto file = config::load_file(kOptions, path).value();
    REQUIRE(file.has_value());
    CHECK(file->path == path);
    CHECK(file->find("prefix")->value == "p");

    chmod(path.c_str(), 0644);
    auto world_readable = config::load_file(kOptions, path);
    REQUIRE_FALSE(world_readable);
    CHECK(world_readable.error().message.starts_with(path + ":1: password in a file"));

    std::remove(path.c_str());
    rmdir(dir.c_str());
}

TEST_CASE("the example config file parses, and so does each of its settings", "[config]") {
    const std::string path = std::string(DLOCK_SOURCE_DIR) + "/packaging/dlock.conf.example";
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(parse_file(text.str(), path, false).value().entries.empty()); // all commented out

    // Every "#key = value" line, uncommented, is a valid setting.
    int settings = 0;
    std::stringstream lines(text.str());
    for (std::string line; std::getline(lines, line);) {
        if (line.size() < 2 || line[0] != '#' || !std::islower(static_cast<unsigned char>(line[1])))
            continue;
        INFO(line);
        CHECK(parse_file(line.substr(1), path, true));
        ++settings;
    }
    CHECK(settings == 21);
}
