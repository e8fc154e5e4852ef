#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/checkpoint_part.h"
#include "ocrforge/train/loop/checkpoint_weight_names.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/fnv1a.h"
#include "ocrforge/core/json_bounded.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/loop/pdparams_weights.h"

namespace fs = std::filesystem;

namespace ocrforge {

static const char kMagic[] = "OCRFCKPT1\n";
static const char kIntegrityTag[] = "fnv1a64 ";

// Every way a file can be damaged ends in this one message: what to do is
// the same whatever the byte that changed.
[[noreturn]] static void damaged(const std::string& path, const std::string& detail) {
  throw Error("damaged checkpoint '" + path + "' (" + detail +
              "); use another (e.g. best_accuracy / iter_epoch_N, or latest from before the damage)");
}

// The first line of a library message (c10 errors append a C++ stack trace).
static std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string checkpoint_path(const std::string& prefix) {
  return ends_with(prefix, ".ckpt") ? prefix : prefix + ".ckpt";
}

bool is_inference_onnx_file(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

std::string weights_path(const std::string& prefix) {
  if (is_inference_onnx_file(prefix)) return prefix;
  const std::string pd = pdparams_file(prefix);
  return pd.empty() ? checkpoint_path(prefix) : pd;
}

std::string resolve_checkpoint(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const char* name : {"best_accuracy.ckpt", "latest.ckpt"})
      if (fs::exists(fs::path(path) / name, ec)) return (fs::path(path) / name).string();
    throw Error("folder '" + path + "' holds no best_accuracy.ckpt or latest.ckpt");
  }
  return checkpoint_path(path);
}

std::map<std::string, torch::Tensor> model_state(torch::nn::Module& model) {
  std::map<std::string, torch::Tensor> out;
  for (const auto& p : model.named_parameters()) out[p.key()] = p.value();
  for (const auto& b : model.named_buffers()) out[b.key()] = b.value();
  return out;
}

static void append_block(std::string& out, const std::string& bytes) {
  uint64_t n = bytes.size();
  char len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
  out.append(len, 8);
  out += bytes;
}

// The fourth block: "fnv1a64 <16 hex digits>" of every byte before it (magic,
// the three blocks and their lengths), so one flipped byte anywhere is seen.
static std::string integrity_block(const std::string& before) {
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(fnv1a64(before.data(), before.size())));
  return std::string(kIntegrityTag) + hex;
}

void save_checkpoint(const std::string& prefix, torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                     const CheckpointData& data) {
  nlohmann::json header = {{"epoch", data.progress.epoch},
                           {"global_step", data.progress.global_step},
                           {"best_metric", data.progress.best_metric},
                           {"best_epoch", data.progress.best_epoch},
                           {"main_indicator", data.progress.main_indicator},
                           {"architecture", data.architecture},
                           {"config", data.config_yaml}};
  c10::Dict<std::string, at::Tensor> weights;
  // Contiguous (NCHW) whatever the training memory format: the file reads
  // the same for every consumer (Python, export, a channels-last model).
  for (auto& [k, v] : model_state(model)) weights.insert(k, v.detach().cpu().contiguous());
  const std::vector<char> model_bytes = torch::pickle_save(c10::IValue(weights));
  std::string opt_bytes;
  if (optimizer) {
    torch::serialize::OutputArchive archive;
    optimizer->save(archive);
    archive.save_to([&](const void* buf, size_t n) {
      opt_bytes.append(static_cast<const char*>(buf), n);
      return n;
    });
  }
  std::string file(kMagic);
  append_block(file, header.dump());
  append_block(file, std::string(model_bytes.begin(), model_bytes.end()));
  append_block(file, opt_bytes);
  append_block(file, integrity_block(file));
  const std::string path = checkpoint_path(prefix);
  // Only this process saves this name (rank 0): any temp file beside it is
  // from a save that was killed (kill -9, OOM, power cut).
  remove_stale_temp_files(path);
  write_file_atomic(path, file);
}

struct RawCheckpoint {
  std::string path;
  nlohmann::json header;
  std::vector<char> model;
  std::string optimizer;
};

static RawCheckpoint read_raw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("checkpoint '" + path + "' does not exist: check Global.checkpoints / Global.pretrained_model");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  const size_t magic = std::strlen(kMagic);
  if (s.compare(0, magic, kMagic) != 0) {
    // Our magic with a few bytes changed is damage; anything else is another kind of file.
    size_t same = 0;
    for (size_t i = 0; i < magic && i < s.size(); ++i) same += s[i] == kMagic[i];
    if (same >= magic / 2) damaged(path, "bad header");
    throw Error("'" + path + "' is not an ocrforge checkpoint (no OCRFCKPT1 header)");
  }
  size_t pos = magic;
  auto block = [&]() {
    if (pos + 8 > s.size()) damaged(path, "truncated: " + std::to_string(s.size()) + " bytes");
    uint64_t n = 0;
    for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(static_cast<unsigned char>(s[pos + i])) << (8 * i);
    pos += 8;
    if (n > s.size() - pos) damaged(path, "truncated or a damaged block length");
    std::string b = s.substr(pos, n);
    pos += n;
    return b;
  };
  RawCheckpoint raw;
  const std::string header = block();
  const std::string m = block();
  raw.optimizer = block();
  const size_t hashed = pos;
  if (pos == s.size()) {
    // Written before integrity blocks existed: still loads, unchecked.
    std::fprintf(stderr, "warning: checkpoint '%s' has no integrity hash (written by an older ocrforge); "
                 "loading it unchecked\n", path.c_str());
  } else {
    const std::string tag = block();
    if (pos != s.size()) damaged(path, std::to_string(s.size() - pos) + " unexpected bytes at the end");
    if (tag != integrity_block(s.substr(0, hashed))) damaged(path, "content hash mismatch");
  }
  try {
    raw.header = parse_json_bounded(header);
  } catch (const std::exception& e) {
    damaged(path, "unreadable JSON header: " + first_line(e.what()));
  }
  if (!raw.header.is_object()) damaged(path, "the JSON header is not an object");
  raw.model.assign(m.begin(), m.end());
  raw.path = path;
  return raw;
}

static std::map<std::string, torch::Tensor> weights_of(const RawCheckpoint& raw) {
  std::map<std::string, torch::Tensor> out;
  try {
    auto dict = torch::pickle_load(raw.model).toGenericDict();
    for (const auto& e : dict) out[e.key().toStringRef()] = e.value().toTensor();
  } catch (const std::exception& e) {
    damaged(raw.path, "unreadable weights: " + first_line(e.what()));
  }
  return out;
}

static std::string list(const std::vector<std::string>& v, size_t max = 8) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < max; ++i) s += (i ? ", " : "") + v[i];
  if (v.size() > max) s += ", ... (" + std::to_string(v.size()) + " in all)";
  return s;
}

static PretrainedReport copy_weights(const std::map<std::string, torch::Tensor>& src, torch::nn::Module& model) {
  PretrainedReport r;
  torch::NoGradGuard no_grad;
  auto dst = model_state(model);
  for (auto& [name, tensor] : dst) {
    auto it = src.find(name);
    if (it == src.end()) {
      r.missing.push_back(name);
    } else if (it->second.sizes() != tensor.sizes()) {
      std::ostringstream os;
      os << name << " " << it->second.sizes() << " vs model " << tensor.sizes();
      r.shape_mismatch.push_back(os.str());
    } else {
      tensor.copy_(it->second);
      r.loaded.push_back(name);
    }
  }
  for (const auto& [name, t] : src)
    if (!dst.count(name)) r.unexpected.push_back(name);
  return r;
}

// Every missing key, unexpected key and shape mismatch in one Error.
static void require_fit(const std::string& path, const std::map<std::string, torch::Tensor>& src,
                        torch::nn::Module& model, const std::string& architecture) {
  auto dst = model_state(model);
  std::vector<std::string> missing, unexpected, mismatch;
  for (const auto& [name, t] : dst) {
    auto it = src.find(name);
    if (it == src.end()) missing.push_back(name);
    else if (it->second.sizes() != t.sizes()) mismatch.push_back(name);
  }
  for (const auto& [name, t] : src)
    if (!dst.count(name)) unexpected.push_back(name);
  if (!missing.empty() || !unexpected.empty() || !mismatch.empty())
    throw Error("checkpoint '" + path + "' does not fit this model (a different architecture?): " +
                (missing.empty() ? "" : "missing keys: " + list(missing) + "; ") +
                (unexpected.empty() ? "" : "unexpected keys: " + list(unexpected) + "; ") +
                (mismatch.empty() ? "" : "shape mismatches: " + list(mismatch) + "; ") +
                "checkpoint architecture: " + architecture);
}

CheckpointData load_checkpoint(const std::string& prefix, torch::nn::Module& model, torch::optim::Optimizer* optimizer) {
  const std::string pdparams = pdparams_file(prefix);
  if (!pdparams.empty()) {
    const auto src = pdparams_as_model_state(pdparams, model);
    require_fit(pdparams, src, model, "a PaddlePaddle .pdparams file (Paddle names, mapped as in docs/pdparams.md)");
    copy_weights(src, model);
    std::fprintf(stderr, "note: '%s' holds weights only: the optimizer and the epoch count start fresh "
                 "(PaddleOCR's .pdopt and .states are not read)\n", pdparams.c_str());
    CheckpointData d;
    d.progress.main_indicator.clear();  // not in the file: the caller keeps its own
    return d;
  }
  const std::string path = checkpoint_path(prefix);
  RawCheckpoint raw = read_raw(path);
  // Check everything before touching the model, so a bad file changes nothing.
  auto src = weights_of(raw);
  require_fit(path, src, model, raw.header.value("architecture", std::string("?")));
  // The optimizer archive is parsed before the model is touched too: an
  // unreadable one (an old file without the hash, damaged) changes nothing.
  torch::serialize::InputArchive archive;
  const bool with_optimizer = optimizer && !raw.optimizer.empty();
  if (with_optimizer) {
    try {
      archive.load_from(raw.optimizer.data(), raw.optimizer.size());
    } catch (const std::exception& e) {
      damaged(path, "unreadable optimizer state: " + first_line(e.what()));
    }
  }
  copy_weights(src, model);
  if (with_optimizer) optimizer->load(archive);
  CheckpointData d;
  d.progress.epoch = raw.header.value("epoch", 0);
  d.progress.global_step = raw.header.value("global_step", 0L);
  d.progress.best_metric = raw.header.value("best_metric", -1.0);
  d.progress.best_epoch = raw.header.value("best_epoch", 0);
  d.progress.main_indicator = raw.header.value("main_indicator", std::string("acc"));
  d.config_yaml = raw.header.value("config", std::string());
  d.architecture = raw.header.value("architecture", std::string());
  return d;
}

std::vector<std::string> checkpoint_weight_names(const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& [name, tensor] : weights_of(read_raw(checkpoint_path(prefix)))) names.push_back(name);
  return names;
}

std::string read_checkpoint_config(const std::string& prefix) {
  return read_raw(checkpoint_path(prefix)).header.value("config", std::string());
}

PretrainedReport load_pretrained(const std::string& prefix, torch::nn::Module& model) {
  const std::string pdparams = pdparams_file(prefix);
  if (!pdparams.empty()) return copy_weights(pdparams_as_model_state(pdparams, model), model);
  RawCheckpoint raw = read_raw(checkpoint_path(prefix));
  return copy_weights(weights_of(raw), model);
}

PretrainedReport load_pretrained_part(const std::string& prefix, torch::nn::Module& part, const std::string& key_prefix) {
  const std::string pdparams = pdparams_file(prefix);
  if (!pdparams.empty()) return copy_weights(pdparams_as_model_state(pdparams, part, key_prefix), part);
  const std::map<std::string, torch::Tensor> all = weights_of(read_raw(checkpoint_path(prefix)));
  std::map<std::string, torch::Tensor> mine;
  for (const auto& [name, t] : all)
    if (name.rfind(key_prefix, 0) == 0) mine[name.substr(key_prefix.size())] = t;
  return copy_weights(mine.empty() ? all : mine, part);
}

}  // namespace ocrforge
