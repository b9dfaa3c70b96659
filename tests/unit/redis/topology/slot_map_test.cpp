#include "redis/topology/slot_map.hpp"

#include <catch2/catch.hpp>
#include <vector>

using dlock::redis::SlotMap;

TEST_CASE("an empty slot map knows no owner", "[cluster]") {
    SlotMap map;
    CHECK_FALSE(map.owner(0));
    CHECK_FALSE(map.owner(16383));
    CHECK(map.owners().empty());
}

TEST_CASE("slot ranges are assigned inclusively, and reassigned", "[cluster]") {
    SlotMap map;
    map.assign(0, 5460, 2);
    map.assign(5461, 10922, 0);
    map.assign(10923, 16383, 1);
    CHECK(map.owner(0) == 2u);
    CHECK(map.owner(5460) == 2u);
    CHECK(map.owner(5461) == 0u);
    CHECK(map.owner(16383) == 1u);
    // Owners come in slot order, each once.
    CHECK(map.owners() == std::vector<size_t>{2, 0, 1});

    // A MOVED for one slot: that slot alone changes hands.
    map.assign(42, 42, 1);
    CHECK(map.owner(41) == 2u);
    CHECK(map.owner(42) == 1u);
    CHECK(map.owner(43) == 2u);
    CHECK(map.owners() == std::vector<size_t>{2, 1, 0});
}

TEST_CASE("a failed node's slots are forgotten, the others kept", "[cluster]") {
    SlotMap map;
    map.assign(0, 99, 0);
    map.assign(100, 199, 1);
    map.assign(200, 200, 0);
    map.forget(0);
    CHECK_FALSE(map.owner(0));
    CHECK_FALSE(map.owner(200));
    CHECK(map.owner(150) == 1u);
    CHECK(map.owners() == std::vector<size_t>{1});
}

TEST_CASE("a node index beyond an int16 is kept", "[cluster]") {
    SlotMap map;
    map.assign(7, 7, 40000);
    CHECK(map.owner(7) == 40000u);
    CHECK(map.owners() == std::vector<size_t>{40000});
}
