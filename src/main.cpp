#include "cli/main.hpp"

#include "process/standard_fds.hpp"
#include "util/exit_codes.hpp"

int main(int argc, char** argv) {
    if (!dlock::process::ensure_standard_fds())
        return dlock::exit_code::internal; // no stderr to say so on
    return dlock::cli::main(argc, argv);
}
