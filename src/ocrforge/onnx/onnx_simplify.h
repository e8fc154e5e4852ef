// An exact fp32 simplification of an ONNX graph for inference (`--ir_optim`,
// on by default): rewrites that fold the small element-wise ops the Paddle
// exporter leaves around every convolution of the PP-OCRv4 networks
// (PP-LCNetV3's learnable affine blocks, hard-swish spelled as five ops),
// which ONNX Runtime's own optimiser leaves as they are. Each rewrite
// computes the same function; only float rounding differs (measured in
// tests/onnx/onnx_simplify_test.cpp and docs/benchmarks.md).
//
//   1. A per-tensor or per-channel affine after a Conv:
//        Conv(W, b) -> Mul(s) -> Add(a)   =>   Conv(W * s, b * s + a)
//      (Mul / Add with a constant, in any order and number, each reading
//      only the previous one's output).
//   2. Hard-swish as the exporter writes it:
//        x -> Add(3) -> Clip(0, 6) -> Mul(x, .) -> Div(6)
//      =>  x -> HardSigmoid(alpha 1/6, beta 0.5) -> Mul(x, .)
//      (Div(6) may also be Mul(1/6)).
//   3. A per-tensor affine in front of unpadded Convs:
//        Mul(s) -> Add(a) -> Conv(W, b), pads 0   =>   Conv(W * s, b + a * sum(W))
//      Where every reader of the affine's output is a Conv but some are
//      padded (the border would see 0 instead of a), only the scale moves:
//        Mul(s) -> Add(a) -> Conv(W)   =>   Add(a / s) -> Conv(W * s)
//      since the zero padding of s * y is s times the zero padding of y.
// A weight or bias that another node also reads is never changed (that
// pattern is left as it was). Nothing else in the graph changes: the inputs,
// outputs, their names and the opset stay.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace ocrforge {

struct SimplifyReport {
  int conv_affines = 0;   // rule 1: Mul / Add nodes folded into the Conv before them
  int hardswishes = 0;    // rule 2: five-op hard-swishes made two ops
  int input_affines = 0;  // rule 3: Mul / Add nodes folded into the Convs after them
  int layout_shifts = 0;   // rule 3b: shifts left before padded Convs, made 1x1 depthwise Convs
  int nodes_before = 0, nodes_after = 0;  // Constant nodes included
  int changes() const { return conv_affines + hardswishes + input_affines + layout_shifts; }
};

// `size` bytes at `data` (a serialised ModelProto) simplified and serialised
// into memory that `allocate(n)` provides; returns n, or 0 (nothing
// allocated) when no rule applied. The caller owns the memory: OrtModel maps
// it outside the heap, so a 10 MB transient buffer does not raise glibc's
// mmap threshold and leave the heap fragmented for the rest of the run.
// Throws Error naming `what` (the file, for messages) when the bytes are not
// an ONNX model.
size_t simplify_onnx_bytes_into(const void* data, size_t size, const std::string& what,
                                const std::function<void*(size_t)>& allocate, SimplifyReport* report = nullptr);

// The same on strings: `model_bytes` simplified (returned unchanged when no
// rule applied).
std::string simplify_onnx_bytes(const std::string& model_bytes, const std::string& what,
                                SimplifyReport* report = nullptr);

// The file form (tools, tests): `src` simplified into `dst`, written atomically.
SimplifyReport simplify_onnx_model(const std::string& src, const std::string& dst);

}  // namespace ocrforge
