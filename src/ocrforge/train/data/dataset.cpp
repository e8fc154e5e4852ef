#include "ocrforge/train/data/dataset.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

Sample Dataset::load_sample_sized(size_t, uint64_t, DataStats*, int height, int width) const {
  throw Error("this data set makes its samples at one input size; a batch of " + std::to_string(height) + " x " +
              std::to_string(width) + " needs a multi-scale data set (MultiScaleDataSet)");
}

const torch::Tensor& Batch::at(const std::string& name) const {
  auto it = tensors.find(name);
  if (it == tensors.end()) throw Error("internal: the batch has no tensor '" + name + "' (check KeepKeys)");
  return it->second;
}

static std::string shape_text(const torch::Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

Batch stack_collate(std::vector<Sample>& samples) {
  Batch b;
  if (samples.empty()) return b;
  for (const auto& [name, first] : samples.front().tensors) {
    std::vector<torch::Tensor> parts;
    parts.reserve(samples.size());
    for (const Sample& s : samples) {
      auto it = s.tensors.find(name);
      if (it == s.tensors.end())
        throw Error("batch: sample " + s.path + " has no tensor '" + name + "' but " + samples.front().path + " has");
      if (!it->second.sizes().equals(first.sizes()))
        throw Error("batch: tensor '" + name + "' is " + shape_text(it->second) + " for " + s.path + " but " +
                    shape_text(first) + " for " + samples.front().path +
                    " (samples of one batch must have one shape; use batch_size_per_card 1 for images of varying size)");
      parts.push_back(it->second);
    }
    b.tensors[name] = torch::stack(parts);
  }
  for (Sample& s : samples) {
    b.texts.push_back(std::move(s.text));
    b.paths.push_back(std::move(s.path));
    b.extras.push_back(std::move(s.extra));
  }
  return b;
}

}  // namespace ocrforge
