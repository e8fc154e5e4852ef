// The recognizer's input size as its config trains and evaluates it, for the
// code that runs a trained model outside the data pipeline (the checkpoint
// recognizer, the ONNX exporter).
#pragma once
#include <utility>

#include <yaml-cpp/yaml.h>

namespace ocrforge {

// {height, width} of RecResizeImg.image_shape in Eval.dataset.transforms,
// else in Train's; {48, 320} when neither lists one. A config without Eval
// or Train is fine; a malformed image_shape is a UsageError naming the key.
std::pair<int, int> rec_input_size(const YAML::Node& config_root);

}  // namespace ocrforge
