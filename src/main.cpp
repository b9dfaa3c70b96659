#include "cli/main.hpp"

int main(int argc, char** argv) {
    return dlock::cli::main(argc, argv);
}
