// Runs the samples of a set on worker threads. Samples are independent
// (each draws from its own (seed, index) generator and writes its own
// file), so the order in which workers take them does not change any byte.
#pragma once
#include <functional>

namespace ocrforge {

// Calls fn(index, worker) for every index in [0, count) on `workers`
// threads (0 = all cores; never more threads than samples). Workers take the
// next index from a shared counter. When calls throw, the remaining work is
// abandoned and the exception of the lowest failing index is rethrown, so
// the error reported does not depend on thread timing.
void run_parallel(long count, int workers, const std::function<void(long index, int worker)>& fn);

// The number of threads run_parallel uses for `workers` and `count`.
int effective_workers(int workers, long count);

}  // namespace ocrforge
