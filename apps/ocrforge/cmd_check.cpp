// `ocrforge check` (paddle.utils.run_check()): prints the build (libtorch,
// CUDA / NCCL / Gloo, ONNX Runtime and its providers) and the devices, runs
// one tiny training step per device and a 2-worker Gloo all-reduce (two
// threads, each with its own process group, over 127.0.0.1), and ends with
// one line: success, or the step that failed. Exit 0 / 1. It also loads the
// default inference models: PASSED must mean `ocrforge ocr` can run.
#include <torch/version.h>

#include <chrono>
#include <cmath>
#include <future>
#include <iostream>
#include <thread>

#include "commands.h"
#include "ocrforge/core/cpu_features.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/core/tcp_port.h"
#include "ocrforge/infer/int8_model.h"
#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/train/dist/c10d_communicator.h"
#include "ocrforge/train/tasks/rec/ctc_loss.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "ocrforge/version.h"

namespace ocrforge {

namespace {

// A few-thousand-parameter CRNN: MobileNetV3 small 0.35 + BiLSTM + CTC.
void tiny_training_step(const torch::Device& device) {
  RecArchSpec spec;
  spec.algorithm = "CRNN";
  spec.backbone.name = "MobileNetV3";
  spec.backbone.scale = 0.35;
  spec.backbone.small_stride = {1, 2, 2, 2};
  spec.neck.encoder_type = "rnn";
  spec.neck.hidden_size = 16;
  spec.head.out_channels = 11;
  torch::manual_seed(1);
  RecModel model(spec);
  model->to(device);
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  const auto before = model->parameters().front().detach().clone();
  auto x = torch::rand({2, 3, 32, 100}, device) * 2 - 1;
  auto labels = torch::tensor({1, 2, 3, 0, 4, 5, 0, 0}, torch::kInt64).view({2, 4}).to(device);
  auto lengths = torch::tensor({3, 2}, torch::kInt64).to(device);
  auto loss = ctc_loss(model->forward(x), labels, lengths);
  if (!std::isfinite(loss.item<double>())) throw Error("the loss is not finite");
  adam.zero_grad();
  loss.backward();
  adam.step();
  if (torch::equal(before, model->parameters().front().detach())) throw Error("the optimizer step changed nothing");
}

// Rank r contributes gradients r + 1 (averaged: 1.5) and values {r + 1, 10}.
std::string two_worker_allreduce() {
  const int port = free_loopback_port();
  auto worker = [port](int rank) {
    DistEnv env;
    env.rank = rank;
    env.world_size = 2;
    env.master_addr = env.node_ip = "127.0.0.1";
    env.master_port = port;
    env.timeout_s = 30;
    Fingerprint fp;
    fp.rank = rank;
    fp.host = "check";
    fp.items = {{"ocrforge version", OCRFORGE_VERSION}};
    auto comm = make_c10d_communicator(env, fp);
    torch::nn::Linear lin(3, 2);
    for (auto& p : lin->parameters()) p.mutable_grad() = torch::full_like(p, rank + 1.0);
    comm->average_gradients(*lin);
    const auto sums = comm->sum({rank + 1.0, 10.0});
    comm->barrier();
    if (!torch::allclose(lin->weight.grad(), torch::full_like(lin->weight, 1.5)) || sums[0] != 3 || sums[1] != 20)
      throw Error("rank " + std::to_string(rank) + " got wrong sums");
  };
  auto r1 = std::async(std::launch::async, worker, 1);
  worker(0);
  r1.get();
  return "127.0.0.1:" + std::to_string(port);
}

// The default PP-OCRv4 models load (det, cls, rec + dictionary) and read a
// blank page. Without them `ocrforge ocr` cannot run, so check must fail.
std::string inference_models() {
  const std::string root = default_model_root();
  if (root.empty()) throw Error(no_default_models_message());
  OcrParams p = default_ocr_params();
  p.use_angle_cls = true;
  p.runtime.cpu_threads = 1;
  OcrPipeline ocr(p);  // throws Error naming a missing model or an unfit dictionary
  const OcrResult r = ocr.run(cv::Mat(64, 64, CV_8UC3, cv::Scalar(255, 255, 255)));
  if (!r.lines.empty()) throw Error("a blank page gave text: the models are not what they should be");
  return root;
}

template <typename F>
void step(const std::string& name, F&& f) {
  std::cout << name << " ... " << std::flush;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const std::string detail = f();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "ok (" << (detail.empty() ? "" : detail + ", ") << static_cast<int>(s * 1000) << " ms)" << std::endl;
  } catch (const std::exception& e) {
    std::cout << "FAILED" << std::endl;
    throw Error("ocrforge check: FAILED at '" + name + "': " + e.what());
  }
}

}  // namespace

int cmd_check(const Args& args) {
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    std::cout << "usage: ocrforge check\n  verifies the installation: build, devices, a training step per device, "
                 "a 2-worker all-reduce\n"
                 "usage: ocrforge check -c CONFIG.yml [-o Section.key=value ...]\n  validates a training config "
                 "without training: keys, network (parameter count), dictionary; missing data is a warning\n";
    return 0;
  }
  if (is_config_check(args)) return cmd_check_config(args);
  if (!args.empty()) throw UsageError("check takes no arguments (got '" + args[0] + "')");
  const bool cuda = torch::cuda::is_available();
  const int gpus = cuda ? static_cast<int>(torch::cuda::device_count()) : 0;
  std::string providers;
  for (const auto& p : onnxruntime_providers()) providers += (providers.empty() ? "" : ", ") + p;
  std::cout << "ocrforge " << OCRFORGE_VERSION << "\n"
            << "libtorch " << TORCH_VERSION << " (CUDA " << (cuda ? "available" : "not available") << ", NCCL "
            << (nccl_compiled_in() ? "compiled in" : "not compiled in") << ", Gloo compiled in)\n"
            << "ONNX Runtime " << onnxruntime_version() << " (providers: " << providers << ")\n"
            << "int8 (--precision int8): " << int8_cpu_kind(cpu_features()) << " [" << cpu_features().names()
            << "]; " << int8_plan("det", RuntimeParams{}, cpu_features()).why << "; "
            << int8_plan("rec", RuntimeParams{}, cpu_features()).why << "\n"
            << "devices: cpu (" << std::thread::hardware_concurrency() << " threads, " << cpu_model() << ")";
  for (int g = 0; g < gpus; ++g) std::cout << ", cuda:" << g;
  std::cout << std::endl;
  try {
    step("training step on cpu", [] {
      tiny_training_step(torch::kCPU);
      return std::string();
    });
    for (int g = 0; g < gpus; ++g)
      step("training step on cuda:" + std::to_string(g), [g] {
        tiny_training_step(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(g)));
        return std::string();
      });
    step("2-worker Gloo all-reduce", [] { return two_worker_allreduce(); });
    step("inference models (det, cls, rec)", [] { return inference_models(); });
  } catch (const Error& e) {
    std::cout << e.what() << std::endl;
    return 1;
  }
  std::cout << "ocrforge check: PASSED: ocrforge is installed correctly (training, inference with the default "
               "models and "
               "distributed communication work on this machine)"
            << std::endl;
  return 0;
}

}  // namespace ocrforge
