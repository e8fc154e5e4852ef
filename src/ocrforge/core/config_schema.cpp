// The training-config schema: the tables (what PaddleOCR's rec configs use)
// and the checker that walks a YAML tree against them.
#include "ocrforge/core/config_schema.h"
#include "ocrforge/core/control_chars.h"

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <cstdlib>

#include "ocrforge/core/text.h"

namespace ocrforge::schema {

// ---- the tables: one row per key; add rows (or Variants) to extend -------

namespace {
constexpr Kind B = Kind::Bool, I = Kind::Int, N = Kind::Number, S = Kind::String;
constexpr Kind IL = Kind::IntList, IOL = Kind::IntOrList, NL = Kind::NumberList,
               NOL = Kind::NumberOrList, SL = Kind::StringList, SOL = Kind::StringOrList;

Field global_section() {
  return section("Global", {
      {"use_gpu", B}, {"use_xpu", B}, {"debug", B}, {"epoch_num", I}, {"log_smooth_window", I},
      {"print_batch_step", I}, {"save_model_dir", S}, {"save_epoch_step", I},
      {"eval_batch_step", IOL, {}, 2}, {"cal_metric_during_train", B}, {"pretrained_model", S},
      {"checkpoints", S}, {"save_inference_dir", S}, {"use_visualdl", B}, {"infer_img", S},
      {"character_dict_path", S}, {"character_type", S}, {"max_text_length", I},
      {"infer_mode", B}, {"use_space_char", B}, {"distributed", B}, {"save_res_path", S},
      {"seed", I}, {"use_amp", B}, {"amp_level", S}, {"scale_loss", N},
      {"use_dynamic_loss_scaling", B}, {"use_sync_bn", B}, {"d2s_train_image_shape", IL, {}, 3},
      // PaddleOCR 2.8+ configs name the AMP precision; informational, as use_amp is refused on CPU
      {"amp_dtype", S, {"float16", "bfloat16"}},
      // ocrforge's own keys: CPU threads, bit-reproducible kernels, global
      // gradient-norm clipping (0 = off).
      {"num_threads", I}, {"deterministic", B}, {"grad_clip", N},
      // ocrforge's Prometheus monitor of a training run (train/loop/train_monitor.h).
      {"metrics_port", I}, {"metrics_host", S},
      // ocrforge's: each checkpoint also written as <name>.pdparams (docs/pdparams.md).
      {"save_pdparams", B},
      // PaddleOCR 2.x det configs carry it (static-graph weights); accepted, unused.
      {"load_static_weights", B},
      // the direction classifier's classes, in the model's output order
      {"label_list", SL},
      // PaddleOCR's TIPC runner passes it with every training command;
      // accepted and informational: precision itself is Global.use_amp.
      {"auto_cast", S, {"fp32", "amp"}},
  });
}

Field architecture_section() {
  std::vector<Variant> backbones = {
      {"MobileNetV1Enhance", {{"scale", N}, {"last_conv_stride", IOL, {}, 2},
                              {"last_pool_type", S, {"avg", "max"}},
                              {"last_pool_kernel_size", IL, {}, 2}}},
      {"MobileNetV3", {{"scale", N}, {"model_name", S, {"large", "small"}},
                       {"small_stride", IL, {}, 4}, {"large_stride", IL, {}, 4},
                       {"disable_se", B}}},
      {"PPLCNetV3", {{"scale", N}, {"det", B}, {"conv_kxk_num", I}, {"lr_mult_list", NL, {}, 6}, {"lab_lr", N}}},
  };
  std::vector<Variant> necks = {
      // PaddleOCR's SequenceEncoder passes the svtr keys on to EncoderWithSVTR.
      {"SequenceEncoder", {{"encoder_type", S, {"reshape", "fc", "rnn", "svtr"}},
                           {"hidden_size", I}, {"dims", I}, {"depth", I}, {"hidden_dims", I},
                           {"use_guide", B}, {"num_heads", I}, {"qkv_bias", B},
                           {"mlp_ratio", N}, {"drop_rate", N}, {"attn_drop_rate", N},
                           {"drop_path", N}, {"kernel_size", IL, {}, 2}, {"qk_scale", N}}},
  };
  std::vector<Variant> heads = {
      {"CTCHead", {{"fc_decay", N}, {"mid_channels", I}, {"return_feats", B},
                   {"out_channels", I}}},
      // PP-OCRv3: CTCHead (with its own Neck) + the training-only SARHead;
      // the entries are checked by train/models/rec_arch_spec.cpp
      {"MultiHead", {{"head_list", Kind::Any}, {"out_channels_list", Kind::Any}}},
  };
  return section("Architecture", {
      {"model_type", S, {"rec", "det", "cls"}},
      {"algorithm", S},
      // algorithm ONNX (fine-tuning a deployed model; train/onnx/onnx_arch.h)
      {"onnx_model", S}, {"freeze", SL}, {"update_bn_stats", B},
      // algorithm Distillation: `name: DistillationModel` and one full model
      // per entry of Models, each checked by its own reader
      // (train/models/distillation_arch.h)
      {"name", S}, {"Models", Kind::Any},
      component("Transform", "rectification transform", {}),  // none supported yet
      component("Backbone", "backbone", std::move(backbones)),
      component("Neck", "neck", std::move(necks)),
      component("Head", "head", std::move(heads)),
  });
}

Field optimizer_section() {
  std::vector<Variant> optimizers = {
      {"Adam", {{"beta1", N}, {"beta2", N}, {"epsilon", N}}},
      {"AdamW", {{"beta1", N}, {"beta2", N}, {"epsilon", N}, {"weight_decay", N},
                 {"no_weight_decay_name", S}, {"one_dim_param_no_weight_decay", B}}},
      {"Momentum", {{"momentum", N}}},
      {"SGD", {}},
  };
  std::vector<Variant> schedules = {
      {"Const", {{"learning_rate", N}, {"warmup_epoch", N}}},
      {"Cosine", {{"learning_rate", N}, {"warmup_epoch", N}}},
      {"Linear", {{"learning_rate", N}, {"epochs", I}, {"end_lr", N}, {"power", N},
                  {"warmup_epoch", N}}},
      {"Piecewise", {{"decay_epochs", IL}, {"values", NL}, {"warmup_epoch", N}}},
  };
  std::vector<Variant> regularizers = {{"L1", {{"factor", N}}}, {"L2", {{"factor", N}}}};
  Field lr = component("lr", "learning-rate schedule", std::move(schedules));
  lr.default_variant = "Const";  // PaddleOCR's build_lr_scheduler: name defaults to Const
  return component("Optimizer", "optimizer", std::move(optimizers),
                   {std::move(lr),
                    component("regularizer", "regularizer", std::move(regularizers)),
                    {"clip_norm", N}, {"clip_norm_global", N}});
}

Field data_section(const std::string& key) {
  std::vector<Variant> transforms = {
      {"CTCLabelEncode", {{"max_text_length", I}, {"character_dict_path", S},
                          {"use_space_char", B}}},
      {"DecodeImage", {{"img_mode", S, {"BGR", "RGB", "GRAY"}}, {"channel_first", B},
                       {"ignore_orientation", B}}},
      {"KeepKeys", {{"keep_keys", SL}}},
      {"RecAug", {{"tia_prob", N}, {"crop_prob", N}, {"reverse_prob", N}, {"noise_prob", N},
                  {"jitter_prob", N}, {"blur_prob", N}, {"hsv_aug_prob", N},
                  {"use_tia", B}, {"aug_prob", N}}},
      // PP-OCRv3 MultiHead / distillation configs: CTC + SAR labels in one
      // step, and concatenation of short crops (train/data/rec_con_aug.h)
      {"MultiLabelEncode", {{"max_text_length", I}, {"character_dict_path", S},
                            {"use_space_char", B}, {"gtc_encode", S}}},
      {"RecConAug", {{"prob", N}, {"ext_data_num", I}, {"image_shape", IL, {}, 3},
                     {"max_text_length", I}}},
      {"RecResizeImg", {{"image_shape", IL, {}, 3}, {"padding", B}, {"infer_mode", B},
                        {"eval_mode", B}, {"character_dict_path", S}}},
      // the direction classifier's (cls_mv3.yml); RandAugment is refused by
      // the pipeline with a clear message rather than as an unknown name
      {"ClsLabelEncode", {}},
      {"ClsResizeImg", {{"image_shape", IL, {}, 3}}},
      {"BaseDataAugmentation", {{"crop_prob", N}, {"reverse_prob", N}, {"noise_prob", N},
                                {"jitter_prob", N}, {"blur_prob", N}, {"hsv_aug_prob", N}}},
      {"RandAugment", {}},
  };
  std::vector<Variant> datasets = {
      {"SimpleDataSet", {{"data_dir", S}, {"label_file_list", SOL}, {"ratio_list", NOL},
                         {"delimiter", S}, {"ext_op_transform_idx", I},
                         transform_list("transforms", std::move(transforms))}},
  };
  return section(key, {
      component("dataset", "dataset", std::move(datasets)),
      section("loader", {{"shuffle", B}, {"drop_last", B}, {"batch_size_per_card", I},
                         {"num_workers", I}, {"use_shared_memory", B}}),
  });
}

Field build_schema() {
  return section("", {
      global_section(),
      architecture_section(),
      component("Loss", "loss", {{"CTCLoss", {{"use_focal_loss", B}}}, {"ClsLoss", {}},
                                 // MultiHead: CTCLoss + SARLoss (train/models/rec_loss_spec.h checks the list)
                                 {"MultiLoss", {{"loss_config_list", Kind::Any}, {"weight_1", N}, {"weight_2", N}}},
                                 // distillation: a weighted list of loss terms
                                 // (train/models/distill_loss_spec.h checks it)
                                 {"CombinedLoss", {{"loss_config_list", Kind::Any}}}}),
      optimizer_section(),
      component("PostProcess", "post-process",
                {{"CTCLabelDecode", {{"character_dict_path", S}, {"use_space_char", B}}},
                 {"DistillationCTCLabelDecode", {{"character_dict_path", S}, {"use_space_char", B},
                                                 {"model_name", SOL}, {"key", S}, {"multi_head", B}}},
                 {"ClsPostProcess", {{"label_list", SL}}}}),
      component("Metric", "metric",
                {{"RecMetric", {{"main_indicator", S}, {"ignore_space", B}, {"is_filter", B}}},
                 {"ClsMetric", {{"main_indicator", S}}},
                 {"DistillationMetric", {{"base_metric_name", S, {"RecMetric", "DetMetric"}}, {"main_indicator", S},
                                         {"key", S}, {"ignore_space", B}, {"is_filter", B}}}}),
      data_section("Train"),
      data_section("Eval"),
  });
}
}  // namespace

static Field& mutable_schema() {
  static Field schema = build_schema();
  return schema;
}

const Field& config_schema() { return mutable_schema(); }

namespace {

// The fields reachable one step below `f` under `key` (see add_schema_variants).
std::vector<Field*> children(Field& f, const std::string& key) {
  std::vector<Field*> out;
  for (auto& c : f.fields)
    if (c.key == key) out.push_back(&c);
  if (out.empty() && f.kind == Kind::Component)
    for (auto& v : f.variants)
      for (auto& c : v.fields)
        if (c.key == key) out.push_back(&c);
  return out;
}

void merge_variants(Field& target, const std::vector<Variant>& variants) {
  for (const auto& v : variants) {
    auto same = std::find_if(target.variants.begin(), target.variants.end(),
                             [&](const Variant& e) { return e.name == v.name; });
    if (same == target.variants.end()) {
      target.variants.push_back(v);
      continue;
    }
    for (const auto& f : v.fields) {
      const bool known = std::any_of(same->fields.begin(), same->fields.end(),
                                     [&](const Field& e) { return e.key == f.key; });
      if (!known) same->fields.push_back(f);
    }
  }
}

}  // namespace

void add_schema_variants(const std::string& path, const std::vector<Variant>& variants) {
  std::vector<Field*> level = {&mutable_schema()};
  size_t start = 0;
  while (start <= path.size()) {
    const size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    std::vector<Field*> next;
    for (Field* f : level)
      for (Field* c : children(*f, key)) next.push_back(c);
    if (next.empty()) throw std::logic_error("add_schema_variants: no component at '" + path + "'");
    level = next;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (Field* f : level) {
    if (f->kind != Kind::Component && f->kind != Kind::Transforms)
      throw std::logic_error("add_schema_variants: '" + path + "' is not a component or transform list");
    merge_variants(*f, variants);
  }
}

// ---- scalar readers ------------------------------------------------------

bool read_bool(const std::string& text, bool* out) {
  const std::string v = to_lower(text);
  if (v == "true" || v == "yes" || v == "on" || v == "1") return *out = true, true;
  if (v == "false" || v == "no" || v == "off" || v == "0") return *out = false, true;
  return false;
}

bool read_int(const std::string& text, long long* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *out = std::strtoll(text.c_str(), &end, 10);
  return *end == '\0' && errno == 0;
}

bool read_number(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return *end == '\0';
}

std::string describe_value(const YAML::Node& n) {
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  return "'" + printable(n.Scalar()) + "'";
}

std::string describe_kind(const Field& f) {
  const std::string n = f.list_len > 0 ? std::to_string(f.list_len) + " " : "";
  switch (f.kind) {
    case Kind::Bool: return "a boolean (true/false)";
    case Kind::Int: return "an integer";
    case Kind::Number: return "a number";
    case Kind::String: {
      std::string s;
      for (const auto& c : f.choices) s += (s.empty() ? "one of " : ", ") + c;
      return s.empty() ? "a string" : s;
    }
    case Kind::IntList: return "a list of " + n + "integers";
    case Kind::IntOrList: return "an integer or a list of " + n + "integers";
    case Kind::NumberList: return "a list of " + n + "numbers";
    case Kind::NumberOrList: return "a number or a list of " + n + "numbers";
    case Kind::StringList: return "a list of " + n + "strings";
    case Kind::StringOrList: return "a string or a list of " + n + "strings";
    case Kind::Section: return "a map";
    case Kind::Component: return "a map with a 'name'";
    case Kind::Transforms: return "a list of one-key maps like '- DecodeImage: {img_mode: BGR}'";
    case Kind::Any: return "any value";
  }
  return "?";
}

// ---- the checker -----------------------------------------------------------

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s.empty() ? "none" : s;
}

std::string child_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

bool scalar_is(Kind element, const Field& f, const std::string& text) {
  bool b;
  long long i;
  double d;
  switch (element) {
    case Kind::Bool: return read_bool(text, &b);
    case Kind::Int: return read_int(text, &i);
    case Kind::Number: return read_number(text, &d);
    default:
      if (f.choices.empty()) return true;
      for (const auto& c : f.choices) if (c == text) return true;
      return false;
  }
}

class Checker {
 public:
  std::vector<std::string> problems;

  void value(const YAML::Node& n, const Field& f, const std::string& path) {
    if (!n.IsDefined() || n.IsNull()) return;  // "key:" alone means "not set"
    switch (f.kind) {
      case Kind::Bool: case Kind::Int: case Kind::Number: case Kind::String:
        if (!n.IsScalar() || !scalar_is(f.kind, f, n.Scalar())) mismatch(n, f, path);
        return;
      case Kind::IntList: case Kind::IntOrList: return list(n, f, path, Kind::Int);
      case Kind::NumberList: case Kind::NumberOrList: return list(n, f, path, Kind::Number);
      case Kind::StringList: case Kind::StringOrList: return list(n, f, path, Kind::String);
      case Kind::Section:
        if (!n.IsMap()) return mismatch(n, f, path);
        return keys(n, {&f.fields}, path);
      case Kind::Component: return component(n, f, path);
      case Kind::Transforms: return transforms(n, f, path);
      case Kind::Any: return;  // structured value checked by its reader
    }
  }

 private:
  void mismatch(const YAML::Node& n, const Field& f, const std::string& path) {
    problems.push_back("config key '" + path + "' must be " + describe_kind(f) + ", got " + describe_value(n));
  }

  void list(const YAML::Node& n, const Field& f, const std::string& path, Kind element) {
    const bool scalar_ok = f.kind == Kind::IntOrList || f.kind == Kind::NumberOrList ||
                           f.kind == Kind::StringOrList;
    if (n.IsScalar() && scalar_ok) {
      if (!scalar_is(element, f, n.Scalar())) mismatch(n, f, path);
      return;
    }
    if (!n.IsSequence()) return mismatch(n, f, path);
    const std::string prefix = "config key '" + path + "' must be " + describe_kind(f);
    if (f.list_len > 0 && n.size() != static_cast<size_t>(f.list_len))
      return problems.push_back(prefix + ", got a list of " + std::to_string(n.size()));
    for (size_t i = 0; i < n.size(); ++i)
      if (!n[i].IsScalar() || !scalar_is(element, f, n[i].Scalar()))
        return problems.push_back(prefix + ", but item " + std::to_string(i) + " is " + describe_value(n[i]));
  }

  // Every key of map `n` must be one of the fields in `allowed`.
  void keys(const YAML::Node& n, const std::vector<const std::vector<Field>*>& allowed,
            const std::string& path) {
    for (const auto& kv : n) {
      const std::string key = kv.first.Scalar();
      const Field* found = nullptr;
      std::vector<std::string> names;
      for (const auto* fields : allowed)
        for (const auto& f : *fields) {
          names.push_back(f.key);
          if (f.key == key) found = &f;
        }
      if (found) {
        value(kv.second, *found, child_path(path, key));
        continue;
      }
      const std::string close = closest_match(key, names);
      problems.push_back("unknown config key '" + child_path(path, key) + "' (" +
                         (close.empty() ? "known: " + join(names)
                                        : "did you mean '" + child_path(path, close) + "'?") +
                         ")");
    }
  }

  // The variant called `name`, or nullptr after reporting the unknown name.
  const Variant* variant(const Field& f, const std::string& name, const std::string& where) {
    std::vector<std::string> names;
    for (const auto& v : f.variants) {
      if (v.name == name) return &v;
      names.push_back(v.name);
    }
    const std::string close = closest_match(name, names);
    problems.push_back(where + ": " + (name.empty() ? "missing " + f.what + " name"
                                                    : "unknown " + f.what + " '" + name + "'") +
                       " (known: " + join(names) + ")" +
                       (close.empty() || name.empty() ? "" : "; did you mean '" + close + "'?"));
    return nullptr;
  }

  void component(const YAML::Node& n, const Field& f, const std::string& path) {
    if (!n.IsMap()) return mismatch(n, f, path);
    const YAML::Node name = n["name"];
    const bool named = name.IsDefined() && name.IsScalar();
    const std::string chosen = named ? name.Scalar() : f.default_variant;
    const Variant* v = variant(f, chosen, child_path(path, "name"));
    static const std::vector<Field> name_field = {{"name", Kind::String}};
    if (v) keys(n, {&name_field, &f.fields, &v->fields}, path);
  }

  void transforms(const YAML::Node& n, const Field& f, const std::string& path) {
    if (!n.IsSequence()) return mismatch(n, f, path);
    for (size_t i = 0; i < n.size(); ++i) {
      const std::string where = path + "[" + std::to_string(i) + "]";
      if (!n[i].IsMap() || n[i].size() != 1) {
        problems.push_back("config key '" + where + "' must be one transform, a one-key map like "
                           "'- DecodeImage: {img_mode: BGR}', got " + describe_value(n[i]));
        continue;
      }
      const auto kv = *n[i].begin();  // {DecodeImage: {img_mode: BGR}}
      const Variant* v = variant(f, kv.first.Scalar(), where);
      const std::string params = child_path(where, kv.first.Scalar());
      if (!v || kv.second.IsNull()) continue;
      if (kv.second.IsMap()) keys(kv.second, {&v->fields}, params);
      else problems.push_back("config key '" + params + "' must be a map of parameters, got " +
                              describe_value(kv.second));
    }
  }
};

}  // namespace

std::vector<std::string> check_config(const YAML::Node& root, const Field& schema) {
  Checker c;
  if (root.IsDefined() && !root.IsNull() && !root.IsMap())
    c.problems.push_back("a config must be a map of sections (Global, Architecture, ...), got " +
                         describe_value(root));
  else
    c.value(root, schema, "");
  return c.problems;
}

}  // namespace ocrforge::schema
