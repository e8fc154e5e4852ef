#include "ocr_flags.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/checkpoint_networks.h"
#include "ocrforge/infer/cpu_topology.h"
#include "ocrforge/infer/export_folder.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/lang_models.h"

namespace ocrforge {

namespace {

// A default as the flag's text: the shortest form of a number ("0.3").
std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

// "3, H, W": an image-shape flag's text.
std::string shape_text(int h, int w) { return "3, " + std::to_string(h) + ", " + std::to_string(w); }

// "['0', '180']": a list flag's text, in PaddleOCR's (Python's) spelling.
std::string list_text(const std::vector<std::string>& items) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", '" : "'") + items[i] + "'";
  return s + "]";
}

}  // namespace

// Every default below comes from the params structs (default_ocr_params()),
// so a default is written in one place and the help cannot drift from it.
void declare_ocr_flags(FlagSet& f) {
  using K = FlagSet::Kind;
  const OcrParams d = default_ocr_params();
  f.add("image_dir", "", "image file or folder (jpg, png, bmp, tiff, webp)");
  f.add("lang", available_langs().front(),
        "model set: ch (PP-OCRv4, Chinese and English) or en (its recognizer fine-tuned on English/Latin "
        "documents, models/en/rec; docs/shipped-models.md); --rec_model_dir wins");
  f.add("det_model_dir", d.det.model_dir, "detection model: .onnx file or folder with inference.onnx");
  f.add("rec_model_dir", d.rec.model_dir, "recognition model: .onnx file or folder with inference.onnx");
  f.add("cls_model_dir", d.cls.model_dir, "direction classifier model: .onnx file or folder");
  f.add("rec_char_dict_path", d.rec.char_dict_path, "recognition dictionary, one character per line");
  f.add_bool("use_gpu", d.runtime.use_gpu, "run on CUDA (needs an ONNX Runtime built with the CUDA provider)");
  f.add("gpu_id", std::to_string(d.runtime.gpu_id), "CUDA device index");
  // cpu_threads: the physical cores, not PaddleOCR's 10 spinning threads.
  f.add("cpu_threads", std::to_string(d.runtime.cpu_threads),
        "ONNX Runtime intra-op threads (default: this machine's physical cores)");
  f.add("inter_op_threads", std::to_string(d.runtime.inter_op_threads), "ONNX Runtime inter-op threads");
  f.add("precision", d.runtime.precision,
        "fp32 or int8: int8 runs det and rec quantised (cls stays fp32), made once into the int8 cache; "
        "fp16 is not supported");
  f.add("int8_cache_dir", "", "folder of the int8 models (default: $OCRFORGE_CACHE_DIR/int8 or ~/.cache/ocrforge/int8)");
  f.add("int8_calibration_dir", "",
        "images that calibrate the int8 det model, in DIR/det (default: the set shipped in data/int8_calibration)");
  f.add("int8_scheme", d.runtime.int8_scheme,
        "how int8 weights are stored: auto (chosen by this CPU's instructions, `ocrforge check` says which), "
        "s8 (int8), s7 (int8 in [-64, 64]: exact without VNNI) or u8 (uint8)");
  f.add_bool("ir_optim", d.runtime.ir_optim,
             "run the models in their exact simplified form (affine ops folded into the convolutions; fp32)");
  f.add_bool("shared_arena", d.runtime.shared_arena,
             "one ONNX Runtime CPU memory arena for all the models of the run instead of one per model (lower peak RSS)");
  f.add_bool("benchmark", false, "print PaddleOCR's benchmark report per model after warm-up");
  f.add("det_algorithm", "DB", "detection algorithm (DB)");
  f.add("det_limit_side_len", std::to_string(d.det.resize.limit_side_len), "side length limit of the detector input");
  f.add("det_limit_type", d.det.resize.limit_type == DetLimitType::Max ? "max" : "min", "max: longer side <= limit; min: shorter side >= limit");
  f.add("det_max_side_limit", std::to_string(d.det.resize.max_side_limit), "cap on the longer side of the detector input");
  f.add("det_db_thresh", number_text(d.det.post.thresh), "binarisation threshold of the probability map");
  f.add("det_db_box_thresh", number_text(d.det.post.box_thresh), "minimum box score");
  f.add("det_db_unclip_ratio", number_text(d.det.post.unclip_ratio), "box expansion ratio");
  f.add("max_batch_size", "10", "accepted for compatibility");
  f.add_bool("use_dilation", d.det.post.use_dilation, "dilate the binary map (2x2)");
  f.add("det_db_score_mode", d.det.post.score_mode == DbScoreMode::Fast ? "fast" : "slow", "fast: score inside the box; slow: inside the contour");
  f.add("det_box_type", d.det.post.box_type == DetBoxType::Quad ? "quad" : "poly", "quad or poly");
  f.add("rec_algorithm", "SVTR_LCNet", "recognition algorithm (CTC models: SVTR_LCNet, CRNN)");
  f.add("rec_image_shape", shape_text(d.rec.image_h, d.rec.image_w), "recognition input C, H, W");
  f.add("rec_batch_num", std::to_string(d.rec.batch_num),
        "crops per recognition model call (only crops of equal input width share one, so results never depend on it)");
  f.add("rec_workers", std::to_string(d.rec.workers),
        "recognition batches run at once, each with cpu_threads / rec_workers ORT threads "
        "(0: one per cpu thread; results never depend on it)");
  f.add("rec_min_width", std::to_string(d.rec.min_width),
        "narrowest recognition input, capped at the rec_image_shape width: narrower crops are padded to it "
        "(0: that width, PaddleOCR's rule; the default read more words on whole pages and is faster, "
        "docs/benchmarks.md)");
  f.add("max_text_length", "25", "accepted for compatibility");
  f.add_bool("use_space_char", d.rec.use_space_char, "the dictionary is followed by a space class");
  f.add("drop_score", number_text(d.drop_score), "lines with a lower recognition score are dropped");
  f.add_bool("use_angle_cls", d.use_angle_cls, "run the 0/180 degree direction classifier");
  f.add("cls_image_shape", shape_text(d.cls.image_h, d.cls.image_w), "classifier input C, H, W");
  f.add("label_list", list_text(d.cls.label_list), "classifier labels");
  f.add("cls_batch_num", std::to_string(d.cls.batch_num), "crops per classifier batch");
  f.add("cls_thresh", number_text(d.cls.thresh), "rotate when the 180 score exceeds this");
  f.add("draw_img_save_dir", "./inference_results", "folder for visualisations and result files");
  f.add_bool("save_crop_res", false, "save every text-line crop");
  f.add("crop_res_save_dir", "./output", "folder for --save_crop_res");
  f.add("vis_font_path", "", "font for drawing text (default: Noto Sans CJK if installed)");
  f.add_bool("visualize", true, "write the visualisation image");
  f.add("save_label", "", "write results as a PaddleOCR detection label file (auto-labelling)");
  f.add("warmup_runs", "2", "with --benchmark: runs on the first image not counted");
  f.add("max_image_pixels", std::to_string(kDefaultMaxImagePixels),
        "refuse an image that would decode to more pixels than this, checked from its header "
        "(JPEG, PNG, BMP, PNM, WebP) before decoding; 0 = no cap (OpenCV's 2^30 remains)");
  // Accepted so PaddleOCR command lines run unchanged; they change nothing here.
  f.add_bool("use_tensorrt", false, "refused when True: there is no TensorRT here (ONNX Runtime CPU/CUDA only)");
  for (const char* name : {"use_onnx", "enable_mkldnn", "use_mp", "show_log",
                           "use_xpu", "use_npu", "use_mlu", "use_pdserving", "use_fp16"})
    f.add_bool(name, std::string(name) == "use_onnx" || std::string(name) == "show_log",
               "accepted for PaddleOCR compatibility (no effect; see docs/cli.md)");
  f.add("gpu_mem", "500", "accepted for compatibility (no effect)");
  f.add("min_subgraph_size", "15", "accepted for compatibility (no effect)");
  f.add("total_process_num", "1", "accepted for compatibility (no effect)");
  f.add("process_id", "0", "accepted for compatibility (no effect)");
  (void)K::Text;
}

static std::vector<int> image_shape(const FlagSet& f, const std::string& name) {
  auto v = f.get_int_list(name);
  if (v.size() != 3 || v[0] != 3 || v[1] <= 0 || v[2] <= 0)
    throw UsageError("--" + name + "='" + f.get(name) + "': expected \"3, H, W\" with positive H and W");
  return v;
}

// A thread count above the CPUs this process may use only waits, and a huge
// one (100000) asks for as many thread stacks: capped, with a warning.
static int thread_count_capped(const FlagSet& f, const std::string& flag, int min) {
  const int requested = f.get_int_at_least(flag, min);
  const int cpus = logical_cpu_count();
  if (requested <= cpus) return requested;
  std::fprintf(stderr, "ocrforge: warning: --%s=%d is more than the %d CPUs this process may use; using %d\n",
               flag.c_str(), requested, cpus, cpus);
  return cpus;
}

ImageReadParams image_read_params_from_flags(const FlagSet& f) {
  ImageReadParams r;
  r.max_side = f.get_int_at_least("det_max_side_limit", 1);
  r.max_pixels = f.get_int64_at_least("max_image_pixels", 0);
  return r;
}

OcrParams ocr_params_from_flags(const FlagSet& f) {
  OcrParams p;
  auto& rt = p.runtime;
  rt.use_gpu = f.get_bool("use_gpu");
  rt.gpu_id = f.get_int_at_least("gpu_id", 0);
  rt.cpu_threads = thread_count_capped(f, "cpu_threads", 1);
  rt.inter_op_threads = thread_count_capped(f, "inter_op_threads", 1);
  rt.precision = f.get("precision");
  if (rt.precision == "fp16")
    throw UsageError("--precision=fp16 is not supported (the CPU provider has no fp16 kernels for these models); "
                     "use fp32 or int8");
  if (rt.precision != "fp32" && rt.precision != "int8")
    throw UsageError("--precision=" + rt.precision + " is unknown; use fp32 or int8");
  if (rt.precision == "int8" && rt.use_gpu)
    throw UsageError("--precision=int8 runs on the CPU provider only; use it with --use_gpu=False");
  rt.ir_optim = f.get_bool("ir_optim");
  rt.shared_arena = f.get_bool("shared_arena");
  rt.int8_cache_dir = f.get("int8_cache_dir");
  rt.int8_calibration_dir = f.get("int8_calibration_dir");
  rt.int8_scheme = f.get("int8_scheme");
  if (rt.int8_scheme != "auto" && rt.int8_scheme != "s8" && rt.int8_scheme != "s7" && rt.int8_scheme != "u8")
    throw UsageError("--int8_scheme=" + rt.int8_scheme + " is unknown; use auto, s8, s7 or u8");
  if (f.get_bool("use_tensorrt")) throw UsageError("--use_tensorrt=True is not supported (ONNX Runtime CPU/CUDA only)");
  if (f.get("det_algorithm") != "DB")
    throw UsageError("--det_algorithm=" + f.get("det_algorithm") + " is not supported yet; only DB");

  auto& det = p.det;
  det.model_dir = f.get("det_model_dir");
  det.resize.limit_side_len = f.get_int_at_least("det_limit_side_len", 1);
  const std::string lt = f.get("det_limit_type");
  if (lt != "max" && lt != "min") throw UsageError("--det_limit_type must be max or min, got '" + lt + "'");
  det.resize.limit_type = lt == "max" ? DetLimitType::Max : DetLimitType::Min;
  det.resize.max_side_limit = f.get_int_at_least("det_max_side_limit", 1);
  det.post.thresh = static_cast<float>(f.get_double_in("det_db_thresh", 0, 1));
  det.post.box_thresh = static_cast<float>(f.get_double_in("det_db_box_thresh", 0, 1));
  det.post.unclip_ratio = static_cast<float>(f.get_double_above("det_db_unclip_ratio", 0));
  if (det.post.unclip_ratio > kMaxUnclipRatio)
    throw UsageError("--det_db_unclip_ratio=" + f.get("det_db_unclip_ratio") + " is over " +
                     number_text(kMaxUnclipRatio) + " (PaddleOCR's configs use 1.5 to 4)");
  det.post.use_dilation = f.get_bool("use_dilation");
  const std::string sm = f.get("det_db_score_mode");
  if (sm != "fast" && sm != "slow") throw UsageError("--det_db_score_mode must be fast or slow, got '" + sm + "'");
  det.post.score_mode = sm == "fast" ? DbScoreMode::Fast : DbScoreMode::Slow;
  const std::string bt = f.get("det_box_type");
  if (bt != "quad" && bt != "poly") throw UsageError("--det_box_type must be quad or poly, got '" + bt + "'");
  det.post.box_type = bt == "quad" ? DetBoxType::Quad : DetBoxType::Poly;
  // An `ocrforge export` folder brings the post-processing its model was trained with (explicit flags win).
  apply_det_export_folder(det, [&f](const std::string& key) {
    static const std::map<std::string, std::string> flag_of = {
        {"thresh", "det_db_thresh"},       {"box_thresh", "det_db_box_thresh"}, {"unclip_ratio", "det_db_unclip_ratio"},
        {"use_dilation", "use_dilation"}, {"score_mode", "det_db_score_mode"}, {"box_type", "det_box_type"}};
    const auto it = flag_of.find(key);
    return it != flag_of.end() && f.was_set(it->second);
  });

  auto& rec = p.rec;
  rec.model_dir = f.get("rec_model_dir");
  const std::string lang = f.get("lang");
  const auto langs = available_langs();
  if (std::find(langs.begin(), langs.end(), lang) == langs.end()) {
    std::string list;
    for (const auto& l : langs) list += (list.empty() ? "" : ", ") + l;
    throw UsageError("--lang '" + lang + "' has no model set; available: " + list);
  }
  // The language's recognizer unless one was named (det and cls are shared by every set).
  if (lang != langs.front() && !f.was_set("rec_model_dir")) rec.model_dir = ocr_params_for_lang(lang).rec.model_dir;
  auto rs = image_shape(f, "rec_image_shape");
  rec.image_h = rs[1];
  rec.image_w = rs[2];
  rec.batch_num = f.get_int_at_least("rec_batch_num", 1);
  rec.workers = thread_count_capped(f, "rec_workers", 0);
  rec.min_width = f.get_int_at_least("rec_min_width", 0);
  rec.char_dict_path = f.get("rec_char_dict_path");
  rec.use_space_char = f.get_bool("use_space_char");
  // An `ocrforge export` folder brings its dictionary and input shape (explicit flags win).
  apply_rec_export_folder(rec, f.was_set("rec_char_dict_path"), f.was_set("rec_image_shape"));
  apply_rec_checkpoint(rec, f.was_set("rec_char_dict_path"), f.was_set("rec_image_shape"));

  auto& cls = p.cls;
  cls.model_dir = f.get("cls_model_dir");
  auto cs = image_shape(f, "cls_image_shape");
  cls.image_h = cs[1];
  cls.image_w = cs[2];
  cls.batch_num = f.get_int_at_least("cls_batch_num", 1);
  cls.thresh = static_cast<float>(f.get_double_in("cls_thresh", 0, 1));
  cls.label_list = parse_string_list(f.get("label_list"));

  p.use_angle_cls = f.get_bool("use_angle_cls");
  p.drop_score = static_cast<float>(f.get_double_in("drop_score", 0, 1));
  f.get_int_at_least("warmup_runs", 0);  // checked here so a bad value fails before any model loads
  image_read_params_from_flags(f);
  return p;
}

}  // namespace ocrforge
