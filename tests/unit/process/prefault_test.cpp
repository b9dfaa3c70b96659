#include "process/prefault.hpp"

#include <alloca.h>
#include <catch2/catch.hpp>
#include <cerrno>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace {

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

constexpr size_t kStackBytes = 40 * 1024; // within the 64 KiB prefaulted

[[gnu::noinline]] long faults_writing_stack() {
    const long before = minor_faults();
    auto* area = static_cast<volatile char*>(alloca(kStackBytes));
    for (size_t at = 0; at < kStackBytes; at += 4096)
        area[at] = 1;
    return minor_faults() - before;
}

// The page faults a fresh child takes writing its stack, after prefault_startup_pages() or not.
// (After fork(), every page written is faulted in again, copy on write, unless populated.) The
// heap half is not checked here: in a test process that large, the heap sits in transparent
// huge pages and takes no faults either way; docs/BENCHMARKS.md has dlock's own counts.
long faults_in_child(bool prefault) {
    int out[2];
    REQUIRE(pipe(out) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        if (prefault)
            dlock::process::prefault_startup_pages();
        const long faults = faults_writing_stack();
        (void)!write(out[1], &faults, sizeof faults);
        _exit(0);
    }
    close(out[1]);
    long faults = -1;
    CHECK(read(out[0], &faults, sizeof faults) == sizeof faults);
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return faults;
}

bool kernel_populates() {
    alignas(4096) static char page[4096];
    return madvise(page, sizeof page, MADV_POPULATE_WRITE) == 0 || errno != EINVAL;
}

} // namespace

TEST_CASE("after prefault, the stack a run goes on to use takes no page faults", "[prefault]") {
    if (!kernel_populates()) {
        WARN("this kernel has no MADV_POPULATE_WRITE (Linux 5.14): nothing to check");
        return;
    }
    const long cold = faults_in_child(false);
    const long warm = faults_in_child(true);
    INFO(cold << " faults without prefault, " << warm << " with");
    CHECK(cold >= 5); // 10 pages written
    // Most of them gone, not all: under ASan the stores also touch pages of the stack's shadow,
    // and a loaded machine may reclaim a page between the two.
    CHECK(warm <= cold / 2);
}
