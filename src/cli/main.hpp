#pragma once

#include "util/error.hpp"

namespace dlock::cli {

// Parses the command line, runs the subcommand and returns the process exit status.
int main(int argc, char** argv);

// The exit status `outcome` stands for. An Error is reported here, as dlock's one line on
// stderr: the one place where an Error returned by a subcommand is logged.
int exit_status(const Result<int>& outcome);

} // namespace dlock::cli
