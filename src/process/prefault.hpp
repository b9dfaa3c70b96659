#pragma once

namespace dlock::process {

// Maps, in two madvise(MADV_POPULATE_WRITE) calls, memory a short `dlock run` would otherwise
// fault in page by page: the stack below main()'s frame that the run goes on to use, and the
// heap malloc has reserved but not yet handed out. Pages it would touch anyway, so RSS hardly
// moves; each fault saved is a trap, and on virtual machines an expensive one
// (docs/BENCHMARKS.md, "Start-up"). Best effort: kernels before 5.14 reject the advice, and
// any failure changes nothing but speed. Call first thing in main().
void prefault_startup_pages();

} // namespace dlock::process
