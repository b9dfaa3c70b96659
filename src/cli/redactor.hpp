#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dlock::cli {

// How arguments of a command line are shown in a message that may go to a shared log: URL
// credentials and the value of any password-like option (see is_secret_option) as "***",
// control characters escaped so that the message stays one line.
class Redactor {
  public:
    // `args`: the whole command line, where the secrets are found.
    explicit Redactor(const std::vector<std::string>& args);

    // One argument, quoted: "'--redis'", "'redis://***@db'".
    std::string argument(const std::string& arg) const;
    // One argument as the user would type it again: as is when that is safe in a shell ("5s",
    // "./backup.sh"), else as argument() shows it.
    std::string word(const std::string& arg) const;
    // A message of CLI11's own, with the secrets taken out.
    std::string message(std::string_view text) const;

  private:
    std::set<std::string> secrets_;
};

} // namespace dlock::cli
