#include "util/random.hpp"

#include <catch2/catch.hpp>
#include <set>

using namespace dlock;

TEST_CASE("random_hex gives two lowercase hex digits per byte", "[random]") {
    CHECK(random_hex(0).empty());
    for (size_t bytes : {1u, 8u, 16u, 33u}) {
        auto text = random_hex(bytes);
        CHECK(text.size() == 2 * bytes);
        CHECK(text.find_first_not_of("0123456789abcdef") == std::string::npos);
    }
}

TEST_CASE("random_hex does not repeat itself", "[random]") {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i)
        seen.insert(random_hex(16));
    CHECK(seen.size() == 1000);
}
