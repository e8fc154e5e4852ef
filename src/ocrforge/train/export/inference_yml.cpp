#include "ocrforge/core/model_type.h"
#include "ocrforge/train/export/inference_yml.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/charset.h"
#include "ocrforge/core/config.h"
#include "ocrforge/core/yaml_child.h"
#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/version.h"

namespace ocrforge {

InferenceIo inference_io_of(const OnnxGraph& g) {
  InferenceIo io;
  io.opset = g.opset;
  io.input_name = g.inputs.at(0);
  io.output_name = g.outputs.at(0);
  if (g.io_shapes.count(io.input_name)) io.input_shape = g.io_shapes.at(io.input_name);
  if (g.io_shapes.count(io.output_name)) io.output_shape = g.io_shapes.at(io.output_name);
  return io;
}

namespace {

// Transforms that only make training targets or pick keys: not inference steps.
bool is_label_step(const std::string& name) {
  return name.find("LabelEncode") != std::string::npos || name == "KeepKeys" || name == "MakeBorderMap" ||
         name == "MakeShrinkMap" || name == "RecAug" || name == "BaseDataAugmentation" ||
         name == "EastRandomCropData" || name == "IaaAugment";
}

YAML::Node inference_transforms(const YAML::Node& root) {
  YAML::Node out(YAML::NodeType::Sequence);
  const YAML::Node list = yaml_child(yaml_child(yaml_child(root, "Eval"), "dataset"), "transforms");
  if (!list || !list.IsSequence()) return out;
  for (const auto& item : list) {
    if (!item.IsMap() || item.size() != 1) continue;
    if (!is_label_step(item.begin()->first.as<std::string>())) out.push_back(YAML::Clone(item));
  }
  return out;
}

}  // namespace

std::string inference_yml_text(const Config& config, const InferenceIo& io, const Charset* charset) {
  const YAML::Node root = config.root();
  YAML::Node doc;
  const std::string model_dir = config.get<std::string>("Global.save_model_dir", "");
  doc["Global"]["model_name"] = std::filesystem::path(model_dir).filename().string();
  const ModelType model_type = read_model_type(root["Architecture"], "Architecture");
  doc["Global"]["model_type"] = model_type_name(model_type);
  doc["Global"]["algorithm"] = config.get<std::string>("Architecture.algorithm", "");
  doc["Global"]["exported_by"] = std::string("ocrforge ") + OCRFORGE_VERSION;
  if (io.opset > 0) doc["Global"]["onnx_opset"] = io.opset;
  doc["Input"]["name"] = io.input_name;
  doc["Input"]["shape"] = io.input_shape;
  doc["Input"]["shape"].SetStyle(YAML::EmitterStyle::Flow);
  doc["Output"]["name"] = io.output_name;
  doc["Output"]["shape"] = io.output_shape;
  doc["Output"]["shape"].SetStyle(YAML::EmitterStyle::Flow);
  doc["PreProcess"]["transform_ops"] = inference_transforms(root);
  const YAML::Node configured = yaml_child(root, "PostProcess");
  YAML::Node post = configured && configured.IsMap() ? YAML::Clone(configured) : YAML::Node();
  if (charset) {
    // The dictionary's characters (classes 1..n; blank is 0, the space last when use_space_char).
    const bool space = charset->appends_space();
    std::vector<std::string> chars;
    for (int i = 1; i < charset->num_classes() - (space ? 1 : 0); ++i) chars.push_back(charset->text_of(i));
    post["use_space_char"] = space;
    post["character_dict"] = chars;
  }
  if (model_type == ModelType::Cls)
    post["label_list"] = config.get<std::vector<std::string>>("Global.label_list", {"0", "180"});
  if (post.size() > 0) doc["PostProcess"] = post;
  YAML::Emitter out;
  out << doc;
  return std::string(out.c_str()) + "\n";
}

void write_inference_yml(const std::string& path, const Config& config, const InferenceIo& io, const Charset* charset) {
  write_file_atomic(path, inference_yml_text(config, io, charset));
}

}  // namespace ocrforge
