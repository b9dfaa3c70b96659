#include "lock/ownership.hpp"

#include <catch2/catch.hpp>

using dlock::lock::InheritedHolds;

namespace {
const std::string kA(32, 'a');
const std::string kB(32, 'b');
} // namespace

TEST_CASE("a name held by an enclosing dlock is re-entered with its token", "[ownership]") {
    InheritedHolds held{kA + ":outer " + kB + ":inner", "inner", kB};
    CHECK(held.owner_of("outer") == kA);
    CHECK(held.owner_of("inner") == kB);
}

TEST_CASE("a name no enclosing dlock holds gets no inherited token", "[ownership]") {
    InheritedHolds held{kA + ":outer", "outer", kA};
    CHECK_FALSE(held.owner_of("other"));
    CHECK_FALSE(InheritedHolds{}.owner_of("outer"));
}

TEST_CASE("DLOCK_OWNER with DLOCK_NAME alone is enough to re-enter", "[ownership]") {
    InheritedHolds held{"", "job", kA};
    CHECK(held.owner_of("job") == kA);
    CHECK_FALSE(held.owner_of("job2"));
}

TEST_CASE("inside a semaphore permit, DLOCK_NAME and DLOCK_OWNER re-enter nothing", "[ownership]") {
    // `dlock sem run pool` exports DLOCK_NAME=pool, DLOCK_OWNER and DLOCK_PERMIT: a `dlock run
    // pool` below must take the lock afresh, or two siblings would both "re-enter" it.
    InheritedHolds in_permit{"", "pool", kA, "0123456789abcdef"};
    CHECK_FALSE(in_permit.owner_of("pool"));
    // Locks held around the permit are still re-entered through DLOCK_HELD.
    InheritedHolds in_lock_and_permit{kB + ":outer", "pool", kA, "0123456789abcdef"};
    CHECK(in_lock_and_permit.owner_of("outer") == kB);
}

TEST_CASE("malformed inherited tokens are ignored", "[ownership]") {
    CHECK_FALSE(InheritedHolds{"nothex:job", "", ""}.owner_of("job"));
    CHECK_FALSE(InheritedHolds{"", "job", "short"}.owner_of("job"));
    CHECK_FALSE(InheritedHolds{"", "job", std::string(32, 'G')}.owner_of("job"));
}

TEST_CASE("DLOCK_HELD accumulates enclosing holds without duplicates", "[ownership]") {
    InheritedHolds none{};
    CHECK(none.with("a", kA) == kA + ":a");
    InheritedHolds one{kA + ":a", "a", kA};
    CHECK(one.with("b", kB) == kA + ":a " + kB + ":b");
    CHECK(one.with("a", kA) == kA + ":a");
}

TEST_CASE("names containing colons are matched whole", "[ownership]") {
    InheritedHolds held{kA + ":db:backup", "", ""};
    CHECK(held.owner_of("db:backup") == kA);
    CHECK_FALSE(held.owner_of("backup"));
    CHECK_FALSE(held.owner_of("db"));
}
