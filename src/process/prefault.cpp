#include "process/prefault.hpp"

#include <cstdint>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE // Linux 5.14; older headers
#define MADV_POPULATE_WRITE 23
#endif

namespace dlock::process {
namespace {

constexpr uintptr_t kPage = 4096;
// How much stack below main()'s frame a run uses: the deepest is the loader's lazy binding,
// which saves the whole vector register state on the stack.
constexpr uintptr_t kStackAhead = 16 * kPage;

uintptr_t page_down(uintptr_t address) {
    return address & ~(kPage - 1);
}

void populate(uintptr_t begin, uintptr_t end) {
    if (begin < end)
        (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
}

} // namespace

void prefault_startup_pages() {
    const auto frame = page_down(reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
    populate(frame - kStackAhead, frame);

    // The top chunk: what malloc hands out next, reserved with brk but not yet touched.
    const struct mallinfo2 heap = ::mallinfo2();
    const auto top = reinterpret_cast<uintptr_t>(::sbrk(0));
    if (heap.keepcost > 0 && heap.keepcost < top)
        populate(page_down(top - heap.keepcost + kPage - 1), top);
}

} // namespace dlock::process
