// The trainer around a model fine-tuned from ONNX (algorithm ONNX), on a tiny
// recognizer graph built here (label: slow): a run stopped by SIGTERM and
// resumed from `latest` ends with the weights of an uninterrupted run, and
// frozen weights leave training exactly as the file had them.
// ctest-labels: slow train (trains for seconds to minutes on all cores: runs alone)
#include "ocrforge/train/loop/trainer.h"

#include <gtest/gtest.h>

#include <csignal>

#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"
#include "train/tasks/rec/trainer_fixture.h"
#include "train/onnx/tiny_onnx_parts.h"

using namespace ocrforge;

namespace {

// x [N, 3, H, W] -> Conv 4x4 stride 4 (`classes` filters) -> ReduceMean over
// H -> Transpose -> Softmax: N x W/4 x classes, a CTC recognizer's output.
std::string write_tiny_recognizer(const std::string& dir, int64_t classes) {
  OnnxGraph g;
  g.opset = 11;
  g.inputs = {"x"};
  g.outputs = {"probs"};
  g.io_shapes = {{"x", {-1, 3, -1, -1}}, {"probs", {-1, -1, classes}}};
  g.constants["conv.w"] = test::random_onnx_tensor({classes, 3, 4, 4}, 1, 0.1f);
  g.constants["conv.b"] = test::random_onnx_tensor({classes}, 2, 0.1f);
  auto node = [&](const std::string& op, std::vector<std::string> in, const std::string& out) -> OnnxNode& {
    OnnxNode n;
    n.op = op;
    n.inputs = std::move(in);
    n.outputs = {out};
    g.nodes.push_back(n);
    return g.nodes.back();
  };
  OnnxNode& conv = node("Conv", {"x", "conv.w", "conv.b"}, "c");
  conv.attrs["kernel_shape"] = test::ints_attribute({4, 4});
  conv.attrs["strides"] = test::ints_attribute({4, 4});
  node("ReduceMean", {"c"}, "m").attrs["axes"] = test::ints_attribute({2});
  g.nodes.back().attrs["keepdims"].kind = OnnxAttribute::Kind::Int;  // i = 0
  node("Transpose", {"m"}, "logits").attrs["perm"] = test::ints_attribute({0, 2, 1});
  OnnxNode& softmax = node("Softmax", {"logits"}, "probs");
  softmax.attrs["axis"].kind = OnnxAttribute::Kind::Int;
  softmax.attrs["axis"].i = 2;
  const std::string path = dir + "/tiny_rec.onnx";
  write_onnx_graph(g, path);
  return path;
}

// The tiny digits task's config with the native network swapped for the graph.
Config onnx_config(const test::TinyTask& t, const std::string& onnx, const std::vector<std::string>& overrides,
                   const std::string& freeze = "[]") {
  std::string yaml = test::tiny_config(t, 2, 8);
  const size_t a = yaml.find("Architecture:\n"), b = yaml.find("Loss:");
  yaml.replace(a, b - a,
               "Architecture: {model_type: rec, algorithm: ONNX, onnx_model: " + onnx + ", freeze: " + freeze + "}\n");
  Config c = Config::from_string(yaml);
  c.apply_overrides(overrides);
  return c;
}

std::map<std::string, torch::Tensor> weights_of(const std::string& onnx, const std::string& checkpoint) {
  OnnxGraphModule m(onnx);
  load_checkpoint(checkpoint, *m, nullptr);
  return model_state(*m);
}

}  // namespace

TEST(OnnxRecTrainer, ResumeEqualsUninterruptedRun) {
  auto t = test::make_tiny_task("onnx_resume", 32);
  const std::string onnx = write_tiny_recognizer(t.dir, 11);  // 10 digits + blank
  const std::string straight = t.dir + "/straight", split = t.dir + "/split";
  {
    Trainer a(onnx_config(t, onnx, {"Global.save_model_dir=" + straight}));
    ASSERT_EQ(a.train(), TrainOutcome::Completed);
  }
  {
    Trainer b(onnx_config(t, onnx, {"Global.save_model_dir=" + split}));
    b.set_step_callback([](long step, torch::nn::Module&) {
      if (step == 6) request_stop(SIGTERM);
    });
    ASSERT_EQ(b.train(), TrainOutcome::Stopped);
    clear_stop_request();
    Trainer c(onnx_config(t, onnx, {"Global.save_model_dir=" + split, "Global.checkpoints=" + split + "/latest"}));
    ASSERT_EQ(c.train(), TrainOutcome::Completed);
  }
  const auto w1 = weights_of(onnx, straight + "/latest"), w2 = weights_of(onnx, split + "/latest");
  const auto original = model_state(*OnnxGraphModule(onnx));
  ASSERT_EQ(w1.size(), 2u) << "conv.w and conv.b";
  ASSERT_EQ(w1.size(), w2.size());
  for (const auto& [name, tensor] : w1) {
    EXPECT_LE((tensor - w2.at(name)).abs().max().item<double>(), 1e-5) << name;
    if (tensor.is_floating_point()) {
      EXPECT_GT((tensor - original.at(name)).abs().max().item<double>(), 1e-4) << name << " did not train";
    }
  }
}

TEST(OnnxRecTrainer, FrozenWeightsKeepTheFilesValues) {
  auto t = test::make_tiny_task("onnx_freeze", 16);
  const std::string onnx = write_tiny_recognizer(t.dir, 11);
  Trainer a(onnx_config(t, onnx, {"Global.save_model_dir=" + t.save_dir}, "[conv.b]"));
  ASSERT_EQ(a.train(), TrainOutcome::Completed);
  const auto trained = weights_of(onnx, t.save_dir + "/latest");
  const auto original = model_state(*OnnxGraphModule(onnx));
  EXPECT_TRUE(torch::equal(trained.at("conv_b"), original.at("conv_b")));
  EXPECT_FALSE(torch::equal(trained.at("conv_w"), original.at("conv_w")));
  EXPECT_NE(test::read_text(t.save_dir + "/train.log").find("frozen 1 of 2 parameter tensors"), std::string::npos);
}
