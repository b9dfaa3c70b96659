#include "redis/embedded_scripts.hpp"
#include "support/dlock_process.hpp"
#include "support/script_by_name.hpp"
#include "unit/redis/sha1.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

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

TEST_CASE("each lua/*.lua file is embedded byte for byte", "[scripts]") {
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(DLOCK_SOURCE_DIR "/lua")) {
        if (entry.path().extension() != ".lua")
            continue;
        ++files;
        const std::string name = entry.path().stem().string();
        INFO(name);
        REQUIRE(has_script(name));
        CHECK(redis::script(name).body == test::read_file(entry.path().string()));
    }
    CHECK(files == redis::embedded_scripts().size());
}
