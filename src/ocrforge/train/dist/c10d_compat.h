// The one place that knows which libtorch c10d API we compile against.
// Debian's libtorch 1.13: ProcessGroupGloo / ProcessGroupNCCL derive from
// c10d::ProcessGroup. PyTorch 2.x (the libtorch of a CUDA machine's wheel)
// split them into c10d::Backend subclasses. The calls we make (allreduce,
// broadcast, barrier, Work::wait) are the same in both.
//
// Internal header: only src/ocrforge/train/dist/*.cpp include it, so c10d
// and Gloo headers stay out of the rest of the build.
#pragma once
#include <torch/version.h>

// Debian's TorchConfig.cmake does not pass USE_C10D_GLOO although its
// libtorch_cpu is built with Gloo (and links libgloo.so.0); the header
// hides the class without it.
#ifndef USE_C10D_GLOO
#define USE_C10D_GLOO 1
#endif
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
// NCCL: only when configured with -DOCRFORGE_WITH_NCCL=ON against a CUDA
// libtorch built with NCCL (untested on this project's machines).
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace ocrforge::c10d_compat {

#if TORCH_VERSION_MAJOR >= 2
using Group = c10d::Backend;
#else
using Group = c10d::ProcessGroup;
#endif
using GroupPtr = c10::intrusive_ptr<Group>;
using StorePtr = c10::intrusive_ptr<c10d::Store>;

}  // namespace ocrforge::c10d_compat
