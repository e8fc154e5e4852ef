#include "ocrforge/infer/ocr_flags.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/checkpoint_networks.h"
#include "ocrforge/infer/cpu_topology.h"
#include "ocrforge/infer/export_folder.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/lang_models.h"
#include "ocrforge/infer/ocr_param_table.h"

namespace ocrforge {

namespace {

// "3, H, W": an image-shape flag's text.
std::string shape_text(int h, int w) { return "3, " + std::to_string(h) + ", " + std::to_string(w); }

// "['0', '180']": a list flag's text, in PaddleOCR's (Python's) spelling.
std::string list_text(const std::vector<std::string>& items) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", '" : "'") + items[i] + "'";
  return s + "]";
}

// The table's flags, each with its default from default_ocr_params().
void declare_ocr_param_flags(FlagSet& f) {
  const OcrParams d = default_ocr_params();
  for (const auto& spec : ocr_param_table()) {
    if (spec.kind == OcrParamSpec::Kind::Bool) f.add_bool(spec.flag, spec.get(d) == "True", spec.help);
    else f.add(spec.flag, spec.get(d), spec.help);
  }
}

// Reads the table's flags into `p`; UsageError names the flag and its range.
void read_ocr_param_flags(const FlagSet& f, OcrParams& p) {
  for (const auto& spec : ocr_param_table()) {
    if (spec.kind == OcrParamSpec::Kind::Choice) {
      const std::string v = f.get(spec.flag);
      const std::string why = check_param_choice(spec, v, false);
      if (!why.empty()) throw UsageError("--" + spec.flag + " " + why + ", got '" + v + "'");
      spec.set(p, 0, v);
      continue;
    }
    const double v = spec.kind == OcrParamSpec::Kind::Bool  ? (f.get_bool(spec.flag) ? 1.0 : 0.0)
                     : spec.kind == OcrParamSpec::Kind::Int ? static_cast<double>(f.get_int(spec.flag))
                                                            : f.get_double(spec.flag);
    const std::string why = check_param_value(spec, v, false);
    if (!why.empty()) throw UsageError("--" + spec.flag + "=" + f.get(spec.flag) + " is out of range: it " + why);
    spec.set(p, v, "");
  }
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
  f.add("rec_lexicon", "",
        "word list, one word per line (e.g. /usr/share/dict/american-english): words it lacks are replaced by "
        "listed words one edit away that the model found nearly as likely (docs/cli.md); none: off (default: "
        "the --lang set's list with its own recognizer, models/en/words.txt for en; none for ch)");
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
  declare_ocr_param_flags(f);  // the table's parameters (ocr_param_table.h)
  f.add("max_batch_size", "10", "accepted for compatibility");
  f.add("rec_algorithm", "SVTR_LCNet", "recognition algorithm (CTC models: SVTR_LCNet, CRNN)");
  f.add("rec_image_shape", shape_text(d.rec.image_h, d.rec.image_w), "recognition input C, H, W");
  f.add("rec_workers", std::to_string(d.rec.workers),
        "recognition batches run at once, each with cpu_threads / rec_workers ORT threads "
        "(0: one per cpu thread; results never depend on it)");
  f.add("max_text_length", "25", "accepted for compatibility");
  f.add("cls_image_shape", shape_text(d.cls.image_h, d.cls.image_w), "classifier input C, H, W");
  f.add("label_list", list_text(d.cls.label_list), "classifier labels");
  f.add("draw_img_save_dir", "./inference_results", "folder for visualisations and result files");
  f.add_bool("save_crop_res", false, "save every text-line crop");
  f.add("crop_res_save_dir", "./output", "folder for --save_crop_res");
  f.add("vis_font_path", "", "font for drawing text (default: Noto Sans CJK if installed)");
  f.add_bool("visualize", true,
             "write the visualisation image (ocr: off by default when --output_format is given; pass --visualize to "
             "draw it as well)");
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
  read_ocr_param_flags(f, p);
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
  // Another language's set, read once (its files are checked, its inference.yml parsed).
  const std::optional<OcrParams> lang_set =
      lang != langs.front() ? std::optional<OcrParams>(ocr_params_for_lang(lang)) : std::nullopt;
  if (lang_set && !f.was_set("rec_model_dir")) rec.model_dir = lang_set->rec.model_dir;
  auto rs = image_shape(f, "rec_image_shape");
  rec.image_h = rs[1];
  rec.image_w = rs[2];
  rec.workers = thread_count_capped(f, "rec_workers", 0);
  rec.char_dict_path = f.get("rec_char_dict_path");
  // The document set's box threshold goes with the shipped detector.
  if (lang_set && !f.was_set("det_db_box_thresh") && !f.was_set("det_model_dir"))
    p.det.post.box_thresh = lang_set->det.post.box_thresh;
  // The language's word list goes with the language's recognizer only: another
  // model may read other words (or another script).
  if (f.was_set("rec_lexicon"))
    rec.lexicon_path = f.get("rec_lexicon") == "none" ? "" : f.get("rec_lexicon");
  else if (lang_set && !f.was_set("rec_model_dir"))
    rec.lexicon_path = lang_set->rec.lexicon_path;
  // An `ocrforge export` folder brings its dictionary and input shape (explicit flags win).
  apply_rec_export_folder(rec, f.was_set("rec_char_dict_path"), f.was_set("rec_image_shape"));
  apply_rec_checkpoint(rec, f.was_set("rec_char_dict_path"), f.was_set("rec_image_shape"));

  auto& cls = p.cls;
  cls.model_dir = f.get("cls_model_dir");
  auto cs = image_shape(f, "cls_image_shape");
  cls.image_h = cs[1];
  cls.image_w = cs[2];
  cls.label_list = parse_string_list(f.get("label_list"));

  f.get_int_at_least("warmup_runs", 0);  // checked here so a bad value fails before any model loads
  image_read_params_from_flags(f);
  return p;
}

}  // namespace ocrforge
