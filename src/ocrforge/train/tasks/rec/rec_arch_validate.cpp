// validate_rec_arch: value checks shared by rec_arch_from_yaml and the
// RecModel constructor (which may get a spec built in code).
#include <algorithm>
#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

namespace ocrforge {
using arch_yaml::join;

std::vector<std::string> rec_backbone_names() {
  return {"MobileNetV1Enhance", "MobileNetV3", "PPLCNetV3", "PPHGNet_small", "PPHGNetV2_B4", "SVTRNet", "ResNet"};
}

namespace {

// What SVTRNet hands the heads. PaddleOCR gives every head the configured
// out_channels as its input width, and without last_stage the backbone
// returns a token sequence that only MultiHead's use_pool turns back into
// the 4-D map the necks read; anything else fails in PaddleOCR at the
// first batch, so it is refused here before training starts.
void validate_svtr_head_input(const RecArchSpec& s) {
  const SvtrNetSpec& v = s.backbone.svtr;
  validate_svtrnet(v, "Architecture.Backbone");
  const auto fail = [](const std::string& key, const std::string& what) {
    throw UsageError("Architecture." + key + ": " + what);
  };
  if (v.last_stage) {
    if (s.head_pool)
      fail("Head.use_pool", "pools SVTRNet's token map, but Backbone.last_stage: true already pools it to 1 x "
                            "out_char_num; set use_pool to false (or last_stage to false)");
    return;
  }
  const std::string grid = std::to_string(v.grid_h(2)) + " x " + std::to_string(v.grid_w());
  if (!s.head_pool)
    fail("Backbone.last_stage",
         "false leaves SVTRNet's output a sequence of " + grid + " tokens (for img_size [" +
             std::to_string(v.img_size[0]) + ", " + std::to_string(v.img_size[1]) +
             "]) that no neck reads without MultiHead's use_pool: true; PaddleOCR fails on this config too (\"The input "
             "of Op(Conv) should be a 4-D or 5-D Tensor\", PaddleOCR issues #10700, #11200). Set last_stage: true "
             "(pools to 1 x out_char_num with out_channels channels) or, as ch_PP-OCRv4_rec_svtr_large.yml, "
             "Head.use_pool: true with out_channels equal to embed_dim[2]");
  if (v.out_channels != v.embed_dim[2])
    fail("Backbone.out_channels",
         std::to_string(v.out_channels) + ", but with last_stage: false SVTRNet ends with embed_dim[2] = " +
             std::to_string(v.embed_dim[2]) + " channels, and PaddleOCR's MultiHead reads out_channels as that "
             "width (it fails otherwise); set out_channels: " + std::to_string(v.embed_dim[2]) +
             " (or last_stage: true)");
  if (v.grid_h(2) != 3 || v.grid_w() < 2)
    fail("Head.use_pool", "PaddleOCR's MultiHead reshapes SVTRNet's tokens to 3 rows before its 3 x 2 pool, but "
                          "Backbone.img_size gives a " + grid + " grid; use_pool needs img_size height 48 (with "
                          "sub_num 2 and patch_merging) and a width of at least 8");
}

}  // namespace

void validate_rec_backbone(const BackboneSpec& b, const std::string& path) {
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw UsageError(path + (key.empty() ? "" : "." + key) + ": " + what);
  };
  const std::vector<std::string> known = rec_backbone_names();
  if (std::find(known.begin(), known.end(), b.name) == known.end())
    fail("name", "unknown backbone '" + b.name + "' (known: " + join(known) + ")");
  if (!(b.scale > 0.0)) fail("scale", "must be > 0");
  if (b.in_channels < 1) fail("in_channels", "must be >= 1");
  if (b.name == "MobileNetV1Enhance") {
    if (b.last_conv_stride.empty() || b.last_conv_stride.size() > 2) fail("last_conv_stride", "one or two values");
    if (b.last_pool_type != "avg" && b.last_pool_type != "max")
      fail("last_pool_type", "unknown pool '" + b.last_pool_type + "' (known: avg, max)");
    if (b.last_pool_kernel_size.empty() || b.last_pool_kernel_size.size() > 2)
      fail("last_pool_kernel_size", "one or two values");
    if (int(32 * b.scale) < 1) fail("scale", "too small: int(32 * scale) must be >= 1");
  } else if (b.name == "PPLCNetV3") {
    if (b.conv_kxk_num < 1) fail("conv_kxk_num", "must be >= 1");
  } else if (b.name == "MobileNetV3") {
    if (b.model_name != "large" && b.model_name != "small")
      fail("model_name", "unknown model '" + b.model_name + "' (known: large, small)");
    const double ok[] = {0.35, 0.5, 0.75, 1.0, 1.25};  // PaddleOCR's supported_scale
    if (std::none_of(std::begin(ok), std::end(ok), [&](double v) { return std::abs(v - b.scale) < 1e-9; }))
      fail("scale", "MobileNetV3 supports 0.35, 0.5, 0.75, 1.0, 1.25");
    if (b.small_stride.size() != 4) fail("small_stride", "needs 4 values");
    if (b.large_stride.size() != 4) fail("large_stride", "needs 4 values");
  } else if (b.name == "SVTRNet") {
    validate_svtrnet(b.svtr, path);
  } else if (b.name == "ResNet") {
    if (b.layers == 50 || b.layers == 101 || b.layers == 152 || b.layers == 200)
      fail("layers", std::to_string(b.layers) + " builds bottleneck blocks whose last stage gives 2048 channels, "
                     "but PaddleOCR's recognition ResNet (rec_resnet_vd.py) tells the neck and head 512, so "
                     "PaddleOCR fails on this config too at the first batch; use 18 or 34");
    if (b.layers != 18 && b.layers != 34) fail("layers", std::to_string(b.layers) + " is not supported (known: 18, 34)");
  }
}

void validate_rec_arch(const RecArchSpec& s) {
  const auto fail = [](const std::string& key, const std::string& what) {
    throw UsageError("Architecture." + key + ": " + what);
  };
  const auto& b = s.backbone;
  validate_rec_backbone(b);
  if (b.name == "SVTRNet") validate_svtr_head_input(s);
  if (s.head_pool && b.name != "SVTRNet")
    fail("Head.use_pool", "pools SVTRNet's token map (last_stage: false) before the heads; the " + b.name +
                              " backbone gives a pooled line already: set use_pool to false");
  const auto& n = s.neck;
  if (n.name != "SequenceEncoder") fail("Neck.name", "unknown neck '" + n.name + "' (known: SequenceEncoder)");
  const std::vector<std::string> types = {"reshape", "fc", "rnn", "svtr"};
  if (std::find(types.begin(), types.end(), n.encoder_type) == types.end())
    fail("Neck.encoder_type", "unknown encoder '" + n.encoder_type + "' (known: " + join(types) + ")");
  if ((n.encoder_type == "fc" || n.encoder_type == "rnn") && n.hidden_size < 1) fail("Neck.hidden_size", "must be >= 1");
  if (n.encoder_type == "svtr") {
    if (n.dims < 1 || n.depth < 0 || n.hidden_dims < 1 || n.num_heads < 1) fail("Neck", "svtr sizes must be positive");
    if (n.hidden_dims % n.num_heads != 0)
      fail("Neck.hidden_dims", std::to_string(n.hidden_dims) + " is not divisible by num_heads " +
                                   std::to_string(n.num_heads));
    if (n.kernel_size.size() != 2) fail("Neck.kernel_size", "needs 2 values [kh, kw]");
  }
  if (s.head.name != "CTCHead") fail("Head.name", "unknown head '" + s.head.name + "' (known: CTCHead, MultiHead)");
  if (s.head.out_channels < 2) fail("Head.out_channels", "needs >= 2 CTC classes (set from the dictionary)");
  if (s.head.mid_channels < 0) fail("Head.mid_channels", "must be >= 0");
  if (s.sar) validate_sar_head(*s.sar, "Architecture.Head.SARHead");
  if (s.nrtr) validate_nrtr_head(*s.nrtr, "Architecture.Head.NRTRHead");
}

}  // namespace ocrforge
