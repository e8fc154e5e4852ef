// Pretrained weights and freezing of a distillation member (distill_member.h).
#include "ocrforge/train/tasks/distill/distill_member.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint_part.h"

namespace ocrforge {

PretrainedReport DistillMember::load_pretrained(const std::string& path, const std::string& key_prefix) {
  return load_pretrained_part(path, *module(), key_prefix);
}

std::string prepare_distill_member(DistillMember& m, bool warn_random_frozen, std::vector<std::string>* warnings) {
  const DistillMemberSpec& spec = m.spec;
  torch::nn::Module& member = *m.module();
  std::string what;
  if (!spec.pretrained.empty()) {
    const PretrainedReport r = m.load_pretrained(spec.pretrained, spec.name + ".");
    what += ", " + std::to_string(r.loaded.size()) + " tensors from " + spec.pretrained;
    const size_t bad = r.missing.size() + r.shape_mismatch.size();
    if (bad > 0 && spec.freeze_params)
      throw UsageError(spec.path + ".pretrained: '" + spec.pretrained + "' lacks " + std::to_string(bad) +
                       " of this frozen model's tensors (e.g. " +
                       (r.missing.empty() ? r.shape_mismatch.front() : r.missing.front()) +
                       "); a frozen model must be complete. Give the checkpoint of the same architecture");
    if (bad > 0)
      warnings->push_back(spec.path + ".pretrained: " + std::to_string(r.missing.size()) + " tensors missing, " +
                          std::to_string(r.shape_mismatch.size()) + " of another shape (kept their initial values)");
  } else if (spec.freeze_params && warn_random_frozen) {
    warnings->push_back(spec.path + ": frozen (freeze_params: true) without pretrained weights: it keeps its random "
                        "initial weights; give it a trained model with " + spec.path + ".pretrained=<checkpoint>");
  }
  if (spec.freeze_params) {
    for (auto& p : member.parameters()) p.set_requires_grad(false);
    what += ", frozen (weights fixed, runs in eval mode)";
  }
  return what;
}

}  // namespace ocrforge
