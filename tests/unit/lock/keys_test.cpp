#include "lock/keys.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <vector>

using namespace dlock;
using dlock::lock::Keys;

TEST_CASE("lock names of the allowed alphabet are accepted as they are", "[keys]") {
    for (const std::string& name :
         std::vector<std::string>{"a", "job", "backup/nightly@db-1", "A.b_c:d/e@f+g=h-i",
                                  "0123456789", std::string(200, 'x')}) {
        INFO(name);
        CHECK(lock::validate_name(name).value() == name);
    }
}

TEST_CASE("empty, too long or out-of-alphabet lock names are usage errors", "[keys]") {
    for (const std::string& bad : std::vector<std::string>{
             "", std::string(201, 'x'), "a b", "{job}", "a}b", "a{b", "job*", "a\nb", "tab\t",
             "caf\xc3\xa9", "a,b", "a;b", "a\\b", "$HOME", std::string("nul\0byte", 8)}) {
        INFO(bad);
        auto r = lock::validate_name(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.find("lock name") != std::string::npos);
    }
}

TEST_CASE("a too long name is shown cut short in the error", "[keys]") {
    const std::string name = std::string(20, 'a') + std::string(300, 'b');
    auto r = lock::validate_name(name);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find(std::string(20, 'a') + "...") != std::string::npos);
    CHECK(r.error().message.find("bbb") == std::string::npos);
    CHECK(r.error().message.find("200") != std::string::npos);
}

TEST_CASE("prefixes use the name alphabet and are at most 64 bytes", "[keys]") {
    CHECK(lock::validate_prefix("dlock").value() == "dlock");
    CHECK(lock::validate_prefix("team-a:locks").value() == "team-a:locks");
    CHECK(lock::validate_prefix(std::string(64, 'p')).value() == std::string(64, 'p'));
    for (const std::string& bad :
         std::vector<std::string>{"", std::string(65, 'p'), "a b", "{x}"}) {
        INFO(bad);
        auto r = lock::validate_prefix(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().fault == dlock::Fault::bad_input);
        CHECK(r.error().message.find("prefix") != std::string::npos);
    }
}

TEST_CASE("every key of a lock is prefix:{name}:part", "[keys]") {
    const auto keys = Keys::of("dlock", "job");
    CHECK(keys.lock == "dlock:{job}:lock");
    CHECK(keys.fence == "dlock:{job}:fence");
    CHECK(keys.queue == "dlock:{job}:queue");
    CHECK(keys.alive == "dlock:{job}:alive");
    CHECK(keys.wake == "dlock:{job}:wake:");
    CHECK(keys.readers == "dlock:{job}:readers");
    CHECK(keys.rinfo == "dlock:{job}:rinfo");
    CHECK(keys.xqueue == "dlock:{job}:xqueue");
    CHECK(keys.history == "dlock:{job}:history");
}

TEST_CASE("a semaphore has its own keys next to the lock of the same name", "[keys][semaphore]") {
    const auto keys = Keys::of("dlock", "pool");
    CHECK(keys.sem == "dlock:{pool}:sem");
    CHECK(keys.permits == "dlock:{pool}:permits");
    CHECK(keys.squeue == "dlock:{pool}:squeue");
    CHECK(keys.salive == "dlock:{pool}:salive");
    CHECK(keys.swake == "dlock:{pool}:swake:");
    const std::set<std::string> lock_keys{keys.lock,    keys.queue, keys.alive, keys.wake,
                                          keys.readers, keys.rinfo, keys.xqueue};
    for (const auto* key : {&keys.sem, &keys.permits, &keys.squeue, &keys.salive, &keys.swake})
        CHECK(lock_keys.count(*key) == 0);
}

TEST_CASE("all keys of a lock share one Cluster hash tag and are distinct", "[keys]") {
    const auto keys = Keys::of("team:x", "backup/db@host");
    const std::vector<const std::string*> all{
        &keys.lock,    &keys.fence,  &keys.queue,  &keys.alive,   &keys.wake,
        &keys.readers, &keys.rinfo,  &keys.xqueue, &keys.history, &keys.sem,
        &keys.permits, &keys.squeue, &keys.salive, &keys.swake};
    std::set<std::string> distinct;
    for (const auto* key : all) {
        INFO(*key);
        CHECK(key->starts_with("team:x:{backup/db@host}:"));
        CHECK(key->find('{') == key->rfind('{'));
        distinct.insert(*key);
    }
    CHECK(distinct.size() == all.size());
}

TEST_CASE("different names or prefixes never share a key", "[keys]") {
    const auto a = Keys::of("dlock", "job");
    const auto b = Keys::of("dlock", "job2");
    const auto c = Keys::of("other", "job");
    CHECK(a.lock != b.lock);
    CHECK(a.lock != c.lock);
    CHECK_FALSE(b.wake.starts_with(a.wake));
}

TEST_CASE("every key of a latch is prefix:{name}:latch...", "[keys][latch]") {
    const auto keys = lock::LatchKeys::of("dlock", "deploy");
    CHECK(keys.latch == "dlock:{deploy}:latch");
    CHECK(keys.ids == "dlock:{deploy}:latch-ids");
    CHECK(keys.waiters == "dlock:{deploy}:latch-waiters");
    CHECK(keys.wake == "dlock:{deploy}:latch-wake:");
    const auto lock_keys = Keys::of("dlock", "deploy");
    for (const auto* key : {&keys.latch, &keys.ids, &keys.waiters, &keys.wake}) {
        INFO(*key);
        CHECK(key->starts_with("dlock:{deploy}:"));
        CHECK_FALSE(key->starts_with(lock_keys.lock));
    }
}

TEST_CASE("the names pattern matches the keys of every name under the prefix", "[keys]") {
    CHECK(lock::names_pattern("dlock") == "dlock:{*}:*");
    CHECK(lock::names_pattern("team-a:locks") == "team-a:locks:{*}:*");
}

TEST_CASE("a name is in use by the keys that exist only while it is", "[keys]") {
    const auto keys = Keys::of("dlock", "a:b/c");
    const auto latch = lock::LatchKeys::of("dlock", "a:b/c");
    for (const auto* key :
         {&keys.lock, &keys.readers, &keys.queue, &keys.sem, &keys.permits, &latch.latch}) {
        INFO(*key);
        CHECK(lock::name_in_use("dlock", *key) == std::optional<std::string_view>("a:b/c"));
    }
    // Left by past holders, or parts of something that has one of the keys above.
    for (const auto* key : {&keys.fence, &keys.history, &keys.rinfo, &keys.alive, &keys.xqueue,
                            &keys.squeue, &keys.salive, &latch.ids, &latch.waiters}) {
        INFO(*key);
        CHECK_FALSE(lock::name_in_use("dlock", *key));
    }
}

TEST_CASE("a name with run counters is known, though not in use", "[keys]") {
    const auto keys = Keys::of("dlock", "nightly");
    CHECK_FALSE(lock::name_in_use("dlock", keys.runs));
    CHECK(lock::name_of("dlock", keys.runs, lock::NameScope::known) ==
          std::optional<std::string_view>("nightly"));
    CHECK(lock::name_of("dlock", keys.lock, lock::NameScope::known) ==
          std::optional<std::string_view>("nightly"));
    CHECK_FALSE(lock::name_of("dlock", keys.history, lock::NameScope::known));
    CHECK_FALSE(lock::name_of("dlock", "dlock:{a b}:runs", lock::NameScope::known));
}

TEST_CASE("keys of other prefixes or of no name are not names in use", "[keys]") {
    for (const std::string key :
         {"other:{job}:lock", "dlock:stray", "dlock:x:{sub}:lock", "dlockx:{job}:lock",
          "dlock:{}:lock", "dlock:{a b}:lock", "dlock:{job}:", "dlock:{job}lock", "dlock:{job"}) {
        INFO(key);
        CHECK_FALSE(lock::name_in_use("dlock", key));
    }
    CHECK(lock::name_in_use("team:x", "team:x:{job}:lock") ==
          std::optional<std::string_view>("job"));
}

TEST_CASE("distinct keeps each name once, in the order of first appearance", "[keys]") {
    CHECK(lock::distinct({"b", "a", "b", "c", "a"}) == std::vector<std::string>{"b", "a", "c"});
    CHECK(lock::distinct({}).empty());
}
