// glibc malloc settings for training and evaluation processes.
//
// Why: a training step allocates and frees the same large activation and
// gradient tensors (MBs each) every step. glibc serves blocks above its mmap
// threshold with fresh mmap()s, so every step page-faults and zero-fills them
// again; its dynamic threshold sometimes rises early and sometimes not, so
// identical runs differed in speed. A fixed threshold at glibc's maximum
// keeps those blocks in the heap and reuses them, for a somewhat higher peak
// RSS (figures: docs/benchmarks.md, training throughput).
//
// Fixing the mmap threshold also stops glibc from raising its trim threshold
// (which it does only while the mmap threshold is dynamic), so it stays at
// its default: every free at the top of the heap handed pages back with
// brk() and the next step faulted them in again, much of a step's time in
// the kernel. A training process comes back to its peak every step, so
// never trimming the heap costs nothing more.
#pragma once
#include <string>

namespace ocrforge {

// Sets the mmap threshold (32 MiB) and turns heap trimming off, each unless
// the user chose it (MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ or the
// GLIBC_TUNABLES mmap_threshold / trim_threshold), in which case theirs
// stays. Returns what was done, for the log ("" when nothing was changed).
std::string tune_allocator_for_training();

}  // namespace ocrforge
