// `ocrforge export` (export_model.h).
#include "ocrforge/train/export/export_model.h"

#include <filesystem>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/data/rec_input_size.h"
#include "ocrforge/train/export/det_distill_export.h"
#include "ocrforge/train/export/det_model_onnx.h"
#include "ocrforge/train/export/inference_yml.h"
#include "ocrforge/train/export/rec_model_onnx.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/checkpoint_ctc_branch.h"
#include "ocrforge/train/loop/trainer_options.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/task/det_distill_task.h"
#include "ocrforge/train/task/det_task.h"
#include "ocrforge/train/task/rec_distill_task.h"
#include "ocrforge/train/task/rec_task.h"
#include "ocrforge/train/task/task.h"
#include "ocrforge/train/task/training_schema.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

std::string member_weights(const RecDistillTask& task) {
  std::string out;
  for (const auto& m : task.members())
    out += (out.empty() ? "" : ", ") + m.spec.name + ": " +
           (m.onnx ? m.onnx->path() : m.spec.pretrained);
  return out;
}

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

// The SARHead of a MultiHead trains only; the inference graph is the CTC branch.
void note_sar_head(const RecModel& model, const std::string& where, ExportReport& r) {
  if (!model || !model->sar_head()) return;
  r.notes.push_back(where + "MultiHead: the SARHead (training only, " +
                    std::to_string(model->sar_head()->parameters().size()) +
                    " parameter tensors) is not exported; inference.onnx is the CTC branch, as PaddleOCR's "
                    "inference model");
}

void export_distillation(const Config& config, RecDistillTask& task, const std::string& out_dir, ExportReport& r) {
  const int height = rec_input_size(config.root()).first;
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
      const OnnxGraph g = rec_model_to_onnx(*m.native, height);
      write_onnx_graph(g, e.onnx_path);
      io = inference_io_of(g);
      note_sar_head(m.native, m.spec.path + " ", r);
    }
    check_onnx_model(e.onnx_path);
    e.yml_path = (dir / "inference.yml").string();
    write_inference_yml(e.yml_path, member_config(config, m), io, &m.charset);
    r.members.push_back(e);
  }
  r.parameters = static_cast<long>(task.model().parameters().size());
}

}  // namespace

ExportReport export_inference_model(const Config& config) {
  register_training_schema();
  config.validate();
  const std::string out_dir = config.get<std::string>("Global.save_inference_dir", "");
  if (out_dir.empty())
    throw UsageError("Global.save_inference_dir: missing; say where the inference model goes, e.g. "
                     "-o Global.save_inference_dir=./inference/rec");
  const bool onnx = is_onnx_architecture(config.root()["Architecture"]);
  const std::string model_type = config.get<std::string>("Architecture.model_type", "rec");
  if (!onnx && model_type != "rec" && model_type != "det")
    throw UsageError("export of native " + model_type + " models (Architecture.algorithm '" +
                     config.get<std::string>("Architecture.algorithm", "") +
                     "') is not supported yet; native rec and det models and models fine-tuned from ONNX "
                     "(algorithm: ONNX) export today");

  const TrainerOptions options = trainer_options_from_config(config);
  std::unique_ptr<Task> task = make_task(config, options, torch::kCPU);
  ExportReport r;
  const std::string weights = !options.checkpoints.empty() ? options.checkpoints : options.pretrained_model;
  if (!weights.empty()) {
    // Every tensor must fit (a mismatch names the keys), except that a MultiHead
    // checkpoint trained before ocrforge built its SARHead lacks sar_head.*:
    // export writes the CTC branch only.
    load_checkpoint_ctc_branch(weights, task->model());
    r.weights_from = checkpoint_path(weights);
  } else if (auto* distill = dynamic_cast<RecDistillTask*>(task.get())) {
    // Without a checkpoint of the whole distillation, each native member needs its own weights.
    for (const auto& m : distill->members())
      if (m.native && m.spec.pretrained.empty())
        throw UsageError("export of a distillation needs its weights: -o Global.pretrained_model=<save_model_dir>/"
                         "best_accuracy (or Global.checkpoints); " + m.spec.path + " has no pretrained weights either");
    r.weights_from = "the models' own weights (" + member_weights(*distill) + ")";
  } else if (auto* det_distill = dynamic_cast<DetDistillTask*>(task.get())) {
    std::string from;
    for (const auto& m : det_distill->members()) {
      if (m.native && m.spec.pretrained.empty())
        throw UsageError("export of a distillation needs its weights: -o Global.pretrained_model=<save_model_dir>/"
                         "best_accuracy (or Global.checkpoints); " + m.spec.path + " has no pretrained weights either");
      from += (from.empty() ? "" : ", ") + m.spec.name + ": " + (m.onnx ? m.onnx->path() : m.spec.pretrained);
    }
    r.weights_from = "the models' own weights (" + from + ")";
  } else if (!onnx) {
    throw UsageError("export of a native model needs its weights: -o Global.pretrained_model=<save_model_dir>/best_accuracy "
                     "(or Global.checkpoints)");
  }
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir))
    throw Error("Global.save_inference_dir: cannot create '" + out_dir + "': " + (ec ? ec.message() : "not a folder"));
  task->model().eval();
  if (auto* distill = dynamic_cast<RecDistillTask*>(task.get())) {
    export_distillation(config, *distill, out_dir, r);
    return r;
  }
  if (auto* det_distill = dynamic_cast<DetDistillTask*>(task.get())) {
    export_det_distillation(config, *det_distill, out_dir, r);
    return r;
  }
  r.onnx_path = (fs::path(out_dir) / "inference.onnx").string();

  InferenceIo io;
  if (onnx) {
    auto* graph = dynamic_cast<OnnxGraphModuleImpl*>(&task->model());
    if (!graph) throw Error("internal: an ONNX architecture built a model that is not an ONNX graph");
    if (r.weights_from.empty()) r.weights_from = graph->path();
    graph->save_onnx(r.onnx_path);
    io = inference_io_of(read_onnx_graph(r.onnx_path));
  } else {
    OnnxGraph g;
    if (auto* det = dynamic_cast<DetTask*>(task.get())) {
      if (!det->det_model()) throw Error("internal: a native det config built no detection model");
      g = det_model_to_onnx(*det->det_model());
    } else {
      auto* rec = dynamic_cast<RecTask*>(task.get());
      if (!rec || !rec->rec_model()) throw Error("internal: a native rec config built no recognition model");
      g = rec_model_to_onnx(*rec->rec_model(), rec_input_size(config.root()).first);
      note_sar_head(rec->rec_model(), "Architecture ", r);
    }
    write_onnx_graph(g, r.onnx_path);
    io = inference_io_of(g);
  }
  check_onnx_model(r.onnx_path);
  r.parameters = static_cast<long>(task->model().parameters().size());

  const Charset* charset = nullptr;
  if (auto* rec = dynamic_cast<RecTask*>(task.get())) charset = &rec->charset();
  r.yml_path = (fs::path(out_dir) / "inference.yml").string();
  write_inference_yml(r.yml_path, config, io, charset);
  return r;
}

}  // namespace ocrforge
