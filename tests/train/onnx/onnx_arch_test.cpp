// Fine-tuning an ONNX graph, on a tiny graph built here (no shipped model):
// gradients equal finite differences, freezing by name prefix, the batch-norm
// switch, writing the trained weights back, and the Architecture section's
// errors.
#include "ocrforge/train/onnx/onnx_arch.h"

#include <gtest/gtest.h>

#include <cstring>

#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "test_support.h"
#include "train/onnx/tiny_onnx_parts.h"

namespace ocrforge {
namespace {

OnnxTensor int64_tensor(const std::vector<int64_t>& v) {
  OnnxTensor t;
  t.type = OnnxType::Int64;
  t.dims = {static_cast<int64_t>(v.size())};
  t.data.resize(v.size() * 8);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

OnnxNode node(const std::string& op, std::vector<std::string> in, const std::string& out) {
  OnnxNode n;
  n.op = op;
  n.name = out + "_node";
  n.inputs = std::move(in);
  n.outputs = {out};
  return n;
}

// x [N, 3, 6, 6] -> Conv 3x3 (2 filters, pad 1) -> BatchNormalization -> Relu
// -> GlobalAveragePool -> Reshape [-1, 2] -> MatMul [2, 3] -> Add [3] -> Softmax.
// A deploy-form graph in miniature: the same kinds of weights as PP-OCR's.
std::string write_tiny_graph(const std::string& dir) {
  OnnxGraph g;
  g.opset = 11;
  g.inputs = {"x"};
  g.outputs = {"probs"};
  g.io_shapes = {{"x", {-1, 3, 6, 6}}, {"probs", {-1, 3}}};
  g.constants["conv.w"] = test::random_onnx_tensor({2, 3, 3, 3}, 1);
  g.constants["conv.b"] = test::random_onnx_tensor({2}, 2);
  g.constants["bn.scale"] = test::random_onnx_tensor({2}, 3);
  g.constants["bn.bias"] = test::random_onnx_tensor({2}, 4);
  g.constants["bn.mean"] = test::random_onnx_tensor({2}, 5);
  OnnxTensor var = test::random_onnx_tensor({2}, 6);
  for (size_t i = 0; i < 2; ++i) {  // variances must be positive
    float v;
    std::memcpy(&v, var.data.data() + 4 * i, 4);
    v = 0.5f + std::abs(v);
    std::memcpy(var.data.data() + 4 * i, &v, 4);
  }
  g.constants["bn.var"] = var;
  g.constants["fc.w"] = test::random_onnx_tensor({2, 3}, 7);
  g.constants["fc.b"] = test::random_onnx_tensor({3}, 8);
  g.constants["shape"] = int64_tensor({-1, 2});
  OnnxNode conv = node("Conv", {"x", "conv.w", "conv.b"}, "c");
  conv.attrs["pads"] = test::ints_attribute({1, 1, 1, 1});
  conv.attrs["kernel_shape"] = test::ints_attribute({3, 3});
  g.nodes.push_back(conv);
  g.nodes.push_back(node("BatchNormalization", {"c", "bn.scale", "bn.bias", "bn.mean", "bn.var"}, "n"));
  g.nodes.push_back(node("Relu", {"n"}, "r"));
  g.nodes.push_back(node("GlobalAveragePool", {"r"}, "p"));
  g.nodes.push_back(node("Reshape", {"p", "shape"}, "f"));
  g.nodes.push_back(node("MatMul", {"f", "fc.w"}, "m"));
  g.nodes.push_back(node("Add", {"m", "fc.b"}, "logits"));
  OnnxNode softmax = node("Softmax", {"logits"}, "probs");
  softmax.attrs["axis"].kind = OnnxAttribute::Kind::Int;
  softmax.attrs["axis"].i = 1;
  g.nodes.push_back(softmax);
  const std::string path = dir + "/tiny.onnx";
  write_onnx_graph(g, path);
  return path;
}

torch::Tensor input(int64_t n, uint64_t seed, torch::Dtype type = torch::kFloat32) {
  torch::Generator g = at::detail::createCPUGenerator(seed);
  return torch::randn({n, 3, 6, 6}, g, torch::kFloat32).to(type);
}

TEST(OnnxArch, TinyGraphPassesTheOnnxCheckerAndSplitsWeightsFromFixedValues) {
  const std::string path = write_tiny_graph(test::fresh_dir("onnx_arch_checker"));
  EXPECT_NO_THROW(check_onnx_model(path));
  OnnxGraphModule m(path);
  std::set<std::string> params, buffers;
  for (const auto& p : m->named_parameters()) params.insert(p.key());
  for (const auto& b : m->named_buffers()) buffers.insert(b.key());
  EXPECT_EQ(params, (std::set<std::string>{"conv_w", "conv_b", "bn_scale", "bn_bias", "fc_w", "fc_b"}));
  EXPECT_EQ(buffers, (std::set<std::string>{"bn_mean", "bn_var", "shape"}));
  EXPECT_EQ(m->pre_activation_output(), "logits");
}

// Central differences in double precision against autograd, for every
// element of every parameter: the ops' backward is what training relies on.
TEST(OnnxArch, GradientsEqualFiniteDifferences) {
  OnnxGraphModule m(write_tiny_graph(test::fresh_dir("onnx_arch_gradcheck")));
  // Floating-point tensors only (LibTorch's Module::to(dtype) would cast the int64 shape too).
  for (auto& p : m->parameters()) p.set_data(p.data().to(torch::kFloat64));
  for (auto& b : m->buffers())
    if (b.is_floating_point()) b.set_data(b.data().to(torch::kFloat64));
  const torch::Tensor x = input(2, 11, torch::kFloat64);
  torch::Generator g = at::detail::createCPUGenerator(12);
  const torch::Tensor w = torch::randn({2, 3}, g, torch::kFloat32).to(torch::kFloat64);
  auto loss = [&] { return (m->forward(x, "logits") * w).sum(); };
  m->zero_grad();
  loss().backward();
  const double h = 1e-6;
  int checked = 0;
  for (auto& p : m->named_parameters()) {
    torch::Tensor flat = p.value().data().view({-1});
    const torch::Tensor grad = p.value().grad().view({-1});
    for (int64_t i = 0; i < flat.numel(); ++i) {
      torch::NoGradGuard no_grad;
      const double keep = flat[i].item<double>();
      flat[i] = keep + h;
      const double up = loss().item<double>();
      flat[i] = keep - h;
      const double down = loss().item<double>();
      flat[i] = keep;
      const double numeric = (up - down) / (2 * h);
      EXPECT_NEAR(grad[i].item<double>(), numeric, 1e-6 + 1e-5 * std::abs(numeric)) << p.key() << "[" << i << "]";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 54 + 2 + 2 + 2 + 6 + 3);
}

TEST(OnnxArch, FreezeByPrefixKeepsThoseWeightsOutOfTheGradient) {
  OnnxGraphModule m(write_tiny_graph(test::fresh_dir("onnx_arch_freeze")));
  // Either spelling: the ONNX value name (with '.') or the module's name.
  const FreezeReport r = freeze_parameters(m, {"conv.", "bn_"});
  EXPECT_EQ(r.tensors, 6u);
  EXPECT_EQ(r.frozen_tensors, 4u);
  EXPECT_EQ(r.frozen_weights, 54 + 2 + 2 + 2);
  EXPECT_EQ(r.weights, 54 + 2 + 2 + 2 + 6 + 3);
  m->forward(input(2, 13), "logits").pow(2).sum().backward();
  for (const auto& p : m->named_parameters()) {
    const bool frozen = p.key().rfind("conv", 0) == 0 || p.key().rfind("bn", 0) == 0;
    EXPECT_EQ(p.value().grad().defined(), !frozen) << p.key();
  }
}

TEST(OnnxArch, FreezePrefixMatchingNothingIsAnErrorShowingRealNames) {
  OnnxGraphModule m(write_tiny_graph(test::fresh_dir("onnx_arch_freeze_typo")));
  try {
    freeze_parameters(m, {"backbone."});
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'backbone.' matches no parameter"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("conv.w"), std::string::npos) << e.what();
  }
  const FreezeReport all = freeze_parameters(m, {"*"});
  EXPECT_EQ(all.frozen_tensors, all.tensors);
}

TEST(OnnxArch, BatchNormKeepsItsStatisticsUnlessAskedToUpdateThem) {
  OnnxGraphModule m(write_tiny_graph(test::fresh_dir("onnx_arch_bn")));
  const torch::Tensor mean0 = m->named_buffers()["bn_mean"].clone();
  m->train();
  m->forward(input(4, 14));
  EXPECT_TRUE(torch::equal(m->named_buffers()["bn_mean"], mean0)) << "default: eval-mode statistics";

  m->set_update_bn_stats(true);
  m->forward(input(4, 15));
  EXPECT_FALSE(torch::equal(m->named_buffers()["bn_mean"], mean0)) << "update_bn_stats: running mean moves";
  const torch::Tensor mean1 = m->named_buffers()["bn_mean"].clone();
  m->eval();
  m->forward(input(4, 16));
  EXPECT_TRUE(torch::equal(m->named_buffers()["bn_mean"], mean1)) << "eval mode never updates";
}

TEST(OnnxArch, TrainedWeightsWrittenBackReloadToTheSameOutputs) {
  const std::string dir = test::fresh_dir("onnx_arch_writeback");
  OnnxGraphModule m(write_tiny_graph(dir));
  m->set_update_bn_stats(true);
  torch::optim::SGD opt(m->parameters(), 0.1);
  for (int step = 0; step < 3; ++step) {  // change weights and statistics
    opt.zero_grad();
    m->forward(input(4, 20 + step), "logits").pow(2).sum().backward();
    opt.step();
  }
  m->eval();
  m->save_onnx(dir + "/trained.onnx");
  EXPECT_NO_THROW(check_onnx_model(dir + "/trained.onnx"));
  OnnxGraphModule back(dir + "/trained.onnx");
  back->eval();
  const torch::Tensor x = input(3, 30);
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(m->forward(x), back->forward(x)));
  OnnxGraphModule original(dir + "/tiny.onnx");
  original->eval();
  EXPECT_FALSE(torch::equal(original->forward(x), back->forward(x)));
}

TEST(OnnxArch, WritingAValueOfAnotherShapeOrAnUnknownNameFails) {
  const std::string dir = test::fresh_dir("onnx_arch_write_errors");
  const std::string path = write_tiny_graph(dir);
  EXPECT_THROW(write_onnx_with_constants(path, dir + "/x.onnx", {{"fc.b", test::random_onnx_tensor({4}, 1)}}), Error);
  try {
    write_onnx_with_constants(path, dir + "/x.onnx", {{"head.w", test::random_onnx_tensor({3}, 1)}});
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'head.w'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.onnx")) << "nothing half-written";
}

TEST(OnnxArch, ArchitectureSectionErrorsNameTheKey) {
  const std::string path = write_tiny_graph(test::fresh_dir("onnx_arch_yaml"));
  auto error_of = [](const std::string& yaml) -> std::string {
    const YAML::Node n = YAML::Load(yaml);
    return ocrforge::test::read_error(n, "Architecture", [&] { onnx_arch_from_yaml(n); });
  };
  EXPECT_NE(error_of("{model_type: rec, algorithm: ONNX}").find("onnx_model: missing"), std::string::npos);
  EXPECT_NE(error_of("{algorithm: ONNX, onnx_model: /nonexistent.onnx}").find("is not a file"), std::string::npos);
  EXPECT_NE(error_of("{algorithm: ONNX, onnx_model: " + path + ", Backbone: {name: MobileNetV3}}")
                .find("Architecture.Backbone"),
            std::string::npos);
  EXPECT_NE(error_of("{algorithm: ONNX, onnx_model: " + path + ", freze: [a]}").find("did you mean 'Architecture.freeze'"),
            std::string::npos);
  const OnnxArchSpec s =
      onnx_arch_from_yaml(YAML::Load("{model_type: det, algorithm: ONNX, onnx_model: " + path +
                                     ", freeze: [conv.], update_bn_stats: true}"));
  EXPECT_EQ(s.model_type, ModelType::Det);
  EXPECT_EQ(s.freeze, std::vector<std::string>{"conv."});
  EXPECT_TRUE(s.update_bn_stats);
  EXPECT_TRUE(is_onnx_architecture(YAML::Load("{algorithm: ONNX}")));
  EXPECT_FALSE(is_onnx_architecture(YAML::Load("{algorithm: DB}")));
}

}  // namespace
}  // namespace ocrforge
