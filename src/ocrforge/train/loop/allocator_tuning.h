// glibc malloc settings for training and evaluation processes.
//
// Why: a training step allocates and frees the same large activation and
// gradient tensors (MBs each) every step. glibc serves blocks above its mmap
// threshold with fresh mmap()s, so every step page-faults and zero-fills them
// again; its dynamic threshold sometimes rises early and sometimes not, which
// made identical runs take 1.1 s or 1.7 s per step (docs/benchmarks.md). A
// fixed 32 MiB threshold (glibc's maximum) keeps those blocks in the heap and
// reuses them: +35% samples/s on the English PP-OCRv3 config for +16% peak
// RSS (2.44 -> 2.82 GB at batch 32).
//
// Fixing the mmap threshold also stops glibc from raising its trim threshold
// (which it does only while the mmap threshold is dynamic), so it stays at
// 128 KiB: every free at the top of the heap handed pages back with brk()
// and the next step faulted them in again. Measured on the shipped
// classifier's fine-tuning: 120-220 s with 46-110 s of it in the kernel
// (page faults), 59-68 s with the heap never trimmed, peak RSS +4%; its
// evaluation 114 -> 580 crops/s (docs/benchmarks.md). A training process
// comes back to its peak every step, so keeping it costs nothing more.
#pragma once
#include <string>

namespace ocrforge {

// Sets the mmap threshold (32 MiB) and turns heap trimming off, each unless
// the user chose it (MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ or the
// GLIBC_TUNABLES mmap_threshold / trim_threshold), in which case theirs
// stays. Returns what was done, for the log ("" when nothing was changed).
std::string tune_allocator_for_training();

}  // namespace ocrforge
