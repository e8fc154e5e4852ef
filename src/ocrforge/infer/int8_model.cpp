// The int8 model cache (int8_model.h).
#include "ocrforge/infer/int8_model.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/core/sha256.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/infer/install_dirs.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/onnx/onnx_quantize.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

fs::path executable_dir() {
  const std::string exe = executable_path();
  return exe.empty() ? fs::path() : fs::path(exe).parent_path();
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// The rule per model kind, chosen by measurement (docs/benchmarks.md,
// "INT8"; IC15 crops 1-4000 for rec, det_toy + SROIE + FUNSD for det):
//  - rec: MatMuls only (dynamic), its classifier included: -0.15 points of
//    accuracy. Its convs stay fp32: static int8 convs cost 0.8-1.2 points
//    whichever of the first 6-10 pointwise convs were kept fp32 (each of the
//    first three alone cost 4-9 points), and dynamic ConvInteger ran 2.8x
//    slower than fp32 and lost 4 points.
//  - det: static convs with the first six pointwise convs fp32: hmean within
//    0.12 points of fp32 or above it on the three sets (with every conv int8
//    SROIE lost 1.4 points; with two kept, det_toy lost 9.7).
QuantizeParams quantize_params(const std::string& role) {
  QuantizeParams p;
  if (role == "rec") {
    p.conv = QuantizeParams::ConvMode::Keep;
    p.keep_output_layers = false;
  } else {
    p.conv = QuantizeParams::ConvMode::Static;
    p.keep_leading_convs = 6;
  }
  return p;
}

// Everything besides the source model that decides the int8 file's bytes.
std::string rule_text(const QuantizeParams& p) {
  std::ostringstream os;
  os << "weights=" << int8_weights_name(p.weights) << " conv=" << static_cast<int>(p.conv)
     << " matmul=" << p.matmul << " in=" << p.keep_input_layers
     << " out=" << p.keep_output_layers << " grouped=" << p.keep_grouped_convs << " pooled=" << p.keep_pooled_convs
     << " leading=" << p.keep_leading_convs;
  for (const auto& k : p.keep_fp32) os << " keep=" << k;
  return os.str();
}

// Digest of the calibration images of `role` (names and bytes, in name order).
std::string calibration_key(const std::string& dir, const std::string& role, const std::string& rule) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / role, ec))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Sha256 h;
  h.update(rule.data(), rule.size());
  for (const auto& f : files) {
    const std::string name = f.filename().string() + "\n" + sha256_file(f.string()) + "\n";
    h.update(name.data(), name.size());
  }
  return h.hex_digest().substr(0, 12);
}

// A blocking flock on <file>.lock, so two processes never make the same
// int8 file at once (the second waits, then finds it made).
class BuildLock {
 public:
  explicit BuildLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error("cannot create the int8 cache lock '" + path + "': check that the folder is writable");
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) throw Error("cannot lock '" + path + "'");
    }
  }
  ~BuildLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  BuildLock(const BuildLock&) = delete;
  BuildLock& operator=(const BuildLock&) = delete;

 private:
  int fd_ = -1;
};

std::string read_small_file(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// The cached file is usable when its digest is the one recorded beside it.
bool cached_file_ok(const std::string& model, const std::string& digest_file, std::string* why) {
  std::error_code ec;
  if (!fs::exists(model, ec)) {
    *why = "not made yet";
    return false;
  }
  const std::string want = read_small_file(digest_file);
  if (want.size() != 64) {
    *why = "its digest file is missing";
    return false;
  }
  if (sha256_file(model) != want) {
    *why = "its content does not match its digest (corrupt)";
    return false;
  }
  return true;
}

std::string megabytes(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace

std::map<std::string, ActivationRange> calibrate_ranges(const std::string& fp32_model,
                                                        const std::vector<std::string>& tensors,
                                                        const std::vector<CalibrationInput>& inputs,
                                                        const RuntimeParams& rt, const std::string& work_file) {
  write_calibration_model(fp32_model, work_file, tensors);
  RuntimeParams fp32 = rt;
  fp32.precision = "fp32";
  std::map<std::string, ActivationRange> ranges;
  {
    OrtModel m(work_file, fp32, "calibration", "int8 calibration");
    const std::vector<std::string>& names = m.output_names();
    for (const CalibrationInput& in : inputs) {
      const std::vector<TensorView> outs = m.run_all(in.data.data(), in.shape);
      for (size_t i = 0; i < outs.size(); ++i) {
        auto [it, fresh] = ranges.try_emplace(names[i], ActivationRange{std::numeric_limits<float>::max(),
                                                                         std::numeric_limits<float>::lowest()});
        const auto mm = std::minmax_element(outs[i].data, outs[i].data + outs[i].numel());
        if (outs[i].numel() == 0) continue;
        it->second.min = std::min(it->second.min, *mm.first);
        it->second.max = std::max(it->second.max, *mm.second);
      }
    }
  }
  std::error_code ec;
  fs::remove(work_file, ec);
  return ranges;
}

std::string int8_cache_dir(const RuntimeParams& rt) {
  if (!rt.int8_cache_dir.empty()) return rt.int8_cache_dir;
  if (const char* d = env("OCRFORGE_CACHE_DIR")) return (fs::path(d) / "int8").string();
  if (const char* d = env("XDG_CACHE_HOME")) return (fs::path(d) / "ocrforge" / "int8").string();
  if (const char* d = env("HOME")) return (fs::path(d) / ".cache" / "ocrforge" / "int8").string();
  throw Error("--precision int8 needs a cache folder for the int8 models: HOME is not set; set OCRFORGE_CACHE_DIR");
}

std::string int8_calibration_dir(const RuntimeParams& rt) {
  if (!rt.int8_calibration_dir.empty()) return rt.int8_calibration_dir;
  const fs::path exe = executable_dir();
  std::vector<fs::path> candidates = {exe / ".." / "share" / "ocrforge" / "int8_calibration",
                                      exe / ".." / "data" / "int8_calibration"};
  for (const std::string& d : located_data_dirs()) candidates.push_back(fs::path(d) / "int8_calibration");
  candidates.push_back(fs::path("data") / "int8_calibration");
  candidates.push_back(fs::path(configured_data_dir()) / "int8_calibration");
  for (const fs::path& c : candidates) {
    std::error_code ec;
    if (fs::is_directory(c / "det", ec)) return fs::weakly_canonical(c).string();
  }
  return "";
}

Int8Plan int8_plan(const std::string& role, const RuntimeParams& rt, const CpuFeatures& cpu) {
  Int8Plan plan;
  const std::string kind = int8_cpu_kind(cpu);
  if (rt.int8_scheme != "auto") {
    plan.weights = int8_weights_from_name(rt.int8_scheme);
    plan.why = kind + ": " + role + " weights " + rt.int8_scheme + " (--int8_scheme)";
    const bool saturating = u8s8_products(cpu) == U8S8Products::SaturateInt16Pairs;
    if (plan.weights == Int8Weights::Signed8 && saturating)
      plan.why += "; warning: s8 products saturate on this CPU, results will differ from fp32";
    plan.slower_than_fp32 = saturating;
    return plan;
  }
  if (u8s8_products(cpu) == U8S8Products::Exact) {
    plan.weights = Int8Weights::Signed8;
    plan.why = kind + ": " + role + " weights s8";
    return plan;
  }
  // No VNNI: uint8 weights, which ORT multiplies with its widening
  // uint8 x uint8 kernels. Their integers equal those of s8 on a VNNI CPU, so
  // results match the VNNI ones; s7 (7-bit weights) lost more than the gate
  // on one det set. Every scheme ran slower than fp32 here (docs/benchmarks.md
  // "INT8").
  plan.weights = Int8Weights::Unsigned8;
  plan.slower_than_fp32 = true;
  plan.why = kind + ": " + role + " weights u8";
  return plan;
}

Int8Model int8_model(const std::string& fp32_model, const std::string& role, const RuntimeParams& rt,
                     const CalibrationSource& calibration) {
  Int8Model out;
  out.plan = int8_plan(role, rt, cpu_features());
  QuantizeParams rule = quantize_params(role);
  rule.weights = out.plan.weights;
  // Only static convs need calibration images (rec's rule has none).
  const bool calibrated = rule.conv == QuantizeParams::ConvMode::Static;
  std::string calib_dir;
  std::error_code ec;
  if (calibrated) {
    calib_dir = int8_calibration_dir(rt);
    if (calib_dir.empty())
      throw Error("--precision int8: the calibration images were not found (data/int8_calibration in the source "
                  "tree, share/ocrforge/int8_calibration when installed); pass --int8_calibration_dir");
    if (!fs::is_directory(fs::path(calib_dir) / role, ec))
      throw Error("--precision int8: calibration folder '" + calib_dir + "' has no " + role + "/ sub-folder of images");
  }
  const std::string source_sha = sha256_file(fp32_model);
  const std::string key = role + "-" + source_sha + "-" + kOnnxQuantizerVersion + "-" +
                          int8_weights_name(rule.weights) + "-" +
                          (calibrated ? calibration_key(calib_dir, role, rule_text(rule))
                                      : sha256_hex(rule_text(rule)).substr(0, 12));
  const fs::path dir = int8_cache_dir(rt);
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec))
    throw Error("cannot create the int8 cache folder '" + dir.string() +
                "': set OCRFORGE_CACHE_DIR (or --int8_cache_dir) to a writable folder");
  out.path = (dir / (key + ".onnx")).string();
  const std::string digest_file = out.path + ".sha256";
  std::string why;
  if (cached_file_ok(out.path, digest_file, &why)) return out;  // the common case: no lock needed to read
  BuildLock lock((dir / ("." + key + ".lock")).string());
  if (cached_file_ok(out.path, digest_file, &why)) return out;  // another process made it while we waited
  Stopwatch sw;
  std::fprintf(stderr, "int8: making the int8 form of %s model '%s' (%s; %s) ...\n", role.c_str(),
               fp32_model.c_str(), why.c_str(), out.plan.why.c_str());
  QuantizeParams params = rule;
  const std::vector<std::string> tensors = calibration_tensors(fp32_model, params);
  if (calibrated && !tensors.empty()) {
    const std::vector<CalibrationInput> inputs = calibration(calib_dir);
    if (inputs.empty())
      throw Error("--precision int8: no usable calibration images in '" + (fs::path(calib_dir) / role).string() + "'");
    params.ranges = calibrate_ranges(fp32_model, tensors, inputs, rt, (dir / ("." + key + ".calibration.onnx")).string());
  }
  const std::map<std::string, std::string> metadata = {{"ocrforge.int8.source_sha256", source_sha},
                                                       {"ocrforge.int8.quantizer", kOnnxQuantizerVersion},
                                                       {"ocrforge.int8.rule", rule_text(rule)}};
  const QuantizeReport report = quantize_onnx_model(fp32_model, out.path, params, metadata);
  write_file_atomic(digest_file, sha256_file(out.path) + "\n");
  out.built = true;
  out.summary = std::to_string(report.convs_quantized) + " convs + " + std::to_string(report.matmuls_quantized) +
                " MatMuls int8, " + std::to_string(report.kept_fp32.size()) + " weighted layers fp32; " +
                megabytes(report.bytes_before) + " -> " + megabytes(report.bytes_after);
  std::fprintf(stderr, "int8: %s in %.1f s -> %s\n", out.summary.c_str(), sw.elapsed_ms() / 1000.0, out.path.c_str());
  // Accuracy was measured against fp32 for the default PP-OCRv4 models only.
  static const char* measured[] = {"30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff",   // det
                                   "06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0"};  // rec
  if (std::find(std::begin(measured), std::end(measured), source_sha) == std::end(measured))
    std::fprintf(stderr,
                 "int8: note: this model's int8 accuracy was not measured here (the default PP-OCRv4 det / rec "
                 "were: docs/benchmarks.md); compare it with fp32 on your data (ocrforge eval-det, infer rec)\n");
  return out;
}

}  // namespace ocrforge
