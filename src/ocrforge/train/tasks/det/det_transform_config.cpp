// Parses the detection transform list into DetTransformSpec. As for
// recognition, the pipeline's order is fixed in code (typed steps), so the
// config's list is validated against it rather than executed as written.
#include "ocrforge/train/tasks/det/det_transform_config.h"

#include <optional>

#include <map>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/data/data_yaml.h"

namespace ocrforge {

namespace y = data_yaml;

namespace {

// Whether `key` is set in `p` (at config path `path`); the key is recorded as
// read either way (core/config_reads.h), so a typo of it gets it as suggestion.
bool has(const YAML::Node& p, const std::string& path, const char* key) {
  note_config_read(path + "." + key);
  return p && p.IsMap() && p[key] && !p[key].IsNull();
}

UsageError bad(const std::string& path, const std::string& what) {
  return UsageError("config key '" + path + "': " + what);
}

// A number, also PaddleOCR's string form "1./255." (which it eval()s).
double number_or_ratio(const YAML::Node& n, const std::string& path) {
  if (!n.IsScalar()) throw bad(path, "expected a number such as 0.00392 or 1./255.");
  const std::string s = n.Scalar();
  const size_t slash = s.find('/');
  if (slash == std::string::npos) return y::number(n, path);
  const double num = y::number(YAML::Node(trim(s.substr(0, slash))), path);
  const double den = y::number(YAML::Node(trim(s.substr(slash + 1))), path);
  if (den == 0.0) throw bad(path, "division by zero in '" + s + "'");
  return num / den;
}

// A number (lo = hi) or [lo, hi].
std::pair<double, double> range(const YAML::Node& n, const std::string& path) {
  if (n.IsScalar()) {
    const double v = y::number(n, path);
    return {v, v};
  }
  if (!n.IsSequence() || n.size() != 2) throw bad(path, "expected a number or [low, high]");
  const double lo = y::number(n[0], path + "[0]"), hi = y::number(n[1], path + "[1]");
  if (lo > hi) throw bad(path, "low is greater than high");
  return {lo, hi};
}

double probability(const YAML::Node& n, const std::string& path) {
  const double v = y::number(n, path);
  if (v < 0.0 || v > 1.0) throw bad(path, "a probability in [0, 1]");
  return v;
}

void parse_decode(const YAML::Node& p, const std::string& path) {
  has(p, path, "ignore_orientation");  // PaddleOCR's EXIF switch: accepted, images are read as stored
  if (has(p, path, "img_mode") && y::string(p["img_mode"], path + ".img_mode") != "BGR")
    throw bad(path + ".img_mode", "only BGR is supported (the detector reads BGR, as at inference)");
  if (has(p, path, "channel_first") && y::boolean(p["channel_first"], path + ".channel_first"))
    throw bad(path + ".channel_first", "must be false (ToCHWImage makes CHW)");
}

DetIaaStep parse_augmenter(const YAML::Node& item, const std::string& path) {
  if (!item.IsMap()) throw bad(path, "expected {type: Fliplr|Affine|Resize, args: {...}}");
  if (!has(item, path, "type")) throw bad(path + ".type", "missing (Fliplr, Affine or Resize)");
  const std::string type = y::string(item["type"], path + ".type");
  const YAML::Node args = item["args"];
  const std::string apath = path + ".args";
  DetIaaStep s;
  if (type == "Fliplr") {
    s.kind = DetIaaStep::Kind::kFliplr;
    s.p = has(args, apath, "p") ? probability(args["p"], apath + ".p") : 1.0;  // imgaug's default p
  } else if (type == "Affine") {
    s.kind = DetIaaStep::Kind::kAffine;
    if (has(args, apath, "rotate")) std::tie(s.lo, s.hi) = range(args["rotate"], apath + ".rotate");
  } else if (type == "Resize") {
    s.kind = DetIaaStep::Kind::kResize;
    if (!has(args, apath, "size")) throw bad(apath + ".size", "missing: a factor or [low, high], e.g. [0.5, 3]");
    std::tie(s.lo, s.hi) = range(args["size"], apath + ".size");
    if (s.lo <= 0.0) throw bad(apath + ".size", "factors must be positive");
  } else {
    const std::vector<std::string> known = {"Fliplr", "Affine", "Resize"};
    const std::string hint = closest_match(type, known);
    throw bad(path + ".type", "'" + type + "' is not supported" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                  "; supported: Fliplr, Affine (rotate), Resize (size)");
  }
  return s;
}

void parse_iaa(const YAML::Node& p, const std::string& path, DetTransformSpec* spec) {
  if (!has(p, path, "augmenter_args")) return;  // PaddleOCR's defaults
  const YAML::Node args = p["augmenter_args"];
  const std::string apath = path + ".augmenter_args";
  if (!args.IsSequence()) throw bad(apath, "expected a list of {type, args} maps");
  spec->iaa.clear();
  for (size_t i = 0; i < args.size(); ++i) spec->iaa.push_back(parse_augmenter(args[i], apath + "[" + std::to_string(i) + "]"));
}

// PaddleOCR's CopyPaste(objects_paste_ratio 0.2, limit_paste true).
void parse_copy_paste(const YAML::Node& p, const std::string& path, DetCopyPasteParams* c) {
  if (has(p, path, "objects_paste_ratio")) {
    c->objects_paste_ratio = y::number(p["objects_paste_ratio"], path + ".objects_paste_ratio");
    if (c->objects_paste_ratio < 0.0 || c->objects_paste_ratio > 1.0)
      throw bad(path + ".objects_paste_ratio", "a fraction in [0, 1]");
  }
  if (has(p, path, "limit_paste")) c->limit_paste = y::boolean(p["limit_paste"], path + ".limit_paste");
}

void parse_crop(const YAML::Node& p, const std::string& path, DetCropParams* c) {
  if (has(p, path, "size")) {
    const YAML::Node s = p["size"];
    if (!s.IsSequence() || s.size() != 2) throw bad(path + ".size", "expected [width, height], e.g. [640, 640]");
    c->width = y::integer(s[0], path + ".size");
    c->height = y::integer(s[1], path + ".size");
    if (c->width < 1 || c->height < 1) throw bad(path + ".size", "width and height must be positive");
  }
  if (has(p, path, "max_tries")) c->max_tries = y::integer(p["max_tries"], path + ".max_tries");
  if (c->max_tries < 0) throw bad(path + ".max_tries", "must not be negative");
  if (has(p, path, "keep_ratio")) c->keep_ratio = y::boolean(p["keep_ratio"], path + ".keep_ratio");
  if (has(p, path, "min_crop_side_ratio")) {
    c->min_crop_side_ratio = y::number(p["min_crop_side_ratio"], path + ".min_crop_side_ratio");
    if (c->min_crop_side_ratio < 0.0 || c->min_crop_side_ratio > 1.0)
      throw bad(path + ".min_crop_side_ratio", "a fraction in [0, 1]");
  }
}

// PaddleOCR's Resize(size=(640, 640)): size is [height, width].
void parse_resize(const YAML::Node& p, const std::string& path, cv::Size* size) {
  if (!has(p, path, "size")) return;
  const YAML::Node s = p["size"];
  if (!s.IsSequence() || s.size() != 2) throw bad(path + ".size", "expected [height, width], e.g. [640, 640]");
  const long h = y::integer(s[0], path + ".size"), w = y::integer(s[1], path + ".size");
  if (h < 1 || w < 1 || h > 16384 || w > 16384) throw bad(path + ".size", "height and width must be in 1 ... 16384");
  *size = cv::Size(static_cast<int>(w), static_cast<int>(h));
}

double shrink_ratio(const YAML::Node& n, const std::string& path) {
  const double r = y::number(n, path);
  if (!(r > 0.0 && r < 1.0)) throw bad(path, "must lie strictly between 0 and 1");
  return r;
}

// PaddleOCR's MakeBorderMap / MakeShrinkMap add 0.2 * epoch / total_epoch to
// their shrink_ratio when given both; its SimpleDataSet sets `epoch` to the
// seed it is built with: Global.seed when the Train data is built once, the
// epoch number when it is rebuilt every epoch (a ratio_list entry below 1).
double scheduled_shrink_ratio(const YAML::Node& p, const std::string& path, double ratio,
                              const std::optional<double>& paddle_epoch) {
  if (!has(p, path, "total_epoch")) return ratio;
  const double total = y::number(p["total_epoch"], path + ".total_epoch");
  if (!(total > 0)) throw bad(path + ".total_epoch", "must be positive");
  if (!paddle_epoch)
    throw UsageError("config key '" + path + ".total_epoch' with a Train.dataset.ratio_list entry below 1: PaddleOCR "
                     "then raises shrink_ratio every epoch, which is not supported yet; remove total_epoch or the ratio");
  const double r = ratio + 0.2 * *paddle_epoch / total;
  // From 1 on, PaddleOCR's MakeShrinkMap has no ratio below 1 to try
  // (np.arange(r, 1, r) is empty) and masks out every text region, and
  // MakeBorderMap's offset area * (1 - r^2) / perimeter turns negative.
  if (r >= 1.0)
    throw UsageError("config key '" + path + ".total_epoch': PaddleOCR fails on this config too: its shrink_ratio + "
                     "0.2 * epoch / total_epoch, where epoch is the seed its Train data is built with (Global.seed, "
                     "1024 when absent), is " + std::to_string(r) + ", not below 1, so its MakeShrinkMap masks out "
                     "every text region and MakeBorderMap grows no border: nothing is learnt. Remove total_epoch, "
                     "set Global.seed lower, or raise total_epoch above " +
                     std::to_string(0.2 * *paddle_epoch / (1.0 - ratio)));
  return r;
}

void parse_border(const YAML::Node& p, const std::string& path, DetBorderMapParams* b,
                  const std::optional<double>& paddle_epoch) {
  if (has(p, path, "shrink_ratio")) b->shrink_ratio = shrink_ratio(p["shrink_ratio"], path + ".shrink_ratio");
  b->shrink_ratio = scheduled_shrink_ratio(p, path, b->shrink_ratio, paddle_epoch);
  if (has(p, path, "thresh_min")) b->thresh_min = y::number(p["thresh_min"], path + ".thresh_min");
  if (has(p, path, "thresh_max")) b->thresh_max = y::number(p["thresh_max"], path + ".thresh_max");
  if (b->thresh_min > b->thresh_max) throw bad(path + ".thresh_min", "is greater than thresh_max");
}

void parse_shrink(const YAML::Node& p, const std::string& path, DetShrinkMapParams* s,
                  const std::optional<double>& paddle_epoch) {
  if (has(p, path, "shrink_ratio")) s->shrink_ratio = shrink_ratio(p["shrink_ratio"], path + ".shrink_ratio");
  s->shrink_ratio = scheduled_shrink_ratio(p, path, s->shrink_ratio, paddle_epoch);
  if (has(p, path, "min_text_size")) s->min_text_size = y::integer(p["min_text_size"], path + ".min_text_size");
  if (s->min_text_size < 0) throw bad(path + ".min_text_size", "must not be negative");
}

void parse_resize_for_test(const YAML::Node& p, const std::string& path, DetTransformSpec* spec) {
  DetResizeParams* r = &spec->eval_resize;
  // PaddleOCR: without parameters limit_side_len 736, limit_type min; limit_type defaults to min.
  *r = DetResizeParams{736, DetLimitType::Min, r->max_side_limit};
  if (has(p, path, "image_shape")) {  // PaddleOCR's resize_type 1: a fixed [h, w]
    const std::vector<int> shape = config_detail::convert<std::vector<int>>(p["image_shape"], path + ".image_shape");
    if (shape.size() != 2 || shape[0] < 32 || shape[1] < 32)
      throw bad(path + ".image_shape", "expected [height, width], each at least 32");
    spec->eval_fixed_size = cv::Size(shape[1], shape[0]);
    if (has(p, path, "keep_ratio")) spec->eval_keep_ratio = y::boolean(p["keep_ratio"], path + ".keep_ratio");
    if (has(p, path, "limit_side_len") || has(p, path, "limit_type") || has(p, path, "resize_long"))
      throw bad(path + ".image_shape", "cannot be combined with limit_side_len / limit_type / resize_long (PaddleOCR "
                                       "uses image_shape)");
    return;
  }
  if (has(p, path, "keep_ratio")) throw bad(path + ".keep_ratio", "only applies with image_shape");
  if (has(p, path, "resize_long")) {  // PaddleOCR's resize_type 2 (the seal detection configs)
    spec->eval_resize_long = y::integer(p["resize_long"], path + ".resize_long");
    if (spec->eval_resize_long < 1) throw bad(path + ".resize_long", "must be positive");
    if (has(p, path, "limit_side_len") || has(p, path, "limit_type"))
      throw bad(path + ".resize_long", "cannot be combined with limit_side_len / limit_type (PaddleOCR uses "
                                       "limit_side_len then)");
    return;
  }
  if (has(p, path, "limit_side_len")) {
    r->limit_side_len = y::integer(p["limit_side_len"], path + ".limit_side_len");
    if (r->limit_side_len < 1) throw bad(path + ".limit_side_len", "must be positive");
  }
  if (has(p, path, "limit_type")) {
    const std::string t = y::string(p["limit_type"], path + ".limit_type");
    if (t == "max") r->limit_type = DetLimitType::Max;
    else if (t == "min") r->limit_type = DetLimitType::Min;
    else throw bad(path + ".limit_type", "expected max or min, got '" + t + "'");
  }
}

std::array<double, 3> triple(const YAML::Node& n, const std::string& path) {
  if (!n.IsSequence() || n.size() != 3) throw bad(path, "expected 3 numbers, one per channel");
  std::array<double, 3> v{};
  for (size_t i = 0; i < 3; ++i) v[i] = y::number(n[i], path + "[" + std::to_string(i) + "]");
  return v;
}

void parse_normalize(const YAML::Node& p, const std::string& path, DetNormalizeParams* n) {
  if (has(p, path, "scale")) n->scale = number_or_ratio(p["scale"], path + ".scale");
  if (has(p, path, "mean")) n->mean = triple(p["mean"], path + ".mean");
  if (has(p, path, "std")) n->std = triple(p["std"], path + ".std");
  for (double s : n->std)
    if (s == 0.0) throw bad(path + ".std", "must not contain 0");
  if (has(p, path, "order") && y::string(p["order"], path + ".order") != "hwc")
    throw bad(path + ".order", "only hwc is supported (DecodeImage gives H x W x C; ToCHWImage transposes)");
}

void parse_keep_keys(const YAML::Node& p, const std::string& path, bool training, std::vector<std::string>* keys) {
  if (!has(p, path, "keep_keys")) return;
  const std::vector<std::string> allowed =
      training ? std::vector<std::string>{"image", "threshold_map", "threshold_mask", "shrink_map", "shrink_mask"}
               : std::vector<std::string>{"image", "shape", "polys", "ignore_tags"};
  for (const auto& k : y::string_list(p["keep_keys"], path + ".keep_keys")) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == k;
    if (!ok)
      throw bad(path + ".keep_keys", "'" + k + "' is not produced by the " + (training ? "training" : "evaluation") +
                                         " pipeline; known: " + y::joined(allowed));
    keys->push_back(k);
  }
}

bool one_of(const std::string& name, std::initializer_list<const char*> names) {
  for (const char* n : names) if (name == n) return true;
  return false;
}

}  // namespace

const std::vector<std::string>& known_det_transforms() {
  static const std::vector<std::string> names = {
      "DecodeImage",   "DetLabelEncode",   "CopyPaste",      "IaaAugment", "EastRandomCropData", "Resize",
      "MakeBorderMap", "MakeShrinkMap", "DetResizeForTest", "NormalizeImage", "ToCHWImage",         "KeepKeys"};
  return names;
}

DetTransformSpec det_transform_spec_from_yaml(const YAML::Node& transforms, const std::string& where, bool training,
                                              std::optional<double> paddle_epoch) {
  if (!transforms || !transforms.IsSequence())
    throw UsageError("config key '" + where + "': expected a list of transforms such as '- DecodeImage: ...'");
  DetTransformSpec spec;
  spec.training = training;
  std::map<std::string, size_t> position;
  const auto& known = known_det_transforms();
  for (size_t i = 0; i < transforms.size(); ++i) {
    const y::TransformEntry entry = y::transform_entry(transforms, i, where, known, &position);
    const std::string& name = entry.name;
    const YAML::Node& params = entry.params;
    const std::string& path = entry.path;
    if (training && name == "DetResizeForTest")
      throw UsageError("'" + path + "' belongs to evaluation; training crops with EastRandomCropData");
    if (!training && one_of(name, {"CopyPaste", "IaaAugment", "EastRandomCropData", "Resize", "MakeBorderMap", "MakeShrinkMap"}))
      throw UsageError("'" + path + "' belongs to training; an evaluation section uses DetResizeForTest");
    if (params && !params.IsNull() && !params.IsMap())
      throw UsageError("config key '" + path + "': expected a map of parameters");
    if (name == "DecodeImage") parse_decode(params, path);
    else if (name == "DetLabelEncode" || name == "ToCHWImage") {}  // no parameters: any key is unknown
    else if (name == "CopyPaste") { parse_copy_paste(params, path, &spec.copy_paste); spec.use_copy_paste = true; }
    else if (name == "IaaAugment") { parse_iaa(params, path, &spec); spec.use_iaa = true; }
    else if (name == "EastRandomCropData") { parse_crop(params, path, &spec.crop); spec.use_crop = true; }
    else if (name == "Resize") { parse_resize(params, path, &spec.resize_size); spec.use_resize = true; }
    else if (name == "MakeBorderMap") parse_border(params, path, &spec.border, paddle_epoch);
    else if (name == "MakeShrinkMap") parse_shrink(params, path, &spec.shrink, paddle_epoch);
    else if (name == "DetResizeForTest") parse_resize_for_test(params, path, &spec);
    else if (name == "NormalizeImage") parse_normalize(params, path, &spec.normalize);
    else parse_keep_keys(params, path, training, &spec.keep_keys);
  }
  std::vector<const char*> required = {"DecodeImage", "DetLabelEncode", "NormalizeImage", "ToCHWImage"};
  if (training) required.insert(required.end(), {"MakeBorderMap", "MakeShrinkMap"});
  else required.push_back("DetResizeForTest");
  for (const char* r : required)
    if (!position.count(r)) throw UsageError("'" + where + "' needs a " + r + " transform");
  // Fixed order: each listed transform must come after those before it here.
  const std::vector<std::string> order = {"DecodeImage", "DetLabelEncode", "CopyPaste", "IaaAugment", "EastRandomCropData",
                                          "Resize", "MakeBorderMap", "DetResizeForTest", "NormalizeImage", "ToCHWImage"};
  const std::string* last = nullptr;
  for (const auto& name : order) {
    if (!position.count(name)) continue;
    if (last && position[*last] > position[name])
      throw UsageError("in '" + where + "', " + *last + " must come before " + name);
    last = &name;
  }
  // The two map makers are independent of each other; both follow the crop and precede normalisation.
  if (position.count("MakeShrinkMap")) {
    for (const char* before : {"DetLabelEncode", "IaaAugment", "EastRandomCropData", "Resize"})
      if (position.count(before) && position[before] > position["MakeShrinkMap"])
        throw UsageError("in '" + where + "', " + before + " must come before MakeShrinkMap");
    if (position["MakeShrinkMap"] > position["NormalizeImage"])
      throw UsageError("in '" + where + "', MakeShrinkMap must come before NormalizeImage");
  }
  if (position.count("KeepKeys") && position["KeepKeys"] + 1 != transforms.size())
    throw UsageError("in '" + where + "', KeepKeys must be the last transform");
  return spec;
}

}  // namespace ocrforge
