// app::check_fd_budget: a run that could not open the descriptors it needs is refused up front.

#include "process/fd_budget.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <dirent.h>
#include <set>
#include <sys/resource.h>

using namespace dlock;

namespace {

// The open descriptors of this process.
std::set<int> open_fds() {
    std::set<int> fds;
    DIR* dir = opendir("/proc/self/fd");
    REQUIRE(dir != nullptr);
    const int own = dirfd(dir);
    while (dirent* entry = readdir(dir))
        if (entry->d_name[0] != '.' && std::atoi(entry->d_name) != own)
            fds.insert(std::atoi(entry->d_name));
    closedir(dir);
    return fds;
}

// The lowest limit under which exactly `free` descriptor numbers are not in use.
int limit_leaving(int free, const std::set<int>& open) {
    int limit = 0;
    for (int unused = 0; unused < free; ++limit)
        if (!open.count(limit))
            ++unused;
    return limit;
}

// Lowers the soft RLIMIT_NOFILE for the scope of a test.
class Limit {
  public:
    explicit Limit(rlim_t soft) {
        REQUIRE(getrlimit(RLIMIT_NOFILE, &saved_) == 0);
        rlimit lowered = saved_;
        lowered.rlim_cur = soft;
        REQUIRE(setrlimit(RLIMIT_NOFILE, &lowered) == 0);
    }
    ~Limit() { setrlimit(RLIMIT_NOFILE, &saved_); }

  private:
    rlimit saved_{};
};

} // namespace

TEST_CASE("a run's descriptors fit under an ordinary limit", "[fd_budget]") {
    CHECK(app::check_fd_budget());
}

TEST_CASE("a limit too small for a run is a usage error naming it", "[fd_budget]") {
    const auto before = open_fds();
    const int limit = limit_leaving(4, before);
    Limit lowered(static_cast<rlim_t>(limit));
    CHECK(app::check_fd_budget(4));
    auto refused = app::check_fd_budget(5);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().fault == dlock::Fault::bad_input);
    CHECK(refused.error().message ==
          "too few file descriptors: a run needs 5 besides those already open, and only 4 are "
          "free under the limit of " +
              std::to_string(limit) + " (ulimit -n)");
    // The probe closed what it opened.
    CHECK(open_fds() == before);
}
