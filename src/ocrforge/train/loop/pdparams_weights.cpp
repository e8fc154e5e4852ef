#include "ocrforge/train/loop/pdparams_weights.h"

#include <cstring>
#include <filesystem>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/core/pdparams.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/nn/paddle_names.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

constexpr const char* kPdparams = ".pdparams";

// How one LibTorch state entry is stored in a .pdparams file.
struct PaddleSlot {
  std::string name;        // Paddle's name; "" = no counterpart (num_batches_tracked)
  bool transposed = false; // a Linear weight: [in, out] in Paddle
};

// Renames the tail of `name` when it ends with `from`.
bool replace_suffix(std::string& name, const std::string& from, const std::string& to) {
  if (!ends_with(name, from)) return false;
  name = name.substr(0, name.size() - from.size()) + to;
  return true;
}

// A name prefix (at some module's path) that PaddleOCR spells otherwise (nn/paddle_names.h).
struct PrefixRename {
  std::string path;                                           // the module's path, "" or "Student."
  std::vector<std::pair<std::string, std::string>> prefixes;  // relative to it
};

// `name` with the first matching rename of the deepest module that holds it.
std::string paddle_prefixed(const std::string& name, const std::vector<PrefixRename>& renames) {
  const PrefixRename* best = nullptr;
  for (const auto& r : renames)
    if (name.rfind(r.path, 0) == 0 && (!best || r.path.size() > best->path.size())) best = &r;
  if (!best) return name;
  const std::string tail = name.substr(best->path.size());
  for (const auto& [from, to] : best->prefixes)
    if (tail.rfind(from, 0) == 0) return best->path + to + tail.substr(from.size());
  return name;
}

std::map<std::string, PaddleSlot> paddle_slots(torch::nn::Module& model) {
  std::set<std::string> linear_weights;
  std::map<std::string, bool> lstm_bidirectional;  // module path -> bidirectional
  std::vector<PrefixRename> renames;
  auto visit = [&](const std::string& path, torch::nn::Module* m) {
    if (dynamic_cast<torch::nn::LinearImpl*>(m)) linear_weights.insert(path + "weight");
    if (auto* lstm = dynamic_cast<torch::nn::LSTMImpl*>(m)) lstm_bidirectional[path] = lstm->options.bidirectional();
    if (const auto* named = dynamic_cast<const PaddleNames*>(m)) {
      auto prefixes = named->paddle_prefixes();
      if (!prefixes.empty()) renames.push_back({path, std::move(prefixes)});
    }
  };
  // The model itself apart: it need not live in a shared_ptr (named_modules' own entry requires one).
  visit("", &model);
  for (const auto& m : model.named_modules("", /*include_self=*/false)) visit(m.key() + ".", m.value().get());
  std::map<std::string, PaddleSlot> slots;
  auto add = [&](const std::string& key) {
    PaddleSlot s{key, linear_weights.count(key) > 0};
    if (ends_with(key, ".num_batches_tracked") || key == "num_batches_tracked") {
      s.name.clear();
    } else if (!replace_suffix(s.name, ".running_mean", "._mean")) {
      replace_suffix(s.name, ".running_var", "._variance");
    }
    // LSTM: <path>{weight,bias}_{ih,hh}_l<k>[_reverse] -> <path><k>.cell_{fw,bw}|cell.<...>_{ih,hh}
    for (const auto& [path, bidirectional] : lstm_bidirectional) {
      if (key.compare(0, path.size(), path) != 0) continue;
      const std::string tail = key.substr(path.size());
      const size_t l = tail.find("_l");
      if (l == std::string::npos) continue;
      const bool reverse = ends_with(tail, "_reverse");
      const std::string layer = tail.substr(l + 2, tail.size() - l - 2 - (reverse ? 8 : 0));
      const std::string cell = !bidirectional ? "cell" : reverse ? "cell_bw" : "cell_fw";
      s.name = path + layer + "." + cell + "." + tail.substr(0, l);
    }
    if (!s.name.empty()) s.name = paddle_prefixed(s.name, renames);
    slots[key] = s;
  };
  for (const auto& p : model.named_parameters()) add(p.key());
  for (const auto& b : model.named_buffers()) add(b.key());
  return slots;
}

c10::ScalarType torch_dtype(PdDtype d) {
  switch (d) {
    case PdDtype::Float32: return torch::kFloat;
    case PdDtype::Float64: return torch::kDouble;
    case PdDtype::Float16: return torch::kHalf;
    case PdDtype::Int64: return torch::kLong;
    case PdDtype::Int32: return torch::kInt;
    case PdDtype::Int16: return torch::kShort;
    case PdDtype::Int8: return torch::kChar;
    case PdDtype::UInt8: return torch::kByte;
    case PdDtype::UInt16: return torch::kBFloat16;  // Paddle's bfloat16 reaches numpy as uint16 bits
    case PdDtype::Bool: return torch::kBool;
  }
  return torch::kFloat;
}

torch::Tensor to_torch(const PdTensor& t) {
  auto tensor = torch::empty(t.shape, torch::TensorOptions().dtype(torch_dtype(t.dtype)));
  if (!t.data.empty()) std::memcpy(tensor.data_ptr(), t.data.data(), t.data.size());
  return tensor;
}

PdTensor to_pd(const torch::Tensor& t) {
  PdTensor p;
  const torch::Tensor c = t.detach().cpu().contiguous();
  switch (c.scalar_type()) {
    case torch::kFloat: p.dtype = PdDtype::Float32; break;
    case torch::kDouble: p.dtype = PdDtype::Float64; break;
    case torch::kHalf: p.dtype = PdDtype::Float16; break;
    case torch::kLong: p.dtype = PdDtype::Int64; break;
    case torch::kInt: p.dtype = PdDtype::Int32; break;
    case torch::kByte: p.dtype = PdDtype::UInt8; break;
    case torch::kBool: p.dtype = PdDtype::Bool; break;
    case torch::kBFloat16: p.dtype = PdDtype::UInt16; break;
    default: throw Error(std::string("no .pdparams dtype for ") + c10::toString(c.scalar_type()));
  }
  p.shape = c.sizes().vec();
  p.data.assign(static_cast<const char*>(c.data_ptr()), c.numel() * c.element_size());
  return p;
}

}  // namespace

std::string pdparams_file(const std::string& prefix) {
  if (ends_with(prefix, kPdparams)) return prefix;
  std::error_code ec;
  if (!ends_with(prefix, ".ckpt") && !fs::exists(prefix + ".ckpt", ec) && fs::exists(prefix + kPdparams, ec))
    return prefix + kPdparams;
  return "";
}

std::map<std::string, torch::Tensor> pdparams_as_model_state(const std::string& file,
                                                              torch::nn::Module& model,
                                                              const std::string& key_prefix) {
  PdParams params = read_pdparams(file);
  if (!key_prefix.empty()) {
    PdParams mine;
    for (auto& [name, t] : params)
      if (name.rfind(key_prefix, 0) == 0) mine.emplace_back(name.substr(key_prefix.size()), std::move(t));
    if (!mine.empty()) params = std::move(mine);
  }
  std::map<std::string, const PdTensor*> by_name;
  for (const auto& [name, t] : params) by_name[name] = &t;
  std::map<std::string, torch::Tensor> out;
  std::set<std::string> used;
  std::map<std::string, torch::Tensor> state;
  for (const auto& p : model.named_parameters()) state[p.key()] = p.value();
  for (const auto& b : model.named_buffers()) state[b.key()] = b.value();
  for (const auto& [key, slot] : paddle_slots(model)) {
    if (slot.name.empty()) {
      out[key] = state[key].detach().clone();  // a LibTorch-only counter: unchanged
      continue;
    }
    auto it = by_name.find(slot.name);
    if (it == by_name.end()) continue;
    torch::Tensor t = to_torch(*it->second);
    if (slot.transposed && t.dim() == 2) t = t.t().contiguous();
    out[key] = t;
    used.insert(slot.name);
  }
  for (const auto& [name, t] : params)
    if (!used.count(name)) out[name] = to_torch(t);
  return out;
}

void save_pdparams(const std::string& path, torch::nn::Module& model, int protocol) {
  const auto slots = paddle_slots(model);
  PdParams params;
  auto add = [&](const std::string& key, const torch::Tensor& value) {
    const PaddleSlot& slot = slots.at(key);
    if (slot.name.empty()) return;
    torch::Tensor t = value;
    if (slot.transposed && t.dim() == 2) t = t.t();
    params.emplace_back(slot.name, to_pd(t));
  };
  // Paddle's state_dict order: parameters and buffers as the layers declare them.
  for (const auto& p : model.named_parameters()) add(p.key(), p.value());
  for (const auto& b : model.named_buffers()) add(b.key(), b.value());
  PdParamsWriteOptions options;
  options.protocol = protocol;
  write_pdparams(path, params, options);
}

}  // namespace ocrforge
