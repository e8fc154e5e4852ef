// The Architecture.Backbone keys of PaddleOCR's SVTRNet
// (ppocr/modeling/backbones/rec_svtrnet.py), typed, with PaddleOCR's
// constructor defaults. Free of torch includes, so the config checker and
// the exporter read it without LibTorch headers. The network is svtrnet.h.
#pragma once
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace ocrforge {

struct SvtrNetSpec {
  std::vector<int> img_size{32, 100};  // H, W: the one input size the network takes
  std::vector<int> embed_dim{64, 128, 256};
  std::vector<int> depth{3, 6, 3};
  std::vector<int> num_heads{2, 4, 8};
  // One mixer per block, stage after stage: Global | Local (attention,
  // Local masked to a local_mixer window) | Conv (grouped local convolution).
  std::vector<std::string> mixer{"Local", "Local", "Local", "Local", "Local", "Local",
                                 "Global", "Global", "Global", "Global", "Global", "Global"};
  std::vector<std::vector<int>> local_mixer{{7, 11}, {7, 11}, {7, 11}};  // per stage: kernel / window (h, w)
  std::string patch_merging = "Conv";  // Conv | Pool | None: the [2, 1] downsampling between stages
  double mlp_ratio = 4.0;
  bool qkv_bias = true;
  double qk_scale = 0.0;  // 0: head_dim^-0.5 (PaddleOCR's None)
  double drop_rate = 0.0;       // position, MLP and attention-projection dropout
  double last_drop = 0.1;       // last_stage's dropout (Paddle's downscale_in_infer)
  double attn_drop_rate = 0.0;  // dropout on the attention matrix
  double drop_path_rate = 0.1;  // stochastic depth, 0 .. rate over the blocks
  double epsilon = 1e-6;        // the blocks' LayerNorm (SubSample's keeps Paddle's 1e-5)
  int out_channels = 192;
  int out_char_num = 25;  // last_stage: width of the pooled line
  std::string act = "nn.GELU";  // the MLPs' activation: nn.GELU | nn.Swish
  bool last_stage = true;  // pool to 1 x out_char_num, 1x1 conv to out_channels, hardswish, dropout
  int sub_num = 2;         // PatchEmbed: 2 or 3 stride-2 convolutions
  bool prenorm = true;     // True: x = norm(x + f(x)); False: x = x + f(norm(x)), and a final norm

  int stride() const { return 1 << sub_num; }
  // The token grid after the patch embedding and after stage s (0..2).
  int grid_h(int stage) const;
  int grid_w() const { return img_size.at(1) / stride(); }
  bool merges() const { return patch_merging != "None"; }
  // Channels and height of the backbone's output map: out_channels x 1 with
  // last_stage, else embed_dim[2] x grid_h(2).
  int output_channels() const { return last_stage ? out_channels : embed_dim.at(2); }
};

// Reads SVTRNet's keys from the Backbone mapping `n` (key path `path`; name
// already read). Keys PaddleOCR takes but ocrforge does not build
// (use_lenhead: true, other block units, norms or activations) are refused
// with a UsageError naming the key.
SvtrNetSpec read_svtrnet_keys(const YAML::Node& n, const std::string& path);

// Value checks (UsageError naming `path`'s keys): list lengths, sizes that
// divide, as PaddleOCR would otherwise fail at its first forward.
void validate_svtrnet(const SvtrNetSpec& s, const std::string& path);

}  // namespace ocrforge
