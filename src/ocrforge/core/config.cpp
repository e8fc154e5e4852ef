#include "ocrforge/core/config.h"

#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/config_reads.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/fnv1a.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// A config is untrusted input: yaml-cpp shares aliased nodes, so a few
// lines of nested aliases ("billion laughs") stand for billions of nodes
// once copied, and an alias inside its own anchor (`a: &x [*x]`) is a
// cycle. The copy below expands aliases within these bounds, far above any
// PaddleOCR config (a few hundred nodes, under 10 levels) and far below what
// hurts; beyond them the config is refused, naming the file and the key.
constexpr int kMaxConfigDepth = 64;
constexpr size_t kMaxConfigNodes = 200'000;
constexpr size_t kMaxConfigScalarBytes = 16u << 20;
constexpr size_t kMaxConfigFileBytes = 16u << 20;

// Copies every node, so aliases (`*max_text_length`) become independent
// values: yaml-cpp shares aliased nodes, PyYAML shares only immutable values.
class BoundedCopy {
 public:
  explicit BoundedCopy(const std::string& origin) : origin_(origin) {}
  YAML::Node copy(const YAML::Node& n) { return copy_at(n, ""); }

 private:
  [[noreturn]] void refuse(const std::string& path, const std::string& why) const {
    throw UsageError(origin_ + ": " + (path.empty() ? std::string("the document") : "key '" + path + "'") + " " + why);
  }

  YAML::Node copy_at(const YAML::Node& n, const std::string& path) {
    for (const auto& up : ancestors_)
      if (up.is(n))
        refuse(path, "refers to itself through a YAML alias (an anchor used inside its own value); the config "
                     "would be infinite");
    if (ancestors_.size() >= static_cast<size_t>(kMaxConfigDepth))
      refuse(path, "is nested more than " + std::to_string(kMaxConfigDepth) + " levels deep; configs are a few levels deep");
    if (++nodes_ > kMaxConfigNodes)
      refuse(path, "takes the config over " + std::to_string(kMaxConfigNodes) +
                       " values once its YAML aliases are expanded (nested aliases multiply); write it out plainly");
    if (n.IsScalar() && (bytes_ += n.Scalar().size()) > kMaxConfigScalarBytes)
      refuse(path, "takes the config over " + std::to_string(kMaxConfigScalarBytes >> 20) +
                       " MiB of text once its YAML aliases are expanded; write it out plainly");
    const auto sub = [&path](const std::string& key) { return path.empty() ? key : path + "." + key; };
    switch (n.Type()) {
      case YAML::NodeType::Map: {
        YAML::Node m(YAML::NodeType::Map);
        m.SetStyle(n.Style());
        ancestors_.push_back(n);
        for (const auto& kv : n) {
          const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
          m[key] = copy_at(kv.second, sub(key));
        }
        ancestors_.pop_back();
        return m;
      }
      case YAML::NodeType::Sequence: {
        YAML::Node s(YAML::NodeType::Sequence);
        s.SetStyle(n.Style());
        ancestors_.push_back(n);
        for (size_t i = 0; i < n.size(); ++i) s.push_back(copy_at(n[i], path + "[" + std::to_string(i) + "]"));
        ancestors_.pop_back();
        return s;
      }
      case YAML::NodeType::Scalar: {
        YAML::Node s(n.Scalar());
        s.SetTag(n.Tag());
        return s;
      }
      default: return YAML::Node(YAML::NodeType::Null);
    }
  }

  const std::string& origin_;
  std::vector<YAML::Node> ancestors_;
  size_t nodes_ = 0, bytes_ = 0;
};

YAML::Node deep_copy(const YAML::Node& n, const std::string& origin) { return BoundedCopy(origin).copy(n); }

// yaml-cpp's own emitter drops the quotes of `"True"` or `"123"`, which would
// turn a string into a bool or number on reload; this one keeps them.
void emit(YAML::Emitter& e, const YAML::Node& n) {
  const bool flow = n.Style() == YAML::EmitterStyle::Flow;
  switch (n.Type()) {
    case YAML::NodeType::Map:
      e << (flow ? YAML::Flow : YAML::Block) << YAML::BeginMap;
      for (const auto& kv : n) {
        e << YAML::Key << kv.first.Scalar() << YAML::Value;
        emit(e, kv.second);
      }
      e << YAML::EndMap;
      return;
    case YAML::NodeType::Sequence:
      e << (flow ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
      for (const auto& item : n) emit(e, item);
      e << YAML::EndSeq;
      return;
    case YAML::NodeType::Scalar:
      if (n.Tag() == "!") e << YAML::DoubleQuoted;  // it was quoted in the source
      e << n.Scalar();
      return;
    default: e << YAML::Null;
  }
}

std::string key_list(const YAML::Node& map) {
  std::string s;
  for (const auto& kv : map) s += (s.empty() ? "" : ", ") + kv.first.Scalar();
  return s;
}

// The child `key` of map `n`, or an undefined node; never inserts.
YAML::Node child(const YAML::Node& n, const std::string& key) {
  return n[key];  // const operator[]: a missing key gives an undefined node
}

// "did you mean 'A.b'?" over the keys of `map`, or "" when nothing is close.
std::string suggestion(const YAML::Node& map, const std::string& key, const std::string& prefix) {
  std::vector<std::string> keys;
  for (const auto& kv : map) keys.push_back(kv.first.Scalar());
  const std::string close = closest_match(key, keys);
  return close.empty() ? "" : " (did you mean '" + prefix + close + "'?)";
}

// For `epoch_num=3`: the path of the first map holding `key` ("Global",
// "Train.loader"), searching the config; "Global" when none holds it.
std::string section_for(const YAML::Node& map, const std::string& key, const std::string& path = "") {
  for (const auto& kv : map) {
    if (!kv.second.IsMap()) continue;
    const std::string here = path.empty() ? kv.first.Scalar() : path + "." + kv.first.Scalar();
    if (child(kv.second, key).IsDefined()) return here;
    const std::string deeper = section_for(kv.second, key, here);
    if (!deeper.empty()) return deeper;
  }
  return path.empty() ? "Global" : "";
}

}  // namespace

// ---- typed reads -------------------------------------------------------------

namespace config_detail {

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

namespace {
[[noreturn]] void wrong(const YAML::Node& n, const std::string& key, const std::string& kind) {
  throw UsageError("config key '" + key + "' must be " + kind + ", got " + config_detail::describe_value(n));
}
long long to_ll(const YAML::Node& n, const std::string& key) {
  note_config_read(key);
  long long v = 0;
  if (!n.IsScalar() || !read_int(n.Scalar(), &v)) wrong(n, key, "an integer");
  return v;
}
double to_double(const YAML::Node& n, const std::string& key) {
  note_config_read(key);
  double v = 0;
  if (!n.IsScalar() || !read_number(n.Scalar(), &v)) wrong(n, key, "a number");
  return v;
}
std::string to_string(const YAML::Node& n, const std::string& key) {
  note_config_read(key);
  if (!n.IsScalar()) wrong(n, key, "a string");
  return n.Scalar();
}
template <typename T, typename One>
std::vector<T> to_list(const YAML::Node& n, const std::string& key, One one) {
  note_config_read(key);
  if (n.IsScalar()) return {static_cast<T>(one(n, key))};  // `a.txt` reads as `[a.txt]`
  if (!n.IsSequence()) wrong(n, key, "a list");
  std::vector<T> out;
  for (size_t i = 0; i < n.size(); ++i)
    out.push_back(static_cast<T>(one(n[i], key + "[" + std::to_string(i) + "]")));
  return out;
}
}  // namespace

// One line per type; vectors read a lone scalar as a one-element list.
using N = YAML::Node;
using S = std::string;
template <> bool convert<bool>(const N& n, const S& key) {
  note_config_read(key);
  bool v = false;
  if (!n.IsScalar() || !read_bool(n.Scalar(), &v)) wrong(n, key, "a boolean (true/false)");
  return v;
}
template <> int convert<int>(const N& n, const S& key) {
  const long long v = to_ll(n, key);
  if (v < INT_MIN || v > INT_MAX) wrong(n, key, "a 32-bit integer");
  return static_cast<int>(v);
}
template <> long convert<long>(const N& n, const S& key) { return static_cast<long>(to_ll(n, key)); }
template <> long long convert<long long>(const N& n, const S& key) { return to_ll(n, key); }
template <> float convert<float>(const N& n, const S& key) { return static_cast<float>(to_double(n, key)); }
template <> double convert<double>(const N& n, const S& key) { return to_double(n, key); }
template <> S convert<S>(const N& n, const S& key) { return to_string(n, key); }
template <> std::vector<int> convert<std::vector<int>>(const N& n, const S& key) {
  return to_list<int>(n, key, convert<int>);
}
template <> std::vector<long long> convert<std::vector<long long>>(const N& n, const S& key) {
  return to_list<long long>(n, key, to_ll);
}
template <> std::vector<float> convert<std::vector<float>>(const N& n, const S& key) {
  return to_list<float>(n, key, to_double);
}
template <> std::vector<double> convert<std::vector<double>>(const N& n, const S& key) {
  return to_list<double>(n, key, to_double);
}
template <> std::vector<S> convert<std::vector<S>>(const N& n, const S& key) {
  return to_list<S>(n, key, to_string);
}
template <> N convert<N>(const N& n, const S& key) {
  note_config_read(key);
  return n;
}
}  // namespace config_detail

// ---- Config ------------------------------------------------------------------

Config::Config() : root_(YAML::NodeType::Map), origin_("<empty>") {}
Config::Config(const Config& other) : root_(deep_copy(other.root_, other.origin_)), origin_(other.origin_) {}
Config& Config::operator=(const Config& other) {
  if (this != &other) {
    root_.reset(deep_copy(other.root_, other.origin_));  // reset: plain `=` would write into shared nodes
    origin_ = other.origin_;
  }
  return *this;
}

// Node handles share their tree, so a "move" hands over the handle and gives
// `other` a fresh empty map: later edits of `other` cannot reach our tree.
Config::Config(Config&& other) : root_(other.root_), origin_(std::move(other.origin_)) {
  other.root_.reset(YAML::Node(YAML::NodeType::Map));
}
Config& Config::operator=(Config&& other) {
  if (this != &other) {
    root_.reset(other.root_);
    origin_ = std::move(other.origin_);
    other.root_.reset(YAML::Node(YAML::NodeType::Map));
  }
  return *this;
}

Config Config::load_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw UsageError("cannot read config file '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw UsageError("cannot read config file '" + path + "': it is a folder");
  if (st.st_size > static_cast<off_t>(kMaxConfigFileBytes))
    throw UsageError("config file '" + path + "' is " + std::to_string(st.st_size >> 20) + " MiB, over the " +
                     std::to_string(kMaxConfigFileBytes >> 20) + " MiB a config may have; is it a config?");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw UsageError("cannot read config file '" + path + "': " + std::strerror(errno));
  return from_string(text.str(), path);
}

Config Config::from_string(const std::string& yaml, const std::string& origin) {
  YAML::Node n;
  try {
    n = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    std::string where;
    if (!e.mark.is_null())
      where = " at line " + std::to_string(e.mark.line + 1) + ", column " + std::to_string(e.mark.column + 1);
    throw UsageError(origin + ": YAML syntax error" + where + ": " + e.msg);
  }
  if (!n.IsMap())
    throw UsageError(origin + ": a config must be a map of sections (Global, Architecture, ...), got " +
                     (n.IsNull() ? std::string("an empty document") : config_detail::describe_value(n)));
  Config c;
  c.root_.reset(deep_copy(n, origin));
  c.origin_ = origin;
  return c;
}

void Config::apply_override(const std::string& assignment) {
  const std::string what = "override '" + assignment + "'";
  const size_t eq = assignment.find('=');  // the first '=': values may contain more
  if (eq == std::string::npos) throw UsageError(what + ": expected KEY=VALUE, e.g. Global.epoch_num=10");
  const std::string key = trim(assignment.substr(0, eq));
  const std::string text = assignment.substr(eq + 1);
  const std::vector<std::string> parts = split(key, '.');
  for (const auto& p : parts)
    if (p.empty()) throw UsageError(what + ": '" + key + "' has an empty key part");
  if (parts.size() == 1)
    throw UsageError(what + ": '" + key + "' has no section; write '" + section_for(root_, key) + "." +
                     assignment + "' (keys start with a section: " + key_list(root_) + ")");

  YAML::Node cur = child(root_, parts[0]);
  if (!cur.IsDefined())
    throw UsageError(what + ": unknown section '" + parts[0] + "'" + suggestion(root_, parts[0], "") +
                     "; sections: " + key_list(root_));
  YAML::Node value;
  try {
    value = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UsageError(what + ": the value is not valid YAML (" + e.msg + "); quote it");
  }

  std::string path = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    // A key present but empty (`PostProcess:`) becomes a map rather than an error.
    if (cur.IsNull()) cur = YAML::Node(YAML::NodeType::Map);
    if (!cur.IsMap())
      throw UsageError(what + ": '" + path + "' is " + config_detail::describe_value(cur) +
                       ", not a map, so it has no key '" + parts[i] + "'");
    if (i + 1 == parts.size()) break;
    YAML::Node next = child(cur, parts[i]);
    if (!next.IsDefined())
      throw UsageError(what + ": '" + path + "." + parts[i] + "' does not exist" +
                       suggestion(cur, parts[i], path + ".") +
                       "; an override creates only its last key");
    path += "." + parts[i];
    cur.reset(next);
  }
  cur[parts.back()] = deep_copy(value, what);
}

void Config::apply_overrides(const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) apply_override(a);
}

YAML::Node& Config::root() { return root_; }
const YAML::Node& Config::root() const { return root_; }
const std::string& Config::origin() const { return origin_; }

bool Config::lookup(const std::string& dotted, YAML::Node* out) const {
  note_config_read(dotted);
  YAML::Node cur = root_;
  for (const auto& part : split(dotted, '.')) {
    if (!cur.IsMap()) return false;
    YAML::Node next = child(cur, part);
    if (!next.IsDefined()) return false;
    cur.reset(next);
  }
  if (cur.IsNull()) return false;
  out->reset(cur);
  return true;
}

bool Config::has(const std::string& dotted) const {
  YAML::Node unused;
  return lookup(dotted, &unused);
}

void Config::set_node(const std::string& dotted, const YAML::Node& value) {
  const std::vector<std::string> parts = split(dotted, '.');
  YAML::Node cur = root_;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = cur[parts[i]];  // bound to the slot: assigning fills the tree
    if (!next.IsDefined() || next.IsNull()) next = YAML::Node(YAML::NodeType::Map);
    if (!next.IsMap()) throw UsageError("cannot set config key '" + dotted + "': '" + parts[i] + "' is not a map");
    cur.reset(next);
  }
  cur[parts.back()] = deep_copy(value, origin_ + " (set in code)");
}

std::string Config::to_yaml() const {
  YAML::Emitter e;
  emit(e, root_);
  if (!e.good()) throw Error(origin_ + ": cannot write the config as YAML: " + e.GetLastError());
  return std::string(e.c_str()) + "\n";
}

void Config::save(const std::string& path) const { write_file_atomic(path, to_yaml()); }

uint64_t Config::hash() const {
  const std::string yaml = to_yaml();
  return fnv1a64(yaml.data(), yaml.size());
}

static std::string number_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

void require_at_least(double value, double min, const std::string& key) {
  if (!(value >= min)) throw UsageError(key + ": must be >= " + number_text(min) + " (got " + number_text(value) + ")");
}

void require_above(double value, double min, const std::string& key) {
  if (!(value > min)) throw UsageError(key + ": must be > " + number_text(min) + " (got " + number_text(value) + ")");
}

void require_between(double value, double lo, double hi, const std::string& key) {
  if (!(value >= lo && value <= hi))
    throw UsageError(key + ": must be between " + number_text(lo) + " and " + number_text(hi) + " (got " +
                     number_text(value) + ")");
}

}  // namespace ocrforge
