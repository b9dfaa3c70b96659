#include "lock/compat.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace dlock;

TEST_CASE("compat formats are spelled redisson and setnx", "[compat]") {
    CHECK(lock::compat_of("redisson") == lock::CompatFormat::redisson);
    CHECK(lock::compat_of("setnx") == lock::CompatFormat::setnx);
    CHECK_FALSE(lock::compat_of("Redisson"));
    CHECK_FALSE(lock::compat_of(""));
}

TEST_CASE("a compat name is the other side's key: braces and colons kept, control bytes refused",
          "[compat]") {
    CHECK(*lock::validate_compat_name("orders:{eu}.sync") == "orders:{eu}.sync");
    CHECK(*lock::validate_compat_name("a b") == "a b");
    for (const std::string& bad : {std::string(), std::string("a\nb"), std::string("x\x7f"),
                                   std::string(513, 'k'), std::string("a\0b", 3)}) {
        auto r = lock::validate_compat_name(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == Fault::bad_input);
    }
}

TEST_CASE("the redisson owner is a uuid and a thread id, the setnx owner the token", "[compat]") {
    const std::string token = "0123456789abcdef0123456789abcdef";
    CHECK(lock::compat_owner(lock::CompatFormat::redisson, token) ==
          "01234567-89ab-cdef-0123-456789abcdef:1");
    CHECK(lock::compat_owner(lock::CompatFormat::setnx, token) == token);
}

TEST_CASE("Redisson's channel and latch wrap the name in braces unless it has its own",
          "[compat]") {
    CHECK(lock::redisson_channel("inventory") == "redisson_lock__channel:{inventory}");
    CHECK(lock::redisson_channel("a{b}c") == "redisson_lock__channel:a{b}c");
    CHECK(lock::redisson_unlock_latch("inventory", "r1") == "redisson_unlock_latch:{inventory}:r1");
}
