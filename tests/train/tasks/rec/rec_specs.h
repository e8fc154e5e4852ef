// Small RecArchSpec builders shared by the model tests: tiny scales keep each
// forward pass to milliseconds while exercising every layer type.
#pragma once
#include <string>

#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

namespace ocrforge::test {

// MobileNetV1Enhance with the PP-OCRv3 settings (stride [1,2], avg [2,2]).
inline BackboneSpec v1_ppocrv3(double scale = 0.25) {
  BackboneSpec b;
  b.scale = scale;
  return b;
}

// MobileNetV1Enhance with PaddleOCR's constructor defaults (stride 1, max pool).
inline BackboneSpec v1_defaults(double scale = 0.25) {
  BackboneSpec b;
  b.scale = scale;
  b.last_conv_stride = {1, 1};
  b.last_pool_type = "max";
  b.last_pool_kernel_size = {3, 2};
  return b;
}

inline BackboneSpec mv3(const std::string& model_name, std::vector<int> small_stride = {2, 2, 2, 2},
                        double scale = 0.35) {
  BackboneSpec b;
  b.name = "MobileNetV3";
  b.model_name = model_name;
  b.scale = scale;
  b.small_stride = std::move(small_stride);
  return b;
}

// A small svtr neck (hidden 16 = 8 heads x 2) or another encoder type.
inline NeckSpec neck(const std::string& type) {
  NeckSpec n;
  n.encoder_type = type;
  n.hidden_size = 12;
  n.dims = 16;
  n.hidden_dims = 16;
  n.depth = 1;
  return n;
}

inline RecArchSpec rec_spec(BackboneSpec b, NeckSpec n, int classes = 11) {
  RecArchSpec s;
  s.backbone = std::move(b);
  s.neck = std::move(n);
  s.head.out_channels = classes;
  return s;
}

}  // namespace ocrforge::test
