#include "lock/describe.hpp"
#include "unit/utc_zone.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <ctime>
#include <optional>

using namespace dlock::lock;
using dlock::test::UtcZone;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kSince = 1'700'000'000'000; // 2023-11-14 22:13:20 UTC
constexpr int64_t kDay = 86'400'000;

HolderInfo holder(std::string host = "web-2") {
    return HolderInfo{std::move(host), 4242, "alice", "./backup.sh", kSince, 17};
}

bool valid_utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const size_t len = c < 0x80         ? 1
                           : (c >> 5) == 6  ? 2
                           : (c >> 4) == 14 ? 3
                           : (c >> 3) == 30 ? 4
                                            : 0;
        if (len == 0 || i + len > s.size())
            return false;
        for (size_t j = 1; j < len; ++j)
            if ((static_cast<unsigned char>(s[i + j]) & 0xC0) != 0x80)
                return false;
        i += len;
    }
    return true;
}

} // namespace

TEST_CASE("a recent holder is shown with host, pid, time of day and token", "[describe]") {
    UtcZone utc;
    CHECK(describe_holder(holder(), kSince + 5000) == "web-2 (pid 4242, since 22:13:20, token 17)");
    CHECK(describe_holder(holder(), kSince + kDay - 1) ==
          "web-2 (pid 4242, since 22:13:20, token 17)");
}

TEST_CASE("a holder older than a day is shown with the date", "[describe]") {
    UtcZone utc;
    CHECK(describe_holder(holder(), kSince + kDay) ==
          "web-2 (pid 4242, since 2023-11-14 22:13:20, token 17)");
    CHECK(describe_holder(holder(), kSince + 30 * kDay) ==
          "web-2 (pid 4242, since 2023-11-14 22:13:20, token 17)");
}

TEST_CASE("a holder without a host is shown as '?'", "[describe]") {
    UtcZone utc;
    CHECK(describe_holder(holder(""), kSince) == "? (pid 4242, since 22:13:20, token 17)");
}

TEST_CASE("a refusal names the holder without its fencing token", "[describe]") {
    UtcZone utc;
    CHECK(describe_blocker(holder(), kSince + 5000) == "web-2 (pid 4242, since 22:13:20)");
    CHECK(describe_blocker(holder(""), kSince + kDay) == "? (pid 4242, since 2023-11-14 22:13:20)");
}

TEST_CASE("a full semaphore names its holders", "[describe][semaphore]") {
    UtcZone utc;
    AcquireOutcome refused;
    refused.permit_limit = 2;
    refused.permits_held = 2;
    refused.permit_holders = {holder("web-1"), holder("web-2")};
    CHECK(describe_permits(refused, kSince) ==
          "at its limit of 2 permits, held by web-1 (pid 4242, since 22:13:20), "
          "web-2 (pid 4242, since 22:13:20)");
    refused.permit_limit = refused.permits_held = 7;
    CHECK(describe_permits(refused, kSince).ends_with("22:13:20) and 5 more"));
    refused.permit_limit = refused.permits_held = 1;
    refused.permit_holders = {holder()};
    CHECK(describe_permits(refused, kSince) ==
          "at its limit of 1 permit, held by web-2 (pid 4242, since 22:13:20)");
}

TEST_CASE("a semaphore with free permits names the waiters queued first", "[describe][semaphore]") {
    AcquireOutcome refused;
    refused.permit_limit = 3;
    refused.permits_held = 2;
    refused.waiters = 2;
    CHECK(describe_permits(refused, kSince) == "at 2 of 3 permits, but 2 waiters are queued first");
    refused.waiters = 1;
    CHECK(describe_permits(refused, kSince) == "at 2 of 3 permits, but 1 waiter is queued first");
}

TEST_CASE("the command line joins argv with spaces", "[describe]") {
    CHECK(command_line({}) == "");
    CHECK(command_line({"true"}) == "true");
    CHECK(command_line({"./backup.sh", "--full", "/var/db"}) == "./backup.sh --full /var/db");
}

TEST_CASE("a command line of exactly max_bytes is kept whole", "[describe]") {
    const std::string arg(20, 'x');
    CHECK(command_line({arg}, 20) == arg);
    CHECK(command_line({std::string(200, 'y')}) == std::string(200, 'y'));
}

TEST_CASE("a longer command line is cut to max_bytes with an ellipsis", "[describe]") {
    auto cut = command_line({"rsync", std::string(100, 'a')}, 20);
    CHECK(cut == "rsync " + std::string(11, 'a') + "...");
    CHECK(cut.size() == 20);
    CHECK(command_line({std::string(500, 'z')}).size() == 200);
}

TEST_CASE("cut keeps text that fits and ends what it cuts with an ellipsis", "[describe]") {
    CHECK(cut("waiting for job", 15) == "waiting for job");
    CHECK(cut("waiting for job", 10) == "waiting...");
    CHECK(cut("\xc3\xa9\xc3\xa9\xc3\xa9", 6) == "\xc3\xa9\xc3\xa9\xc3\xa9");
    CHECK(cut("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 7) == "\xc3\xa9...");
}

TEST_CASE("cutting a command line never splits a UTF-8 character", "[describe]") {
    std::string accents;
    for (int i = 0; i < 50; ++i)
        accents += "\xc3\xa9"; // é
    for (size_t max = 4; max < 40; ++max) {
        INFO(max);
        auto cut = command_line({accents}, max);
        CHECK(cut.size() <= max);
        CHECK(cut.ends_with("..."));
        CHECK(valid_utf8(cut));
    }
    auto cut = command_line({"\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"}, 8); // €€€€
    CHECK(valid_utf8(cut));
    CHECK(cut.ends_with("..."));
}

TEST_CASE("local times: time of day within a day either way, else the date", "[describe]") {
    UtcZone utc;
    CHECK(local_time(kSince, kSince) == "22:13:20");
    CHECK(local_time(kSince + 60'000, kSince) == "22:14:20"); // a little in the future
    CHECK(local_time(kSince, kSince + kDay) == "2023-11-14 22:13:20");
    CHECK(local_time(kSince + kDay, kSince) == "2023-11-15 22:13:20");
    CHECK(local_datetime(kSince) == "2023-11-14 22:13:20");
}

TEST_CASE("ages are shown to the second, two units at most", "[describe]") {
    CHECK(format_age(0ms) == "0s");
    CHECK(format_age(999ms) == "0s");
    CHECK(format_age(-5s) == "0s");
    CHECK(format_age(42s) == "42s");
    CHECK(format_age(192s) == "3m12s");
    CHECK(format_age(65s) == "1m05s");
    CHECK(format_age(3600s) == "1h00m");
    CHECK(format_age(5h + 2min + 59s) == "5h02m");
    CHECK(format_age(3 * 24h + 4h + 59min) == "3d04h");
}
