// A recognition distillation's inference folders (rec_distill_export.h).
#include "ocrforge/train/tasks/distill/rec_distill_export.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/train/export/inference_folder.h"
#include "ocrforge/train/tasks/distill/rec_distill_task.h"
#include "ocrforge/train/tasks/rec/rec_input_size.h"
#include "ocrforge/train/tasks/rec/rec_model_onnx.h"

namespace ocrforge {

namespace {

// The config a member's inference.yml is written from: its own network
// section, plain CTC decoding, and its dictionary.
Config member_config(const Config& config, const RecDistillMember& m) {
  YAML::Node root = YAML::Clone(config.root());
  root["Architecture"] = YAML::Clone(m.spec.arch);
  YAML::Node post(YAML::NodeType::Map);
  post["name"] = "CTCLabelDecode";
  root["PostProcess"] = post;
  if (!m.spec.character_dict_path.empty()) root["Global"]["character_dict_path"] = m.spec.character_dict_path;
  if (m.spec.use_space_char) root["Global"]["use_space_char"] = *m.spec.use_space_char;
  return Config::from_string(YAML::Dump(root), config.origin());
}

}  // namespace

InferenceFolder export_rec_distill_member(const Config& config, const RecDistillMember& m, const std::string& dir,
                                          ExportReport& r) {
  const Config member = member_config(config, m);
  if (m.onnx) return write_inference_folder(dir, *m.onnx, member, &m.charset);
  const std::string note = unexported_head_note(*m.native, m.spec.path + " ");
  if (!note.empty()) r.notes.push_back(note);
  return write_inference_folder(dir, rec_model_to_onnx(*m.native, rec_input_size(config.root()).first), member,
                                &m.charset);
}

}  // namespace ocrforge
