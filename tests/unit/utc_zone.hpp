#pragma once

#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>

namespace dlock::test {

// Pins the local time zone to UTC for one test, so times print predictably.
class UtcZone {
  public:
    UtcZone() {
        if (const char* tz = std::getenv("TZ"))
            saved_ = tz;
        setenv("TZ", "UTC0", 1);
        tzset();
    }
    ~UtcZone() {
        if (saved_)
            setenv("TZ", saved_->c_str(), 1);
        else
            unsetenv("TZ");
        tzset();
    }
    UtcZone(const UtcZone&) = delete;
    UtcZone& operator=(const UtcZone&) = delete;

  private:
    std::optional<std::string> saved_;
};

} // namespace dlock::test
