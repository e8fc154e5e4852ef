// The known keys of a training config (PaddleOCR schema), as data.
//
// The schema is a tree of Fields. A section is a map with fixed keys; a
// component (Backbone, Neck, Head, Loss, lr, dataset, ...) is a map whose
// allowed keys depend on its `name`; a transform list is a list of one-key
// maps `{DecodeImage: {img_mode: BGR}}` whose keys depend on that one key.
// New models extend the schema by adding rows (a Variant) to the tables in
// config_schema.cpp; nothing else needs to change.
//
// Validation rules (docs/config.md):
//   - a null value (`key:` with nothing after it) is accepted for every known
//     key, whatever its kind, and means "not set", as in PaddleOCR; an unknown
//     key is reported even when null (a typo must not pass silently);
//   - unknown keys are reported with their full path and the closest known
//     sibling key;
//   - values are checked against their Kind (a map where a number is expected,
//     a word where a boolean is expected, ...).
#pragma once
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace ocrforge::schema {

enum class Kind {
  Bool,          // true/false, True/False, yes/no, on/off, 1/0
  Int,           // 64-bit integer
  Number,        // any number: 0.001, 1e-3, 1.0e-3, 3
  String,        // any scalar (paths, names); `choices` restricts it
  IntList,       // [3, 48, 320]
  IntOrList,     // 2000 or [0, 2000]
  NumberList,    // [0.001, 0.0001]
  NumberOrList,  // 1.0 or [0.5, 0.5]
  StringList,    // [image, label, length]
  StringOrList,  // a.txt or [a.txt, b.txt]
  Section,       // map with fixed keys (`fields`)
  Component,     // map whose keys are chosen by its `name` (`variants`)
  Transforms,    // list of one-key maps, each key one of `variants`
  Any,           // a structured value (IaaAugment's augmenter_args list of maps) that
                 // the schema cannot describe; the component's reader checks it fully
};

struct Field;

// One choice of a component or transform: its name and its own keys.
struct Variant {
  std::string name;
  std::vector<Field> fields;
};

struct Field {
  Field(std::string key_, Kind kind_, std::vector<std::string> choices_ = {}, int list_len_ = 0)
      : key(std::move(key_)), kind(kind_), choices(std::move(choices_)), list_len(list_len_) {}

  std::string key;
  Kind kind;
  std::vector<std::string> choices;  // String: allowed values (empty = any)
  int list_len = 0;                  // *List / *OrList: required length when a list (0 = any)
  std::vector<Field> fields;         // Section: its keys; Component: keys shared by all variants
  std::string what;                  // Component / Transforms: noun for errors ("backbone")
  std::vector<Variant> variants;     // Component / Transforms: the known names
  std::string default_variant;       // Component: the variant a map without `name` is
                                     // (PaddleOCR's lr defaults to Const); empty: name required
};

// Builders used by the tables (and by tests that need a small schema).
inline Field section(std::string key, std::vector<Field> fields) {
  Field f(std::move(key), Kind::Section);
  f.fields = std::move(fields);
  return f;
}
// `what` names the component in errors: "unknown backbone 'X'".
inline Field component(std::string key, std::string what, std::vector<Variant> variants,
                       std::vector<Field> common = {}) {
  Field f(std::move(key), Kind::Component);
  f.what = std::move(what);
  f.variants = std::move(variants);
  f.fields = std::move(common);
  return f;
}
inline Field transform_list(std::string key, std::vector<Variant> variants) {
  Field f(std::move(key), Kind::Transforms);
  f.what = "transform";
  f.variants = std::move(variants);
  return f;
}

// The whole training-config schema: a Section whose fields are the top-level
// sections (Global, Architecture, Loss, Optimizer, PostProcess, Metric, Train, Eval).
// Core holds the sections and the recognition rows; layers above core add the
// rows of the components they read with add_schema_variants (the train layer's
// register_training_schema(), called before configs are read), so the rows
// live next to the code that reads them.
const Field& config_schema();

// Adds `variants` to the component or transform list at `path` (e.g.
// "Architecture.Backbone", "Loss", "Train.dataset.transforms"): a path step
// through a Component looks in its shared fields, then in every variant's. A
// variant whose name exists already gets the fields it lacks (det and rec
// MobileNetV3 share a name and differ in keys). Throws std::logic_error for a
// path that names no component. Not thread-safe: call at start-up.
void add_schema_variants(const std::string& path, const std::vector<Variant>& variants);

// Every problem found in `root` against `schema`, one message each, in
// document order; empty when the config is valid. Messages name the full key
// path, e.g. "unknown config key 'Optimizer.lr.warmup_epochs' (did you mean
// 'Optimizer.lr.warmup_epoch'?)".
std::vector<std::string> check_config(const YAML::Node& root, const Field& schema = config_schema());

// "an integer", "a list of 2 integers", ... (for messages).
std::string describe_kind(const Field& field);
// "a map", "a list" or the scalar in quotes: what was found instead.
std::string describe_value(const YAML::Node& node);

// Strict scalar readers shared with Config::get (false when `text` is not of
// that kind). Numbers accept PaddleOCR's forms 0.001, 1e-3, 1.0e-3.
bool read_bool(const std::string& text, bool* out);
bool read_int(const std::string& text, long long* out);
bool read_number(const std::string& text, double* out);

}  // namespace ocrforge::schema
