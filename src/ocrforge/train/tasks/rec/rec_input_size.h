// The recognizer's input size as its config trains and evaluates it, for the
// code that runs a trained model outside the data pipeline (the checkpoint
// recognizer, the ONNX exporter).
#pragma once
#include <string>
#include <utility>

#include <yaml-cpp/yaml.h>

namespace ocrforge {

// {height, width} of RecResizeImg (or SVTRRecResizeImg).image_shape in Eval.dataset.transforms,
// else in Train's; {48, 320} when neither lists one. A config without Eval
// or Train is fine; a malformed image_shape is a UsageError naming the key.
std::pair<int, int> rec_input_size(const YAML::Node& config_root);

struct BackboneSpec;  // rec_arch_spec.h

// A backbone that takes one input size (SVTRNet's img_size) against the
// data: each of Train / Eval that resizes with RecResizeImg (or
// SVTRRecResizeImg) must resize to it, and none may batch with a
// MultiScaleSampler. UsageError naming both keys otherwise (`backbone_path`:
// "Architecture.Backbone", or a distillation member's), before training
// starts rather than at the first batch. Other backbones: nothing to check.
void check_fixed_input_size(const BackboneSpec& backbone, const YAML::Node& config_root,
                            const std::string& backbone_path);

}  // namespace ocrforge
