#include "redis/scripts/embedded_scripts.hpp"
#include "support/dlock_process.hpp"
#include "support/script_by_name.hpp"
#include "unit/redis/scripts/sha1.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace dlock;
using dlock::test::sha1_hex;

namespace {

bool has_script(std::string_view name) {
    auto all = redis::embedded_scripts();
    return std::any_of(all.begin(), all.end(), [&](const auto& s) { return s.name == name; });
}

} // namespace

TEST_CASE("the test SHA-1 matches the FIPS 180-1 test vectors", "[scripts]") {
    CHECK(sha1_hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    CHECK(sha1_hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
    CHECK(sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    CHECK(sha1_hex(std::string(1'000'000, 'a')) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST_CASE("every embedded script's SHA-1 is that of its body", "[scripts]") {
    REQUIRE_FALSE(redis::embedded_scripts().empty());
    for (const auto& s : redis::embedded_scripts()) {
        INFO(s.name);
        CHECK_FALSE(s.body.empty());
        CHECK(s.sha1.size() == 40);
        CHECK(s.sha1.find_first_not_of("0123456789abcdef") == std::string_view::npos);
        CHECK(s.sha1 == sha1_hex(s.body));
    }
}

TEST_CASE("each script's handle is the embedded script of that name", "[scripts]") {
    const std::pair<std::string_view, const redis::EmbeddedScript*> handles[] = {
        {"acquire", &redis::scripts::acquire},
        {"renew", &redis::scripts::renew},
        {"release", &redis::scripts::release},
        {"leave", &redis::scripts::leave},
        {"force_release", &redis::scripts::force_release},
        {"fence_commit", &redis::scripts::fence_commit},
        {"forget", &redis::scripts::forget},
        {"pause", &redis::scripts::pause},
        {"resume", &redis::scripts::resume},
        {"sem_acquire", &redis::scripts::sem_acquire},
        {"sem_renew", &redis::scripts::sem_renew},
        {"sem_release", &redis::scripts::sem_release},
        {"sem_force_release", &redis::scripts::sem_force_release},
        {"latch_create", &redis::scripts::latch_create},
        {"latch_count_down", &redis::scripts::latch_count_down},
        {"latch_wait", &redis::scripts::latch_wait},
        {"latch_leave", &redis::scripts::latch_leave},
        {"latch_status", &redis::scripts::latch_status},
        {"status", &redis::scripts::status},
        {"sem_status", &redis::scripts::sem_status},
        {"history_add", &redis::scripts::history_add},
        {"slot", &redis::scripts::slot},
        {"compat_setnx_acquire", &redis::scripts::compat_setnx_acquire},
        {"compat_setnx_renew", &redis::scripts::compat_setnx_renew},
        {"compat_setnx_release", &redis::scripts::compat_setnx_release},
        {"compat_redisson_acquire", &redis::scripts::compat_redisson_acquire},
        {"compat_redisson_renew", &redis::scripts::compat_redisson_renew},
        {"compat_redisson_release", &redis::scripts::compat_redisson_release},
        {"compat_record", &redis::scripts::compat_record},
        {"compat_status", &redis::scripts::compat_status},
        {"compat_force_release", &redis::scripts::compat_force_release},
    };
    for (const auto& [name, handle] : handles) {
        INFO(name);
        REQUIRE(has_script(name));
        CHECK(handle == &redis::script(name));
        CHECK(handle->name == name);
        CHECK_FALSE(handle->body.empty());
    }
    // Every script has a handle (one without does not compile: cmake/GenerateLuaSource.cmake).
    CHECK(std::size(handles) == redis::embedded_scripts().size());
}

TEST_CASE("script names are unique", "[scripts]") {
    std::set<std::string_view> names;
    for (const auto& s : redis::embedded_scripts())
        CHECK(names.insert(s.name).second);
}

namespace {

// The rule of cmake/ComposeLua.cmake, restated: each line "--@include <piece>" is replaced by
// lua/<piece>, itself composed, the first time the script includes it (later: by nothing); a
// piece ends with a newline and is followed by a blank line.
std::string composed(const std::string& rel, std::set<std::string>& seen) {
    const std::string text = test::read_file(DLOCK_SOURCE_DIR "/lua/" + rel);
    const std::string directive = "--@include ";
    std::string out;
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        if (line.rfind(directive, 0) != 0) {
            out += line + (end < text.size() ? "\n" : "");
            continue;
        }
        const std::string piece_rel = line.substr(directive.size());
        if (!seen.insert(piece_rel).second)
            continue;
        std::string piece = composed(piece_rel, seen);
        if (!piece.empty() && piece.back() != '\n')
            piece += '\n';
        if (!piece.empty() && (at >= text.size() || text[at] != '\n'))
            piece += '\n';
        out += piece;
    }
    return out;
}

std::string composed(const std::string& script) {
    std::set<std::string> seen{script};
    return composed(script, seen);
}

std::vector<std::filesystem::path> lua_files(const std::string& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".lua")
            files.push_back(entry.path());
    return files;
}

} // namespace

TEST_CASE("each lua/*.lua script is embedded composed from its lua/lib pieces", "[scripts]") {
    const auto files = lua_files(DLOCK_SOURCE_DIR "/lua");
    for (const auto& path : files) {
        const std::string name = path.stem().string();
        INFO(name);
        REQUIRE(has_script(name));
        const auto body = redis::script(name).body;
        CHECK(body == composed(path.filename().string()));
        CHECK(body.find("--@include") == std::string_view::npos);
        if (test::read_file(path.string()).find("--@include") == std::string::npos)
            CHECK(body == test::read_file(path.string())); // nothing to compose: byte for byte
    }
    CHECK(files.size() == redis::embedded_scripts().size()); // pieces are not scripts
}

TEST_CASE("the composed scripts in the build tree are the embedded bodies", "[scripts]") {
    // build/lua/<name>.lua is what `redis-cli --eval` runs (the scripts' headers and
    // docs/internals.md).
    const auto files = lua_files(DLOCK_LUA_BUILD_DIR);
    CHECK(files.size() == redis::embedded_scripts().size());
    for (const auto& s : redis::embedded_scripts()) {
        INFO(s.name);
        const std::string path = DLOCK_LUA_BUILD_DIR "/" + std::string(s.name) + ".lua";
        REQUIRE(std::filesystem::exists(path));
        CHECK(test::read_file(path) == s.body);
    }
}

TEST_CASE("the shared pieces are in every script that includes them, once", "[scripts]") {
    const std::string wake_waiters = "local function wake_lock_waiters(";
    for (auto name : {"leave", "release"}) {
        INFO(name);
        const auto body = redis::script(name).body;
        const auto first = body.find(wake_waiters);
        REQUIRE(first != std::string_view::npos);
        CHECK(body.find(wake_waiters, first + 1) == std::string_view::npos);
    }
    // leave.lua includes lib/waiters.lua, and again through lib/lock_wake.lua.
    const auto body = redis::script("leave").body;
    const auto first = body.find("local function drop_waiter(");
    REQUIRE(first != std::string_view::npos);
    CHECK(body.find("local function drop_waiter(", first + 1) == std::string_view::npos);
}
