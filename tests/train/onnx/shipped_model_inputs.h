// Inputs and ONNX Runtime outputs for tests that compare a LibTorch run of a
// shipped model (or an exported copy) with ORT: real sample pictures,
// normalised as the model's pre-processing does.
#pragma once
#include <string>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <torch/torch.h>

#include "ocrforge/infer/ort_model.h"
#include "test_support.h"

namespace ocrforge::test {

// tests/data/samples/<name> resized to h x w, NCHW float: BGR / 255, then
// ImageNet mean / std in that channel order (det, PaddleOCR's
// NormalizeImage) or scaled to [-1, 1] (rec, cls).
inline torch::Tensor sample_picture(const std::string& name, int h, int w, bool imagenet) {
  cv::Mat bgr = cv::imread(data_dir() + "/samples/" + name);
  if (bgr.empty()) throw std::runtime_error("test picture missing: " + name);
  cv::resize(bgr, bgr, cv::Size(w, h));
  cv::Mat f;
  bgr.convertTo(f, CV_32FC3, 1.0 / 255.0);
  torch::Tensor t = torch::from_blob(f.data, {h, w, 3}, torch::kFloat32).clone().permute({2, 0, 1});
  if (imagenet)
    t = (t - torch::tensor({0.485f, 0.456f, 0.406f}).view({3, 1, 1})) /
        torch::tensor({0.229f, 0.224f, 0.225f}).view({3, 1, 1});
  else
    t = (t - 0.5f) / 0.5f;
  return t.unsqueeze(0).contiguous();
}

// ONNX Runtime's output of the model file at `path` on `x` (one thread).
inline torch::Tensor ort_output(const std::string& path, const std::string& role, const torch::Tensor& x) {
  RuntimeParams rt;
  rt.cpu_threads = 1;
  // The file exactly as written: parity tests check the exporter, not the
  // inference-time simplification (tests/onnx/onnx_simplify_test.cpp does).
  rt.ir_optim = false;
  OrtModel ort(path, rt, role, "--" + role + "_model_dir");
  const TensorView out = ort.run(x.data_ptr<float>(), x.sizes().vec());
  return torch::from_blob(const_cast<float*>(out.data), out.shape, torch::kFloat32).clone();
}

}  // namespace ocrforge::test
