#include "ocrforge/train/tasks/rec/svtrnet_spec.h"

#include <yaml-cpp/yaml.h>

#include <numeric>

#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

int SvtrNetSpec::grid_h(int stage) const {
  const int h = img_size.at(0) / stride();
  return merges() ? h >> stage : h;
}

namespace {

// PaddleOCR eval()s these strings; ocrforge builds the ones listed.
void read_choice(const YAML::Node& n, const std::string& key, const std::string& path,
                 const std::vector<std::string>& known, std::string& out) {
  read(n, key, path, out);
  for (const auto& k : known)
    if (out == k) return;
  throw UsageError(path + "." + key + ": '" + out + "' is not supported yet (known: " + join(known) + ")");
}

}  // namespace

SvtrNetSpec read_svtrnet_keys(const YAML::Node& n, const std::string& path) {
  SvtrNetSpec s;
  read(n, "img_size", path, s.img_size);
  read(n, "embed_dim", path, s.embed_dim);
  read(n, "depth", path, s.depth);
  read(n, "num_heads", path, s.num_heads);
  read(n, "mixer", path, s.mixer);
  note_config_read(path + ".local_mixer");
  if (present(n, "local_mixer")) {
    const YAML::Node lm = n["local_mixer"];
    if (!lm.IsSequence())
      throw UsageError(path + ".local_mixer: expected one [h, w] per stage, e.g. [[5, 5], [5, 5], [5, 5]]");
    s.local_mixer.clear();
    for (size_t i = 0; i < lm.size(); ++i)
      s.local_mixer.push_back(
          config_detail::convert<std::vector<int>>(lm[i], path + ".local_mixer[" + std::to_string(i) + "]"));
  }
  // PaddleOCR builds no merging for anything but Conv / Pool; a null or
  // "None" says so, another word is more likely a typo than a wish.
  note_config_read(path + ".patch_merging");
  if (present(n, "patch_merging")) read_choice(n, "patch_merging", path, {"Conv", "Pool", "None"}, s.patch_merging);
  else if (n["patch_merging"]) s.patch_merging = "None";
  read(n, "mlp_ratio", path, s.mlp_ratio);
  read(n, "qkv_bias", path, s.qkv_bias);
  read(n, "qk_scale", path, s.qk_scale);
  read(n, "drop_rate", path, s.drop_rate);
  read(n, "last_drop", path, s.last_drop);
  read(n, "attn_drop_rate", path, s.attn_drop_rate);
  read(n, "drop_path_rate", path, s.drop_path_rate);
  read(n, "epsilon", path, s.epsilon);
  read(n, "out_channels", path, s.out_channels);
  read(n, "out_char_num", path, s.out_char_num);
  read_choice(n, "act", path, {"nn.GELU", "nn.Swish"}, s.act);
  read(n, "last_stage", path, s.last_stage);
  read(n, "sub_num", path, s.sub_num);
  read(n, "prenorm", path, s.prenorm);
  std::string unit = "Block", norm = "nn.LayerNorm", sub_norm = "nn.LayerNorm";
  read_choice(n, "block_unit", path, {"Block"}, unit);
  read_choice(n, "norm_layer", path, {"nn.LayerNorm"}, norm);
  read_choice(n, "sub_norm", path, {"nn.LayerNorm"}, sub_norm);
  bool use_lenhead = false;
  read(n, "use_lenhead", path, use_lenhead);
  if (use_lenhead)
    throw UsageError(path + ".use_lenhead: SVTRNet's length head (a second output, the text length) is not "
                            "supported yet: no head ocrforge builds reads it; set it to false");
  validate_svtrnet(s, path);
  return s;
}

void validate_svtrnet(const SvtrNetSpec& s, const std::string& path) {
  const auto fail = [&](const std::string& key, const std::string& what) { throw UsageError(path + "." + key + ": " + what); };
  if (s.img_size.size() != 2 || s.img_size[0] < 1 || s.img_size[1] < 1)
    fail("img_size", "needs [height, width], both positive");
  const auto per_stage = [&](const char* key, const std::vector<int>& v, int min) {
    if (v.size() != 3) fail(key, "needs one value per stage (3)");
    for (int x : v)
      if (x < min) fail(key, "values must be >= " + std::to_string(min));
  };
  per_stage("embed_dim", s.embed_dim, 1);
  per_stage("depth", s.depth, 0);
  per_stage("num_heads", s.num_heads, 1);
  if (s.local_mixer.size() != 3) fail("local_mixer", "needs one [h, w] per stage (3)");
  for (const auto& k : s.local_mixer)
    if (k.size() != 2 || k[0] < 1 || k[1] < 1) fail("local_mixer", "each stage needs [h, w], both positive");
  const int blocks = std::accumulate(s.depth.begin(), s.depth.end(), 0);
  if (static_cast<int>(s.mixer.size()) < blocks)
    fail("mixer", "lists " + std::to_string(s.mixer.size()) + " mixers for " + std::to_string(blocks) +
                      " blocks (sum of depth); give one per block");
  for (const auto& m : s.mixer)
    if (m != "Global" && m != "Local" && m != "Conv") fail("mixer", "unknown mixer '" + m + "' (known: Global, Local, Conv)");
  if (s.sub_num != 2 && s.sub_num != 3)
    fail("sub_num", "PatchEmbed builds 2 or 3 stride-2 convolutions, got " + std::to_string(s.sub_num));
  const int unit = s.sub_num == 2 ? 2 : 4;  // PatchEmbed's first convolution makes embed_dim[0] / unit channels
  if (s.embed_dim[0] % unit != 0)
    fail("embed_dim", "embed_dim[0] must be divisible by " + std::to_string(unit) + " (PatchEmbed's first convolutions)");
  // The token grid is img_size / 2^sub_num, and each merge halves its
  // height; PaddleOCR reshapes to those sizes, so they must be exact.
  const int need_h = s.stride() * (s.merges() ? 4 : 1);
  if (s.img_size[0] % need_h != 0 || s.img_size[1] % s.stride() != 0)
    fail("img_size", "[" + std::to_string(s.img_size[0]) + ", " + std::to_string(s.img_size[1]) +
                         "]: the height must be a multiple of " + std::to_string(need_h) + " and the width of " +
                         std::to_string(s.stride()) + " (sub_num " + std::to_string(s.sub_num) +
                         (s.merges() ? ", two patch merges" : "") + ")");
  for (int i = 0; i < 3; ++i)
    if (s.embed_dim[i] % s.num_heads[i] != 0)
      fail("num_heads", "embed_dim[" + std::to_string(i) + "] " + std::to_string(s.embed_dim[i]) +
                            " is not divisible by num_heads[" + std::to_string(i) + "] " +
                            std::to_string(s.num_heads[i]));
  if (!s.merges() && (s.embed_dim[0] != s.embed_dim[1] || s.embed_dim[1] != s.embed_dim[2]))
    fail("embed_dim", "without patch_merging the stages keep one width: all three values must be equal");
  if (s.mlp_ratio <= 0) fail("mlp_ratio", "must be > 0");
  if (s.qk_scale < 0) fail("qk_scale", "must be > 0 (or null: head_dim^-0.5)");
  if (s.epsilon <= 0) fail("epsilon", "must be > 0");
  for (const auto& [key, p] : {std::pair<const char*, double>{"drop_rate", s.drop_rate}, {"last_drop", s.last_drop},
                               {"attn_drop_rate", s.attn_drop_rate}, {"drop_path_rate", s.drop_path_rate}})
    if (p < 0 || p >= 1) fail(key, "must be in [0, 1)");
  if (s.out_channels < 1) fail("out_channels", "must be >= 1");
  if (s.last_stage && s.out_char_num < 1) fail("out_char_num", "must be >= 1");
}

}  // namespace ocrforge
