// INT8 quantisation of an ONNX model for ONNX Runtime's CPU provider, in C++
// (libonnx protobuf; no ORT, no torch here). Weights get one symmetric scale
// per output channel, stored as Int8Weights says; activations are quantised either at run
// time (dynamic) or with ranges measured beforehand on sample inputs (static,
// calibration in infer/int8_model.h). What each kind of layer becomes:
//
//   MatMul / Gemm, constant 2-D weight  -> com.microsoft.DynamicQuantizeMatMul
//       (activation quantised per call; what ORT itself fuses
//       DynamicQuantizeLinear + MatMulInteger + Cast + Mul into)
//   Conv, constant weight, group == 1:
//       ConvMode::Static  -> QuantizeLinear -> QLinearConv -> DequantizeLinear
//       ConvMode::Dynamic -> DynamicQuantizeLinear -> ConvInteger -> Cast ->
//                            Mul (input scale) -> Mul (per-channel weight scale) -> Add bias
//       ConvMode::Keep    -> stays fp32
//
// Layers kept fp32 by rule (QuantizeParams): depthwise / grouped convs (ORT's
// int8 kernels did not beat fp32 on them), the layers that read the graph
// input (the first conv), the layers whose output reaches a graph output
// through weight-free ops only (the final classifier / DB head), convs fed
// by a GlobalAveragePool, the first keep_leading_convs convs, and any node
// or weight named in keep_fp32. Every other op is left as it was, and a
// quantised layer still produces its original float output name, so the rest
// of the graph is untouched.
//
// The model file must be one ORT runs (opset >= 7). ConvInteger /
// QLinearConv need opset >= 10 (DynamicQuantizeLinear 11): an opset 9 model
// (the shipped PP-OCRv4 rec) is raised to 11 first, rewriting the ops whose
// form changed (Clip, Slice); a graph holding another op whose meaning
// changed between its opset and 11 keeps its convs fp32 (the report says so).
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ocrforge {

// Bumped whenever the output of quantize_onnx_model changes for the same
// input and parameters: part of the int8 cache key (infer/int8_model.h).
inline constexpr const char* kOnnxQuantizerVersion = "q1";

struct ActivationRange {
  float min = 0, max = 0;
};

// How quantised weights are stored, which decides ORT's kernel. Activations
// are always uint8. Choose by the CPU (core/cpu_features.h): Signed8 is exact
// only where uint8 x int8 products accumulate in int32 (VNNI, AMX); on AVX2
// and AVX-512 without VNNI its pairs of products saturate in int16.
enum class Int8Weights {
  Signed8,    // int8 in [-127, 127] per output channel (ORT's u8s8 kernels)
  Signed7,    // int8 in [-64, 64]: two products 255 * 64 fit int16, so the u8s8 kernels stay exact
  Unsigned8,  // uint8 128 + [-127, 127] (u8u8 kernels: operands widened to int16, exact on every CPU)
};

// "s8" / "s7" / "u8": the names used in flags, reports and the cache key.
const char* int8_weights_name(Int8Weights w);
// Throws Error listing the names for an unknown one.
Int8Weights int8_weights_from_name(const std::string& name);

struct QuantizeParams {
  enum class ConvMode { Keep, Dynamic, Static };
  ConvMode conv = ConvMode::Static;
  Int8Weights weights = Int8Weights::Signed8;
  bool matmul = true;               // MatMul / Gemm -> DynamicQuantizeMatMul
  bool keep_input_layers = true;    // weighted layers fed by the graph input through weight-free ops
  bool keep_output_layers = true;   // weighted layers whose output reaches a graph output weight-free
  bool keep_grouped_convs = true;   // group > 1 (depthwise)
  // Convs whose input tensor is produced by GlobalAveragePool (squeeze-and-
  // excite branches): 1x1 spatial, so quantising adds Q/DQ cost for no gain.
  bool keep_pooled_convs = true;
  // The first N convs (in graph order) that the other rules would quantise
  // stay fp32: the early, high-resolution layers, where per-tensor uint8
  // activations cost the PP-OCRv4 recognizer most (docs/benchmarks.md).
  int keep_leading_convs = 0;
  std::set<std::string> keep_fp32;  // node names, output names or weight names
  // ConvMode::Static: float range of each quantised conv's input and output,
  // by tensor name (calibration_tensors() lists the names needed).
  std::map<std::string, ActivationRange> ranges;
};

struct QuantizeReport {
  int convs_quantized = 0, matmuls_quantized = 0;
  std::vector<std::string> kept_fp32;  // "Conv 'name': why", for logs and docs
  int64_t opset_before = 0, opset_after = 0;
  size_t bytes_before = 0, bytes_after = 0;
};

// The tensors whose ranges ConvMode::Static needs (inputs and outputs of the
// convs the rules would quantise), in graph order.
std::vector<std::string> calibration_tensors(const std::string& src, const QuantizeParams& params);

// Writes `src` with `tensors` added as float graph outputs (after the
// original outputs), for measuring their ranges with ONNX Runtime. Atomic.
void write_calibration_model(const std::string& src, const std::string& dst, const std::vector<std::string>& tensors);

// Quantises `src` into `dst` (written atomically: temp file + rename).
// `metadata` goes into the model's metadata_props (the cache records its key
// there). Throws Error naming the file / the tensor for a model it cannot
// read or a static range that is missing.
QuantizeReport quantize_onnx_model(const std::string& src, const std::string& dst, const QuantizeParams& params,
                                   const std::map<std::string, std::string>& metadata = {});

// How many nodes of each op `path` holds ("Conv", "QLinearConv",
// "com.microsoft.DynamicQuantizeMatMul": other domains prefixed), Constant
// nodes included.
std::map<std::string, int> onnx_op_counts(const std::string& path);

// An int8 / uint8 initializer of `path` (a quantised weight or zero point),
// for tests and reports: element type "int8" or "uint8" and its values.
// Throws Error naming the file when there is no such integer initializer.
struct IntegerInitializer {
  std::string type;
  std::vector<int> values;
};
IntegerInitializer onnx_integer_initializer(const std::string& path, const std::string& name);

}  // namespace ocrforge
