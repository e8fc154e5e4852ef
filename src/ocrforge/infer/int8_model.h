// `--precision int8`: the int8 form of a det / rec model, made once and kept
// in a cache (onnx/onnx_quantize.h does the rewriting).
//
// What is quantised (chosen by measurement, docs/benchmarks.md "INT8"):
// det: pointwise / full convs become QLinearConv with activation ranges
// calibrated on a fixed set of sample images (static: ORT's dynamic
// ConvInteger ran 2.6x slower than fp32 here); its first six pointwise convs,
// depthwise and squeeze-and-excite convs, the first layer and the last one
// stay fp32. rec: its MatMuls (SVTR neck and the classifier) become
// DynamicQuantizeMatMul, activations quantised per call; its convs stay fp32
// (static int8 convs cost it about a point of IC15 accuracy).
//
// The cache: <cache>/<role>-<sha256 of the source model>-<quantizer
// version>-<weight scheme>-<calibration key>.onnx, beside it <same>.sha256 holding the
// digest of the int8 file. A file is reused when its digest matches, made
// again when it does not (corrupt, cut) or is missing; a changed source model,
// quantizer, weight scheme (another CPU kind) or calibration set gives another name. Written atomically under
// an flock, so concurrent runs never see a half file. The model folder is
// only read: a read-only model folder works.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "ocrforge/core/cpu_features.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/onnx/onnx_quantize.h"

namespace ocrforge {

// One preprocessed model input (NCHW float), as the predictor makes it.
struct CalibrationInput {
  std::vector<float> data;
  std::vector<int64_t> shape;
};

// Makes the calibration inputs of one model kind from the calibration folder
// (det: whole images from <dir>/det; rec: crops from <dir>/rec, read only
// if a rule quantises rec's convs, which the shipped one does not).
using CalibrationSource = std::function<std::vector<CalibrationInput>(const std::string& calibration_dir)>;

// How `--precision int8` runs one model on one CPU: the weight scheme.
struct Int8Plan {
  Int8Weights weights = Int8Weights::Signed8;
  // No VNNI / AMX: ORT's int8 kernels are exact with u8 weights but slower
  // than its fp32 ones there (docs/benchmarks.md "INT8"); the user is told.
  bool slower_than_fp32 = false;
  std::string why;  // "AVX2 without VNNI (...): rec weights u8", for logs and reports
};

// --int8_scheme auto: s8 where uint8 x int8 products are exact (VNNI, AMX,
// and the widening kernels of CPUs without AVX2); elsewhere u8, whose
// integers equal s8's there, so int8 results match across CPU kinds.
// An explicit s8 / s7 / u8 is used as given.
Int8Plan int8_plan(const std::string& role, const RuntimeParams& rt, const CpuFeatures& cpu);

struct Int8Model {
  std::string path;        // the int8 .onnx to load
  Int8Plan plan;
  bool built = false;      // made by this call (false: reused from the cache)
  std::string summary;     // "21 convs + 8 MatMuls int8, 18 layers fp32; 10.8 -> 3.3 MB"
};

// The cache folder: `rt.int8_cache_dir` when set, else $OCRFORGE_CACHE_DIR/int8,
// else $XDG_CACHE_HOME/ocrforge/int8, else $HOME/.cache/ocrforge/int8.
std::string int8_cache_dir(const RuntimeParams& rt);

// The calibration folder: `rt.int8_calibration_dir` when set, else the set
// shipped with ocrforge (<bin>/../share/ocrforge/int8_calibration,
// <bin>/../data/int8_calibration, ./data/int8_calibration: the first with a
// det/ folder). "" if none.
std::string int8_calibration_dir(const RuntimeParams& rt);

// The float range (min, max over all inputs) of each of `tensors` of
// `fp32_model`, measured with ONNX Runtime on `inputs`; `work_file` is where
// the model with those tensors as extra outputs is written (and removed after).
std::map<std::string, ActivationRange> calibrate_ranges(const std::string& fp32_model,
                                                        const std::vector<std::string>& tensors,
                                                        const std::vector<CalibrationInput>& inputs,
                                                        const RuntimeParams& rt, const std::string& work_file);

// The int8 form of `fp32_model` (a resolved .onnx file) for `role` ("det" or
// "rec") on this CPU (int8_plan), from the cache or made now (then a line on
// stderr says so). Throws
// Error naming the folder when the cache cannot be written or the calibration
// images are missing.
Int8Model int8_model(const std::string& fp32_model, const std::string& role, const RuntimeParams& rt,
                     const CalibrationSource& calibration);

}  // namespace ocrforge
