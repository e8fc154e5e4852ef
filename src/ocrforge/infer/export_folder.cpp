#include "ocrforge/infer/export_folder.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <sstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/model_type.h"
#include "ocrforge/core/yaml_child.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

// The parsed inference.yml of the export folder `model_dir` of a `role`
// model ("rec" | "det"), or nothing when model_dir is not such a folder.
// (Not a null YAML::Node for "nothing": a null node converts to true.)
std::optional<YAML::Node> export_yml(const std::string& model_dir, const std::string& role, std::string& yml) {
  std::error_code ec;
  if (model_dir.empty() || !fs::is_directory(model_dir, ec)) return std::nullopt;
  yml = (fs::path(model_dir) / "inference.yml").string();
  if (!fs::exists(yml, ec)) return std::nullopt;
  YAML::Node loaded;
  try {
    loaded = YAML::LoadFile(yml);
  } catch (const std::exception& e) {
    throw Error("'" + yml + "' (beside the " + role + " model) is not readable YAML: " + e.what() +
                "; export the model again with `ocrforge export`");
  }
  const YAML::Node& doc = loaded;  // const: lookups of absent keys must not insert them
  const YAML::Node global = yaml_child(doc, "Global");
  if (global && global.IsMap() && yaml_child(global, "model_type")) {
    ModelType type;
    try {
      type = read_model_type(global, yml + ": Global");
    } catch (const UsageError& e) {
      throw Error(e.what());
    }
    if (model_type_name(type) != role)
      throw Error("--" + role + "_model_dir '" + model_dir + "' holds a " + model_type_name(type) + " model (" + yml +
                  "), not a " + (role == "rec" ? "recognizer" : "detector"));
  }
  return loaded;
}

}  // namespace

void apply_rec_export_folder(RecParams& rec, bool dict_given, bool shape_given) {
  std::string yml;
  const std::optional<YAML::Node> loaded = export_yml(rec.model_dir, "rec", yml);
  if (!loaded) return;
  const YAML::Node& doc = *loaded;
  if (!dict_given) {
    const YAML::Node post = doc["PostProcess"];
    const YAML::Node chars = yaml_child(post, "character_dict");
    if (!chars || !chars.IsSequence() || chars.size() == 0)
      throw Error("'" + yml + "' has no PostProcess.character_dict; pass the dictionary with --rec_char_dict_path");
    rec.characters.clear();
    for (const auto& c : chars) rec.characters.push_back(c.as<std::string>());
    const YAML::Node space = post["use_space_char"];
    if (space && space.IsScalar()) rec.use_space_char = space.as<bool>();
    rec.characters_source = yml;
  }
  if (!shape_given) {
    const YAML::Node ops = yaml_child(doc["PreProcess"], "transform_ops");
    for (const auto& op : ops.IsSequence() ? ops : YAML::Node(YAML::NodeType::Sequence)) {
      if (!op.IsMap() || !op["RecResizeImg"] || !op["RecResizeImg"].IsMap()) continue;
      const YAML::Node shape = op["RecResizeImg"]["image_shape"];
      if (!shape || !shape.IsSequence() || shape.size() != 3) continue;
      rec.image_h = shape[1].as<int>();
      rec.image_w = shape[2].as<int>();
    }
  }
}

void apply_det_export_folder(DetParams& det, const std::function<bool(const std::string& key)>& flag_given) {
  std::string yml;
  const std::optional<YAML::Node> loaded = export_yml(det.model_dir, "det", yml);
  if (!loaded) return;
  const YAML::Node& doc = *loaded;
  const YAML::Node post = doc["PostProcess"];
  if (!post || !post.IsMap()) return;
  const YAML::Node name = post["name"];
  if (name && name.IsScalar() && name.Scalar() != "DBPostProcess")
    throw Error("'" + yml + "': PostProcess '" + name.Scalar() + "' is not supported (DBPostProcess only)");
  // The yml's value of `key` when it has one and its flag was not given.
  const auto take = [&](const std::string& key) -> std::optional<YAML::Node> {
    const YAML::Node v = post[key];
    if (v && v.IsScalar() && !flag_given(key)) return v;
    return std::nullopt;
  };
  const auto number = [&](const std::string& key, float lo, float hi, float& out) {
    const std::optional<YAML::Node> found = take(key);
    if (!found) return;
    const YAML::Node& v = *found;
    double d = 0;
    try {
      d = v.as<double>();
    } catch (const std::exception&) {
      throw Error("'" + yml + "': PostProcess." + key + " '" + v.Scalar() + "' is not a number");
    }
    if (!(d >= lo && d <= hi)) {
      std::ostringstream range;
      range << "[" << lo << ", " << hi << "]";
      throw Error("'" + yml + "': PostProcess." + key + " " + v.Scalar() + " is out of range " + range.str());
    }
    out = static_cast<float>(d);
  };
  const auto choice = [&](const std::string& key, const std::string& a, const std::string& b) {
    const std::optional<YAML::Node> found = take(key);
    if (!found) return -1;
    const YAML::Node& v = *found;
    if (v.Scalar() != a && v.Scalar() != b)
      throw Error("'" + yml + "': PostProcess." + key + " must be " + a + " or " + b + ", got '" + v.Scalar() + "'");
    return v.Scalar() == a ? 0 : 1;
  };
  number("thresh", 0, 1, det.post.thresh);
  number("box_thresh", 0, 1, det.post.box_thresh);
  number("unclip_ratio", 0, 100, det.post.unclip_ratio);
  float candidates = static_cast<float>(det.post.max_candidates);
  number("max_candidates", 1, 1e7f, candidates);
  det.post.max_candidates = static_cast<int>(candidates);
  if (const std::optional<YAML::Node> v = take("use_dilation")) {
    try {
      det.post.use_dilation = v->as<bool>();
    } catch (const std::exception&) {
      throw Error("'" + yml + "': PostProcess.use_dilation '" + v->Scalar() + "' is not true / false");
    }
  }
  if (const int m = choice("score_mode", "fast", "slow"); m >= 0)
    det.post.score_mode = m == 0 ? DbScoreMode::Fast : DbScoreMode::Slow;
  if (const int t = choice("box_type", "quad", "poly"); t >= 0)
    det.post.box_type = t == 0 ? DetBoxType::Quad : DetBoxType::Poly;
}

}  // namespace ocrforge
