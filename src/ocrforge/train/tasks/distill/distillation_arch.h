// `Architecture: {algorithm: Distillation, Models: {Teacher: ..., Student: ...}}`
// (PaddleOCR's DistillationModel): several complete models trained side by
// side, each described by its own Architecture-like section. Torch-free, so
// the exporter and the config checker can read it cheaply.
//
// Per model, besides its network keys (Backbone / Neck / Head, or
// algorithm: ONNX + onnx_model):
//   pretrained        weights for this model alone (a checkpoint prefix; a
//                     distillation checkpoint's "<Name>." keys or a plain one)
//   freeze_params     keep its weights fixed (it runs in eval mode: batch-norm
//                     statistics and dropout fixed too)
//   return_all_feats  accepted; every model always returns backbone_out,
//                     neck_out and head_out here
//   character_dict_path / use_space_char   (ocrforge) the model's own
//                     dictionary when it differs from Global's, e.g. a
//                     Chinese teacher for an English student; losses that
//                     compare the two then use the characters both know.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config_reads.h"
#include "ocrforge/core/model_type.h"
#include "ocrforge/core/error.h"

namespace ocrforge {

struct DistillMemberSpec {
  std::string name;        // the key under Models: "Teacher", "Student", "Student2"
  std::string path;        // "Architecture.Models.Teacher", for messages
  YAML::Node arch;         // the model's own network section (member-only keys removed)
  bool onnx = false;       // algorithm: ONNX
  bool freeze_params = false;
  std::string pretrained;  // "" = none
  std::string character_dict_path;    // "" = Global's
  std::optional<bool> use_space_char; // unset = Global's
};

struct DistillArchSpec {
  ModelType model_type = ModelType::Rec;  // rec, or det (CML, tasks/distill/det_distill_task.h)
  std::vector<DistillMemberSpec> models;  // in the config's order
  // The member called `name`, or null.
  const DistillMemberSpec* find(const std::string& name) const;
  std::vector<std::string> names() const;
};

// True when Architecture.algorithm is Distillation.
bool is_distillation_architecture(const YAML::Node& architecture);

// Reads and checks the section: UsageError naming the key for a missing or
// empty Models, a member that is not a mapping, or a member whose model_type
// differs from the section's. Each member's network keys are checked later
// by the reader that builds it (rec_arch_from_yaml / onnx_arch_from_yaml).
DistillArchSpec distillation_arch_from_yaml(const YAML::Node& architecture);

// Runs `build` (which reads a member's network section and reports keys as
// "Architecture.<key>") and rewrites the key paths in its UsageError, and
// those it records as read (core/config_reads.h), to the member's
// ("Architecture.Models.Student.<key>").
template <typename F>
auto under_member(const DistillMemberSpec& m, F&& build) -> decltype(build());

// Implementation detail of under_member: throws UsageError(message with the
// member's key path).
[[noreturn]] void rethrow_under_member(const DistillMemberSpec& m, const std::string& message);

template <typename F>
auto under_member(const DistillMemberSpec& m, F&& build) -> decltype(build()) {
  const ConfigReadRebase rebase("Architecture", m.path);  // the keys it reads are the member's
  try {
    return build();
  } catch (const UsageError& e) {
    rethrow_under_member(m, e.what());
  }
}

}  // namespace ocrforge
