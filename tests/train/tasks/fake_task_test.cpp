// Adding a task is its own code plus one registry line: a task written in
// this file alone (a one-weight linear fit, y = 3x) and one add_task line
// train through the unchanged trainer, log, checkpoint, resume and export
// (`ocrforge export`'s export_inference_model) without touching anything
// else of the train layer. A real task is a folder under tasks/ and one line
// in tasks/task_registry.cpp (docs/architecture.md, "Adding a task").
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "ocrforge/core/config.h"
#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/data/batch_loader.h"
#include "ocrforge/train/export/export_model.h"
#include "ocrforge/train/export/inference_folder.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "test_support.h"

using namespace ocrforge;

namespace {

// Samples x in [-1, 1] with y = 3x, the same for every epoch.
class LineDataset : public Dataset {
 public:
  size_t size() const override { return 32; }
  Sample load_sample(size_t index, uint64_t, DataStats*) const override {
    const float x = -1.f + 2.f * static_cast<float>(index) / 31.f;
    Sample s;
    s.tensors["x"] = torch::tensor({x});
    s.tensors["y"] = torch::tensor({3 * x});
    s.path = std::to_string(index);
    return s;
  }
};

class LineFitTask : public Task {
 public:
  LineFitTask(const Config& config, const TrainerSpec&, torch::Device) : config_(config) {
    torch::nn::init::zeros_(fc_->weight);
  }
  torch::nn::Module& model() override { return *fc_; }
  std::string architecture_text() const override { return "Linear(1, 1, bias=false)"; }
  void to_device(torch::Device device) override { fc_->to(device); }
  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int, int) override {
    LoaderSpec spec;
    spec.batch_size = config_.get<int>(section + ".loader.batch_size_per_card", 8);  // a key it reads is known
    spec.shuffle = training;
    return std::make_unique<BatchLoader>(std::make_shared<LineDataset>(), spec, 1);
  }
  StepLoss train_step(const Batch& batch) override {
    StepLoss s;
    s.output = fc_->forward(batch.at("x"));
    s.loss = torch::mse_loss(s.output, batch.at("y"));
    return s;
  }
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>&) override {
    torch::NoGradGuard no_grad;
    loader.start_epoch(0);
    double se = 0;
    long n = 0;
    for (Batch b; loader.next(&b);) {
      se += torch::mse_loss(fc_->forward(b.at("x")), b.at("y"), torch::Reduction::Sum).item<double>();
      n += static_cast<long>(b.size());
    }
    EvalMetrics m;
    m.values = {{"fit", 1.0 / (1.0 + se / static_cast<double>(n))}};
    m.samples = n;
    return m;
  }
  std::string default_main_indicator() const override { return "fit"; }
  // The network as an ONNX graph: x [N, 1] -> MatMul -> y [N, 1].
  void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) override {
    OnnxGraph g;
    g.opset = 13;
    g.inputs = {"x"};
    g.outputs = {"y"};
    g.io_shapes = {{"x", {-1, 1}}, {"y", {-1, 1}}};
    OnnxTensor w;
    w.dims = {1, 1};
    const float v = fc_->weight.item<float>();
    w.data.resize(4);
    std::memcpy(w.data.data(), &v, 4);
    g.constants["fc.weight"] = w;
    OnnxNode mm;
    mm.op = "MatMul";
    mm.name = "fc";
    mm.inputs = {"x", "fc.weight"};
    mm.outputs = {"y"};
    g.nodes.push_back(mm);
    const InferenceFolder f = write_inference_folder(out_dir, g, config, nullptr);
    report.onnx_path = f.onnx_path;
    report.yml_path = f.yml_path;
    report.parameters = 1;
  }
  std::string own_weights() const override { throw UsageError(kNativeExportNeedsWeights); }

 private:
  const Config& config_;
  torch::nn::Linear fc_{torch::nn::LinearOptions(1, 1).bias(false)};
};

std::string line_fit_config(const std::string& save_dir) {
  return "Global: {epoch_num: 30, print_batch_step: 4, save_model_dir: " + save_dir +
         ", eval_batch_step: [0, 40], save_epoch_step: 10, num_threads: 1}\n"
         "Architecture: {model_type: rec, algorithm: LineFit}\n"
         "Optimizer: {name: Adam, lr: {name: Const, learning_rate: 0.1}}\n"
         "Eval: {loader: {batch_size_per_card: 8}}\n";
}

TEST(FakeTask, OneRegistryLineTrainsResumesAndExportsIt) {
  // The one registry line.
  add_task({"LineFit: a test's one-weight fit", [](const TaskKey& k) { return k.algorithm == "LineFit"; },
            [](const Config& c, const TrainerSpec& o, torch::Device d) -> std::unique_ptr<Task> {
              return std::make_unique<LineFitTask>(c, o, d);
            }});
  const std::string dir = test::fresh_dir("fake_task");
  Trainer trainer(Config::from_string(line_fit_config(dir + "/out")));
  ASSERT_EQ(trainer.train(), TrainOutcome::Completed);
  const EvalMetrics m = trainer.evaluate();
  EXPECT_GT(m.get("fit"), 0.99) << "the weight learns 3";
  for (const char* f : {"/out/latest.ckpt", "/out/best_accuracy.ckpt", "/out/train.log", "/out/config.yml"})
    EXPECT_TRUE(std::filesystem::exists(dir + f)) << f;
  // Resume and export go through the same generic code.
  Config resumed = Config::from_string(line_fit_config(dir + "/out"));
  resumed.apply_overrides({"Global.checkpoints=" + dir + "/out/latest", "Global.epoch_num=31"});
  EXPECT_EQ(Trainer(resumed).train(), TrainOutcome::Completed);
  Config exp = Config::from_string(line_fit_config(dir + "/out"));
  exp.apply_overrides({"Global.pretrained_model=" + dir + "/out/best_accuracy", "Global.save_inference_dir=" + dir +
                                                                                    "/inference"});
  const ExportReport r = export_inference_model(exp);
  EXPECT_TRUE(std::filesystem::exists(r.onnx_path)) << r.onnx_path;
  EXPECT_TRUE(std::filesystem::exists(r.yml_path)) << r.yml_path;
  const OnnxGraph g = read_onnx_graph(r.onnx_path);
  float w = 0;
  std::memcpy(&w, g.constants.at("fc.weight").data.data(), 4);
  EXPECT_NEAR(w, 3.f, 0.05f) << "the exported weight is the trained one";
}

}  // namespace
