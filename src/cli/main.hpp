#pragma once

namespace dlock::cli {

// Parses the command line, runs the subcommand and returns the process exit status.
int main(int argc, char** argv);

} // namespace dlock::cli
