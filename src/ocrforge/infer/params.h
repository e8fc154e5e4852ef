// Typed parameters of the inference pipeline, one struct per stage, with
// PaddleOCR's defaults (tools/infer/utility.py). Flags and configs are
// converted to these once; code below never looks up string keys.
#pragma once
#include <string>
#include <vector>

#include "ocrforge/infer/cpu_topology.h"
#include "ocrforge/vision/db_postprocess.h"
#include "ocrforge/vision/det_resize.h"

namespace ocrforge {

struct RuntimeParams {
  bool use_gpu = false;  // CUDA execution provider; an error when ORT has none
  int gpu_id = 0;
  // ORT intra-op threads (PaddleOCR's --cpu_threads, whose default 10 spins
  // ten workers on small machines). Default: the physical cores this process
  // may use; an explicit value is used as given.
  int cpu_threads = physical_core_count();
  // ORT inter-op threads; only used when a model runs branches in parallel
  // (ORT_PARALLEL), which the PP-OCR models gain nothing from: kept at 1.
  int inter_op_threads = 1;
  // "fp32", or "int8": det and rec run their int8 form (int8_model.h), made
  // once into int8_cache_dir; cls stays fp32. fp16 is refused (no fp16
  // kernels on the CPU provider).
  std::string precision = "fp32";
  std::string int8_cache_dir;        // "": $OCRFORGE_CACHE_DIR/int8, else ~/.cache/ocrforge/int8
  std::string int8_calibration_dir;  // "": the images shipped in data/int8_calibration
  // How int8 weights are stored (onnx/onnx_quantize.h Int8Weights): "auto"
  // chooses by the CPU's instructions and the model (int8_model.h); "s8",
  // "s7" or "u8" force one (for comparisons and tests).
  std::string int8_scheme = "auto";
  // ORT's CPU arena: on, because without it every large activation buffer is
  // a fresh mmap from glibc, page-faulted again at every run. It keeps the
  // largest blocks it has seen; for a lower RSS turn it off (figures:
  // docs/benchmarks.md, memory).
  bool memory_arena = true;
  // With the arena on: one CPU arena for every model of the process (det,
  // cls and rec sessions draw from it, ORT's env allocator) instead of one
  // per session. Each per-session arena keeps its own high-water mark, so a
  // pipeline held det's largest blocks and rec's at the same time; the shared
  // one holds only their joint peak, at a small cost in time and with the
  // same results (docs/benchmarks.md, memory). Its settings are ORT's
  // defaults (blocks grow by powers of two); CPU only.
  bool shared_arena = true;
  // ORT graph optimisation: "disable", "basic", "extended" or "all".
  std::string graph_optimization = "all";
  // ORT memory pattern (plans one block per input shape from the first run):
  // off, because with the arena on it was as fast and kept less memory
  // (docs/benchmarks.md); the arena already reuses the blocks.
  bool memory_pattern = false;
  // "session.intra_op.allow_spinning": off, because idle workers spinning
  // on cores other processes need was slower in every measured round.
  bool allow_spinning = false;
  // PaddleOCR's --ir_optim: the det / cls / rec graphs run in ocrforge's
  // exact simplified form (onnx/onnx_simplify.h: affine ops folded into the
  // convolutions, hard-swish in two ops), made in memory at load; fp32 only
  // (an int8 model is quantised from the file as it is). Off: the file as is.
  bool ir_optim = true;
};

struct DetParams {
  std::string model_dir;  // a .onnx file, or a folder holding inference.onnx
  DetResizeParams resize;
  DbPostParams post;
};

struct ClsParams {
  std::string model_dir;
  int image_h = 48, image_w = 192;  // --cls_image_shape "3, 48, 192"
  int batch_num = 6;
  float thresh = 0.9f;  // rotate only when the "180" score exceeds this
  std::vector<std::string> label_list{"0", "180"};
};

struct RecParams {
  std::string model_dir;
  int image_h = 48, image_w = 320;  // --rec_image_shape "3, 48, 320"
  // Crops per ORT call. Only crops of the same input width share a batch
  // (see rec_batching.h), so the batch size never changes a result. 1, not
  // PaddleOCR's 6: batching did not pay on small machines (docs/benchmarks.md).
  int batch_num = 1;
  // Input widths above image_w are rounded up to a multiple of this, so that
  // long lines of similar length can share a batch (1: PaddleOCR's exact
  // width). Part of each crop's input, hence of its result, at any batch size.
  int width_step = 1;
  // Narrowest input width: a crop whose own width at image_h is narrower is
  // zero-padded to it (capped at image_w; 0: image_w, PaddleOCR's rule, every
  // crop at least 320 wide). 160, not PaddleOCR's 320: on whole pages it
  // read more words in less time, on hand-cut crops slightly fewer exactly
  // (docs/accuracy.md and docs/benchmarks.md, "Recognition input width floor").
  int min_width = 160;
  // Batches recognised at the same time, each an ORT run on its own thread
  // with cpu_threads / workers intra-op threads (at least 1). 0: one worker
  // per cpu_thread. Why: ORT's intra-op threads barely speed up one small
  // crop, while crops run side by side nearly divide the time by the
  // workers (docs/benchmarks.md). Results do not depend on it: every crop's
  // input is the same, and results are returned in input order.
  int workers = 0;
  std::string char_dict_path;
  bool use_space_char = true;
  // A word list (one word per line) for dictionary-aware decoding
  // (vision/ctc_lexicon.h); empty: greedy CTC decoding only, as PaddleOCR.
  std::string lexicon_path;
  // Nats of log-probability a listed word is worth against the greedy reading
  // (chosen on pages the en model trained on; docs/shipped-models.md).
  float lexicon_weight = 5.f;
  // The dictionary's characters from an export folder's inference.yml
  // (export_folder.h); when set they are used instead of char_dict_path.
  std::vector<std::string> characters;
  std::string characters_source;  // the file they came from, for messages
};

struct OcrParams {
  RuntimeParams runtime;
  DetParams det;
  ClsParams cls;
  RecParams rec;
  bool use_angle_cls = false;
  float drop_score = 0.5f;  // lines whose recognition score is lower are dropped
  // Fill OcrLine::words (PaddleOCR's return_word_box): each line split into
  // words with boxes from the CTC character positions (vision/word_boxes.h).
  bool word_boxes = false;
};

// Default parameters with the model paths of the default PP-OCRv4 models
// (see default_model_root()); when they cannot be found the model paths stay
// empty and building a predictor throws no_default_models_message().
OcrParams default_ocr_params();

// Where the default models live: $OCRFORGE_MODEL_DIR when set, else the
// first folder of default_model_search_path() holding det/ and rec/
// inference.onnx. "" if none does.
std::string default_model_root();

// The folders default_model_root() tries after $OCRFORGE_MODEL_DIR, in order:
// <executable>/../models/PP-OCRv4, <executable>/../share/ocrforge/models/PP-OCRv4,
// <d>/models/PP-OCRv4 for each located_data_dirs() (an install found from the
// loaded libraries, install_dirs.h), ./models/PP-OCRv4 (absolute), and
// <configured prefix>/share/ocrforge/models/PP-OCRv4.
std::vector<std::string> default_model_search_path();

// "no default models found ...; searched <every place above>: <how to get them>".
std::string no_default_models_message();

}  // namespace ocrforge
