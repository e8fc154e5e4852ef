// load_checkpoint_ctc_branch (checkpoint_ctc_branch.h).
#include "ocrforge/train/tasks/rec/checkpoint_ctc_branch.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint.h"

namespace ocrforge {

namespace {

// A key of a MultiHead's training-only branch: SAR (sar_head.*) or NRTR
// (before_gtc.*, gtc_head.*), at the top or below a distillation member.
bool guide_key(const std::string& k) {
  for (const char* part : {"sar_head.", "before_gtc.", "gtc_head."})
    if (k.rfind(part, 0) == 0 || k.find(std::string(".") + part) != std::string::npos) return true;
  return false;
}

std::string listed(const std::vector<std::string>& keys) {
  std::string s;
  for (size_t i = 0; i < keys.size() && i < 8; ++i) s += (i ? ", " : "") + keys[i];
  if (keys.size() > 8) s += ", ... (" + std::to_string(keys.size()) + " in all)";
  return s;
}

}  // namespace

void load_checkpoint_ctc_branch(const std::string& prefix, torch::nn::Module& model) {
  const PretrainedReport r = load_pretrained(prefix, model);
  std::vector<std::string> missing, unexpected;
  for (const auto& k : r.missing)
    if (!guide_key(k)) missing.push_back(k);
  for (const auto& k : r.unexpected)
    if (!guide_key(k)) unexpected.push_back(k);
  if (missing.empty() && unexpected.empty() && r.shape_mismatch.empty()) return;
  throw Error("checkpoint '" + weights_path(prefix) + "' does not fit this model (a different architecture?): " +
              (missing.empty() ? "" : "missing keys: " + listed(missing) + "; ") +
              (unexpected.empty() ? "" : "unexpected keys: " + listed(unexpected) + "; ") +
              (r.shape_mismatch.empty() ? "" : "shape mismatches: " + listed(r.shape_mismatch)));
}

}  // namespace ocrforge
