// Weight initialisers that reproduce PaddlePaddle's, so a network trained
// here starts from the same distributions as PaddleOCR's (LibTorch's own
// defaults differ: kaiming_uniform(a=sqrt(5)) for conv and linear).
// Conv weights are [out, in/groups, kh, kw]; Linear weights are [out, in]
// (Paddle stores Linear as [in, out]; converters must transpose).
#pragma once
#include <torch/torch.h>

namespace ocrforge::paddle_init {

// Paddle's KaimingNormal: N(0, sqrt(2 / fan_in)), fan_in = in/groups * kh * kw.
void kaiming_normal(torch::Tensor w);
// Paddle's KaimingUniform: U(-sqrt(6 / fan_in), +sqrt(6 / fan_in)).
void kaiming_uniform(torch::Tensor w);
// Paddle's default Conv2D initializer (no ParamAttr): N(0, sqrt(2 / (kh * kw * in_channels)))
// with the full in_channels even for grouped / depthwise convs.
void default_conv(torch::Tensor w, int64_t in_channels);
// U(-1/sqrt(k), 1/sqrt(k)) (PaddleOCR's get_para_bias_attr for CTC and FC heads, Paddle's LSTM).
void uniform_fan(torch::Tensor w, int64_t k);
// Paddle's TruncatedNormal(std): N(0, std) cut at +-2 std (inverse-CDF sampling).
void trunc_normal(torch::Tensor w, double std = 0.02);

}  // namespace ocrforge::paddle_init
