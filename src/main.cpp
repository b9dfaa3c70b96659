#include "cli/main.hpp"

#include "process/prefault.hpp"
#include "process/standard_fds.hpp"
#include "util/exit_codes.hpp"

int main(int argc, char** argv) {
    dlock::process::prefault_startup_pages();
    if (!dlock::process::ensure_standard_fds())
        return dlock::exit_code::internal; // no stderr to say so on
    return dlock::cli::main(argc, argv);
}
