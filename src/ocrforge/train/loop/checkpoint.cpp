#include "ocrforge/train/loop/checkpoint.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

static const char kMagic[] = "OCRFCKPT1\n";

std::string checkpoint_path(const std::string& prefix) {
  return ends_with(prefix, ".ckpt") ? prefix : prefix + ".ckpt";
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
  write_file_atomic(checkpoint_path(prefix), file);
}

struct RawCheckpoint {
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
  if (s.compare(0, magic, kMagic) != 0) throw Error("'" + path + "' is not an ocrforge checkpoint (bad header)");
  size_t pos = magic;
  auto block = [&]() {
    if (pos + 8 > s.size()) throw Error("checkpoint '" + path + "' is truncated");
    uint64_t n = 0;
    for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(static_cast<unsigned char>(s[pos + i])) << (8 * i);
    pos += 8;
    if (pos + n > s.size()) throw Error("checkpoint '" + path + "' is truncated");
    std::string b = s.substr(pos, n);
    pos += n;
    return b;
  };
  RawCheckpoint raw;
  raw.header = nlohmann::json::parse(block());
  const std::string m = block();
  raw.model.assign(m.begin(), m.end());
  raw.optimizer = block();
  return raw;
}

static std::map<std::string, torch::Tensor> weights_of(const RawCheckpoint& raw) {
  std::map<std::string, torch::Tensor> out;
  auto dict = torch::pickle_load(raw.model).toGenericDict();
  for (const auto& e : dict) out[e.key().toStringRef()] = e.value().toTensor();
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

CheckpointData load_checkpoint(const std::string& prefix, torch::nn::Module& model, torch::optim::Optimizer* optimizer) {
  const std::string path = checkpoint_path(prefix);
  RawCheckpoint raw = read_raw(path);
  // Check everything before touching the model, so a bad file changes nothing.
  auto src = weights_of(raw);
  {
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
                  "checkpoint architecture: " + raw.header.value("architecture", std::string("?")));
  }
  copy_weights(src, model);
  if (optimizer && !raw.optimizer.empty()) {
    torch::serialize::InputArchive archive;
    archive.load_from(raw.optimizer.data(), raw.optimizer.size());
    optimizer->load(archive);
  }
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

std::string read_checkpoint_config(const std::string& prefix) {
  return read_raw(checkpoint_path(prefix)).header.value("config", std::string());
}

PretrainedReport load_pretrained(const std::string& prefix, torch::nn::Module& model) {
  RawCheckpoint raw = read_raw(checkpoint_path(prefix));
  return copy_weights(weights_of(raw), model);
}

}  // namespace ocrforge
