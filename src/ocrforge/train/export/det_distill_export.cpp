#include "ocrforge/train/export/det_distill_export.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/export/det_model_onnx.h"
#include "ocrforge/train/export/inference_yml.h"
#include "ocrforge/train/task/det_distill_task.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

// The config a member's inference.yml is written from: its own network
// section and plain DBPostProcess with the distillation's thresholds.
Config member_config(const Config& config, const DetDistillMember& m) {
  YAML::Node root = YAML::Clone(config.root());
  root["Architecture"] = YAML::Clone(m.spec.arch);
  YAML::Node post = root["PostProcess"] && root["PostProcess"].IsMap() ? YAML::Clone(root["PostProcess"])
                                                                       : YAML::Node(YAML::NodeType::Map);
  post.remove("model_name");
  post.remove("key");
  post["name"] = "DBPostProcess";
  root["PostProcess"] = post;
  return Config::from_string(YAML::Dump(root), config.origin());
}

}  // namespace

void export_det_distillation(const Config& config, DetDistillTask& task, const std::string& out_dir, ExportReport& r) {
  for (const auto& m : task.members()) {
    ExportedMember e;
    e.name = m.spec.name;
    const fs::path dir = fs::path(out_dir) / m.spec.name;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw Error("Global.save_inference_dir: cannot create '" + dir.string() + "': " + ec.message());
    e.onnx_path = (dir / "inference.onnx").string();
    InferenceIo io;
    if (m.onnx) {
      m.onnx->save_onnx(e.onnx_path);
      io = inference_io_of(read_onnx_graph(e.onnx_path));
    } else {
      const OnnxGraph g = det_model_to_onnx(*m.native);
      write_onnx_graph(g, e.onnx_path);
      io = inference_io_of(g);
    }
    check_onnx_model(e.onnx_path);
    e.yml_path = (dir / "inference.yml").string();
    write_inference_yml(e.yml_path, member_config(config, m), io, nullptr);
    r.members.push_back(e);
  }
  r.parameters = static_cast<long>(task.model().parameters().size());
}

}  // namespace ocrforge
