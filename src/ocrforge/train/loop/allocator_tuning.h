// glibc malloc settings for training processes.
//
// Why: a training step allocates and frees the same large activation and
// gradient tensors (MBs each) every step. glibc serves blocks above its mmap
// threshold with fresh mmap()s, so every step page-faults and zero-fills them
// again; its dynamic threshold sometimes rises early and sometimes not, which
// made identical runs take 1.1 s or 1.7 s per step (docs/benchmarks.md). A
// fixed 32 MiB threshold (glibc's maximum) keeps those blocks in the heap and
// reuses them: +35% samples/s on the English PP-OCRv3 config for +16% peak
// RSS (2.44 -> 2.82 GB at batch 32).
#pragma once
#include <string>

namespace ocrforge {

// Sets the threshold unless the user chose one (MALLOC_MMAP_THRESHOLD_ or
// GLIBC_TUNABLES=...mmap_threshold...), in which case theirs stays. Returns
// what was done, for the log ("" when nothing was changed).
std::string tune_allocator_for_training();

}  // namespace ocrforge
