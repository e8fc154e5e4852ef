#include "ocrforge/core/model_type.h"
#include "ocrforge/tipc/tipc_prepare.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/core/text.h"
#include "ocrforge/synth/synth.h"
#include "ocrforge/tipc/tipc_lmdb.h"
#include "ocrforge/tipc/tipc_plan.h"

namespace fs = std::filesystem;

namespace ocrforge {

int TipcPrepareReport::missing() const {
  int n = 0;
  for (const auto& i : items) n += i.status == "missing" ? 1 : 0;
  return n;
}

namespace {

const TipcEntry* find_in(const TipcConfig& c, const char* section, const std::string& key) {
  const TipcSection* s = c.section(section);
  return s ? s->find(key) : nullptr;
}

// The training config and `-o` overrides of the first PaddleOCR command that
// names one: the trainer, else the exports (whole_infer files have no trainer).
struct TrainCommand {
  std::string yml;
  std::vector<std::string> overrides;
};

TrainCommand training_command(const TipcConfig& c) {
  const std::pair<const char*, const char*> slots[] = {
      {"train_params", "norm_train"}, {"infer_params", "norm_export"}, {"infer_params", "infer_export"}};
  for (const auto& [section, key] : slots) {
    const TipcEntry* e = find_in(c, section, key);
    if (!e || tipc_null(e->value)) continue;
    const std::vector<std::string> w = split_whitespace(e->value);
    TrainCommand t;
    for (size_t i = 0; i + 1 < w.size(); ++i) {
      if (w[i] == "-c") t.yml = w[i + 1];
      if (w[i] == "-o")
        for (size_t j = i + 1; j < w.size() && w[j].rfind("-", 0) != 0; ++j) t.overrides.push_back(w[j]);
    }
    if (!t.yml.empty()) return t;
  }
  throw Error(c.source() + ": no norm_train / norm_export / infer_export command names a training config (-c FILE)");
}

bool non_empty_dir(const std::string& p) {
  std::error_code ec;
  return fs::is_directory(p, ec) && fs::directory_iterator(p, ec) != fs::directory_iterator();
}

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// What one label file is filled from.
struct Source {
  std::string kind;   // "rec" | "det"
  std::string dict;   // rec: the config's dictionary (synthetic text stays inside it)
  std::string real;   // a real label file (paths relative to its folder), or ""
  int seed = 1;
};

// `n` samples into `label_file`, images under data_dir/<label stem>/, label
// paths relative to data_dir (PaddleOCR joins them). Real samples come from
// the head (training) or the tail (eval) of the real label file, so the two
// never share an image; synthetic ones from different seeds.
std::string make_labels(const std::string& label_file, const std::string& data_dir, int n, bool from_tail,
                        const Source& src) {
  const std::string stem = path_stem(label_file);
  const fs::path images = fs::path(data_dir) / stem;
  std::string lines, origin;
  if (!src.real.empty()) {
    std::vector<std::string> real;
    std::istringstream in(read_all(src.real));
    for (std::string l; std::getline(in, l);)
      if (!trim(l).empty()) real.push_back(l);
    const size_t first = from_tail ? real.size() - static_cast<size_t>(n) : 0;
    fs::create_directories(images);
    for (size_t i = first; i < first + static_cast<size_t>(n); ++i) {
      const size_t tab = real[i].find('\t');
      const std::string rel = real[i].substr(0, tab);
      const std::string name = std::to_string(i) + "_" + path_filename(rel);
      fs::copy_file(fs::path(src.real).parent_path() / rel, images / name, fs::copy_options::overwrite_existing);
      lines += stem + "/" + name + real[i].substr(tab) + "\n";
    }
    origin = std::to_string(n) + " real samples from " + src.real + (from_tail ? " (its last lines)" : " (its first lines)");
  } else {
    SynthReport r;
    if (src.kind == "rec") {
      SynthRecParams p;
      p.common.out_dir = images.string();
      p.common.num = n;
      p.common.seed = static_cast<uint64_t>(src.seed);
      p.common.workers = 1;  // deterministic bytes and no thread spin next to other jobs
      p.common.text.dict_path = src.dict;
      p.common.text.cjk_ratio = 0;
      p.common.text.max_chars = 12;
      r = synth_rec(p);
    } else {
      SynthDetParams p;
      p.common.out_dir = images.string();
      p.common.num = n;
      p.common.seed = static_cast<uint64_t>(src.seed);
      p.common.workers = 1;
      r = synth_det(p);
    }
    std::istringstream in(read_all(r.label_file));
    for (std::string l; std::getline(in, l);)
      if (!l.empty()) lines += stem + "/" + l + "\n";
    origin = std::to_string(n) + " synthetic samples (ocrforge synth " + src.kind + ", seed " + std::to_string(src.seed) + ")";
  }
  const fs::path parent = fs::path(label_file).parent_path();
  if (!parent.empty()) fs::create_directories(parent);
  write_file_atomic(label_file, lines);  // a prepare that is killed leaves no half file that reads as "present"
  return origin + ", images in " + images.string();
}

// Count of the lines of a real label file, 0 when it is not there.
size_t real_lines(const std::string& path) {
  std::ifstream f(path);
  size_t n = 0;
  for (std::string l; std::getline(f, l);) n += trim(l).empty() ? 0 : 1;
  return n;
}

// Image paths (resolved against data_dir) of a label file.
std::vector<std::string> label_images(const std::string& label_file, const std::string& data_dir, const std::string& kind) {
  std::vector<std::string> out;
  if (kind == "rec") {
    for (const RecLabel& l : read_rec_labels(label_file)) out.push_back((fs::path(data_dir) / l.path).string());
  } else {
    for (const DetLabel& l : read_det_labels(label_file)) out.push_back((fs::path(data_dir) / l.path).string());
  }
  return out;
}

bool is_image_path(const std::string& p) {
  const std::string ext = to_lower(fs::path(p).extension().string());
  for (const std::string& e : image_extensions())
    if (ext == e) return true;
  return false;
}

}  // namespace

TipcPrepareReport prepare_tipc(const TipcConfig& c, const TipcPrepareParams& o) {
  require_tipc_mode(o.mode);
  const TrainCommand cmd = training_command(c);
  Config cfg = Config::load_file(cmd.yml);
  for (const std::string& ov : cmd.overrides)
    if (ov.find('=') != std::string::npos) cfg.apply_override(ov);
  const std::string kind = model_type_name(read_model_type(cfg.root()["Architecture"], "Architecture"));
  TipcPrepareReport report;
  const auto add = [&](const std::string& status, const std::string& path, const std::string& detail) {
    report.items.push_back({status, path, detail});
  };

  const bool lite = o.mode.rfind("lite_train", 0) == 0;
  const bool trains = o.mode != "whole_infer";
  const bool whole_infer_images = o.mode.find("whole_infer") != std::string::npos;
  const int n_train = o.num_train > 0 ? o.num_train : kind == "rec" ? (lite ? 64 : 1000) : (lite ? 4 : 64);
  const int n_test = o.num_test > 0 ? o.num_test : kind == "rec" ? (lite ? 16 : 200) : (lite ? 2 : 16);

  Source src;
  src.kind = kind;
  src.dict = cfg.get<std::string>("Global.character_dict_path", "");
  if (!o.real_data.empty()) {
    const std::string real = o.real_data + (kind == "rec" ? "/ic15_rec_train/rec_gt_train.txt" : "/det_toy/det_gt.txt");
    if (real_lines(real) >= static_cast<size_t>(n_train + n_test)) src.real = real;
  }

  // Training and evaluation data.
  std::string eval_labels, eval_dir;
  for (const auto& [section, n, tail] : {std::make_tuple("Train", n_train, false), std::make_tuple("Eval", n_test, true)}) {
    const std::string ds = std::string(section) + ".dataset";
    if (cfg.get<std::string>(ds + ".name", "") == "LMDBDataSet" && cfg.has(ds + ".data_dir")) {
      // PaddleOCR's LMDB recognizers: one environment at data_dir, filled
      // from samples made as for a label file, kept beside it in
      // <data_dir>.samples/ (the images the inference folders take).
      const std::string data_dir = cfg.get<std::string>(ds + ".data_dir", "");
      const fs::path env_dir = fs::path(data_dir).lexically_normal();
      const std::string env = (env_dir.has_filename() ? env_dir : env_dir.parent_path()).string();
      const std::string source = env + ".samples";
      if (std::string(section) == "Eval" && eval_labels.empty()) eval_labels = source + "/labels.txt", eval_dir = source;
      if (non_empty_dir(data_dir)) {
        add("present", data_dir, "an LMDB data set (kept as it is)");
      } else if (!trains && std::string(section) == "Train") {
        continue;
      } else if (kind != "rec") {
        add("missing", data_dir, "ocrforge makes LMDB data for recognition only; put the environments there");
      } else {
        src.seed = o.seed + (tail ? 1000 : 0);
        const std::string origin = make_labels(source + "/labels.txt", source, n, tail, src);
        std::vector<std::pair<std::string, std::string>> samples;
        for (const RecLabel& l : read_rec_labels(source + "/labels.txt")) samples.emplace_back(source + "/" + l.path, l.text);
        write_rec_lmdb(env, samples);
        add("made", data_dir, "an LMDB environment of " + origin);
      }
      continue;
    }
    if (!cfg.has(ds + ".label_file_list")) continue;
    const std::string data_dir = cfg.get<std::string>(ds + ".data_dir", ".");
    int k = 0;
    for (const std::string& file : cfg.require<std::vector<std::string>>(ds + ".label_file_list")) {
      if (std::string(section) == "Eval" && eval_labels.empty()) eval_labels = file, eval_dir = data_dir;
      if (fs::exists(file)) {
        add("present", file, std::to_string(real_lines(file)) + " samples (kept as they are)");
      } else if (!trains && std::string(section) == "Train") {
        continue;  // whole_infer does not train
      } else if (kind != "rec" && kind != "det") {
        add("missing", file, "ocrforge makes rec and det data only (model_type '" + kind + "'); put the labels there");
      } else {
        src.seed = o.seed + (tail ? 1000 : 0) + k++;
        add("made", file, make_labels(file, data_dir, n, tail, src));
      }
    }
  }

  // Inference images: the eval set's pictures (crops for rec, pages for det).
  std::vector<std::string> folders;
  if (const TipcEntry* e = find_in(c, "train_params", "train_infer_img_dir"); e && trains && !tipc_null(e->value))
    folders.push_back(e->value);
  if (const TipcSection* infer = c.section("infer_params")) {
    const int at = infer->index_of("inference");
    for (int i = at < 0 ? 0 : at + 1; at >= 0 && i < static_cast<int>(infer->entries.size()); ++i)
      if (infer->entries[static_cast<size_t>(i)].key == "--image_dir" && !tipc_null(infer->entries[static_cast<size_t>(i)].value))
        folders.push_back(infer->entries[static_cast<size_t>(i)].value);
  }
  const size_t n_images = whole_infer_images ? 16 : 4;
  for (const std::string& folder : folders) {
    bool seen = false;
    for (const auto& it : report.items) seen = seen || it.path == folder;
    if (seen) continue;
    const bool single = is_image_path(folder);
    if (single ? fs::exists(folder) : non_empty_dir(folder)) {
      add("present", folder, single ? "an image" : std::to_string(list_images(folder).size()) + " images (kept as they are)");
      continue;
    }
    if (eval_labels.empty() || !fs::exists(eval_labels)) {
      add("missing", folder, "no evaluation set to take pictures from; put images there");
      continue;
    }
    const std::vector<std::string> pics = label_images(eval_labels, eval_dir, kind);
    if (single) {
      fs::create_directories(fs::path(folder).parent_path());
      fs::copy_file(pics.at(0), folder, fs::copy_options::overwrite_existing);
      add("made", folder, "a copy of " + pics.at(0));
      continue;
    }
    fs::create_directories(folder);
    size_t copied = 0;
    for (; copied < std::min(n_images, pics.size()); ++copied)
      fs::copy_file(pics[copied], fs::path(folder) / (std::to_string(copied) + "_" + path_filename(pics[copied])),
                    fs::copy_options::overwrite_existing);
    add("made", folder, std::to_string(copied) + " images from " + eval_labels);
  }

  // What PaddleOCR downloads and ocrforge cannot make offline.
  if (trains) {
    std::string pretrained = cfg.get<std::string>("Global.pretrained_model", "");
    if (const TipcEntry* e = find_in(c, "train_params", "Global.pretrained_model"); e && !tipc_null(e->value))
      pretrained = e->value;
    if (!pretrained.empty()) {
      const std::string ckpt = ends_with(pretrained, ".ckpt") ? pretrained : pretrained + ".ckpt";
      const std::string pdparams = ends_with(pretrained, ".pdparams") ? pretrained : pretrained + ".pdparams";
      if (fs::exists(ckpt) || fs::exists(pdparams) || fs::exists(pretrained))
        add("present", pretrained, "pretrained weights");
      else
        add("missing", pretrained,
            "PaddleOCR downloads these pretrained weights (nothing is downloaded here): put PaddleOCR's file (" +
                pdparams + ") or an ocrforge checkpoint (" + ckpt +
                ") there, or train from scratch without Global.pretrained_model");
    }
  }
  if (o.mode == "whole_infer") {
    if (const TipcSection* infer = c.section("infer_params")) {
      const int at = infer->index_of("inference_dir");
      const TipcEntry slot = at >= 0 && at + 1 < static_cast<int>(infer->entries.size())
                                 ? infer->entries[static_cast<size_t>(at + 1)]
                                 : TipcEntry{};
      for (const std::string& m : tipc_list(slot.value)) {
        if (fs::exists(m) || fs::exists(m + ".ckpt")) add("present", m, "the model whole_infer reads");
        else
          add("missing", m,
              "PaddleOCR downloads this trained model; put an ocrforge checkpoint (" + m +
                  ".ckpt) or an exported folder (inference.onnx + inference.yml) there");
      }
    }
  }
  return report;
}

}  // namespace ocrforge
