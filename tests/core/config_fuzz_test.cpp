// Fuzz-style test of the config reader (issue 29): random and adversarial
// YAML — anchors and aliases (cycles, nested expansion), deep nesting,
// large scalars, odd types, tags, random bytes — through everything a
// command does with a config: load, the unknown-key walk, typed reads, overrides, the
// resolved YAML, copies. Each input must load or be refused with an
// ocrforge::Error (UsageError for the user's mistakes); any other exception,
// a crash or a hang fails. A fixed seed keeps failures reproducible; the
// input count is bounded by time so the test takes seconds.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"

using namespace ocrforge;

namespace {

class YamlGen {
 public:
  explicit YamlGen(uint32_t seed) : rng_(seed) {}

  std::string document() {
    anchors_.clear();
    std::string out;
    const int sections = pick(1, 5);
    for (int i = 0; i < sections; ++i) out += key() + ":" + value(1, 0);
    if (chance(0.1)) mutate(&out);
    return out;
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::string key() {
    static const std::vector<std::string> keys = {"Global", "Architecture", "Optimizer", "Train", "Eval", "Loss",
                                                  "PostProcess", "Metric", "epoch_num", "name", "lr", "dataset",
                                                  "loader", "label_file_list", "\"k\\e[31m\"", "'a.b'", "? [x]", ""};
    return keys[static_cast<size_t>(pick(0, static_cast<int>(keys.size()) - 1))];
  }

  std::string scalar() {
    static const std::vector<std::string> s = {"1", "-1", "0x1F", "1e-3", "1e999", "nan", ".inf", "true", "False",
                                               "~", "null", "''", "\"\\e]0;t\\a\"", "abc", "[]", "{}", "!!binary aGk=",
                                               "!custom x", "9223372036854775808", "\"\\x00\\u202e\"", "'#'"};
    if (chance(0.02)) return std::string(static_cast<size_t>(pick(1000, 200000)), 'x');
    return s[static_cast<size_t>(pick(0, static_cast<int>(s.size()) - 1))];
  }

  // A value after "key:" (block style) at nesting `depth`, indented `indent`.
  std::string value(int depth, int indent) {
    const std::string pad(static_cast<size_t>(2 * (indent + 1)), ' ');
    std::string anchor;
    if (chance(0.2)) {
      anchor = "a" + std::to_string(anchors_.size());
      anchors_.push_back(anchor);
    }
    const std::string lead = anchor.empty() ? "" : " &" + anchor;
    const int kind = depth > 12 ? 0 : pick(0, 5);
    if (kind == 4 && !anchors_.empty())  // an alias, possibly to an enclosing anchor: a cycle
      return " *" + anchors_[static_cast<size_t>(pick(0, static_cast<int>(anchors_.size()) - 1))] + "\n";
    if (kind == 1 || kind == 5) {  // a block map
      std::string out = lead + "\n";
      const int n = pick(0, 4);
      for (int i = 0; i < n; ++i) out += pad + key() + ":" + value(depth + 1, indent + 1);
      return out;
    }
    if (kind == 2) {  // a block list
      std::string out = lead + "\n";
      const int n = pick(0, 4);
      for (int i = 0; i < n; ++i) out += pad + "- x:" + value(depth + 1, indent + 2);
      return out;
    }
    if (kind == 3) {  // a flow list of scalars and aliases
      std::string out = lead + " [";
      const int n = pick(0, 12);
      for (int i = 0; i < n; ++i) {
        out += i ? ", " : "";
        out += !anchors_.empty() && chance(0.5) ? "*" + anchors_[static_cast<size_t>(pick(0, static_cast<int>(anchors_.size()) - 1))]
                                                : scalar();
      }
      return out + "]\n";
    }
    return lead + " " + scalar() + "\n";
  }

  // Byte-level damage: flips, cuts, insertions of YAML punctuation.
  void mutate(std::string* s) {
    if (s->empty()) return;
    const int n = pick(1, 8);
    for (int i = 0; i < n; ++i) {
      const size_t at = static_cast<size_t>(pick(0, static_cast<int>(s->size()) - 1));
      switch (pick(0, 3)) {
        case 0: (*s)[at] = static_cast<char>(pick(0, 255)); break;
        case 1: s->resize(at); break;
        case 2: s->insert(at, std::string(1, "&*[]{}:-?|>!%@`'\"#,\t\n"[pick(0, 21)])); break;
        default: s->insert(at, std::string(static_cast<size_t>(pick(1, 300)), '['));
      }
      if (s->empty()) return;
    }
  }

  std::mt19937 rng_;
  std::vector<std::string> anchors_;
};

// The content of a tree without its styles (an empty block map may come
// back in flow style, a plain scalar the emitter must escape comes back
// quoted): kinds, keys in order, scalar texts. That quoted numbers stay
// strings is Config.ToYamlRoundTrips' part.
std::string canonical(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      std::string s = "{";
      for (const auto& kv : n) s += kv.first.Scalar() + ":" + canonical(kv.second) + ",";
      return s + "}";
    }
    case YAML::NodeType::Sequence: {
      std::string s = "[";
      for (const auto& item : n) s += canonical(item) + ",";
      return s + "]";
    }
    case YAML::NodeType::Scalar: return "'" + n.Scalar() + "'";
    default: return "~";
  }
}

// Everything a command does with a loaded config.
void exercise(const Config& c, std::mt19937& rng) {
  // The unknown-key walk (what a run does after reading its config) over
  // whatever the document holds.
  ConfigReads reads;
  {
    ConfigReadScope scope(reads);
    try { (void)c.get<int>("Global.epoch_num", 0); } catch (const UsageError&) {}
  }
  reads.accept_ignored({"Global.use_visualdl", "Train.loader.use_shared_memory"});
  try { reads.throw_if_unknown(c.root(), c.origin()); } catch (const UsageError&) {}
  (void)reads.ignored_keys_present(c.root());
  for (const char* key : {"Global.epoch_num", "Global", "Train.dataset.label_file_list", "Optimizer.lr.name", "a"}) {
    try { (void)c.get<int>(key, 0); } catch (const UsageError&) {}
    try { (void)c.get<double>(key, 0.0); } catch (const UsageError&) {}
    try { (void)c.get<std::string>(key, ""); } catch (const UsageError&) {}
    try { (void)c.get<std::vector<double>>(key, {}); } catch (const UsageError&) {}
    try { (void)c.get<bool>(key, false); } catch (const UsageError&) {}
  }
  Config copy = c;
  static const std::vector<std::string> overrides = {"Global.epoch_num=3", "Global.x=&a [*a]", "Nope.x=1",
                                                     "Global.a.b.c=1", "Global.y=[[[[", "epoch_num=2", "=",
                                                     "Global.z=*undefined"};
  try {
    copy.apply_override(overrides[std::uniform_int_distribution<size_t>(0, overrides.size() - 1)(rng)]);
  } catch (const UsageError&) {}
  const std::string yaml = copy.to_yaml();
  // What was written reads back (the resolved config is saved and reloaded).
  const Config again = Config::from_string(yaml, "resolved");
  EXPECT_EQ(canonical(again.root()), canonical(copy.root())) << yaml;
  (void)copy.hash();
}

}  // namespace

TEST(ConfigFuzz, RandomAndAdversarialYamlLoadsOrIsRefusedNeverCrashes) {
  YamlGen gen(20240529);
  std::mt19937 rng(7);
  const auto start = std::chrono::steady_clock::now();
  long loaded = 0, refused = 0, documents = 0;
  while (documents < 2000 && std::chrono::steady_clock::now() - start < std::chrono::seconds(3)) {
    const std::string doc = gen.document();
    ++documents;
    try {
      exercise(Config::from_string(doc, "fuzz.yml"), rng);
      ++loaded;
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("fuzz.yml", 0), 0u) << "the message must name the file: " << e.what();
      ++refused;
    } catch (const Error& e) {
      ADD_FAILURE() << "a config mistake must be a UsageError: " << e.what() << "\n--- input:\n" << doc;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "escaped: " << e.what() << "\n--- input:\n" << doc;
    }
  }
  // Both outcomes are exercised, or the generator has gone blind.
  EXPECT_GT(loaded, documents / 10);
  EXPECT_GT(refused, documents / 20);
  std::printf("%ld documents: %ld loaded, %ld refused\n", documents, loaded, refused);
}

// The classic attacks, each alone.
TEST(ConfigFuzz, KnownAdversarialDocumentsAreRefusedQuickly) {
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 12; ++i)
    laughs += "l" + std::to_string(i) + ": &" + std::string(1, static_cast<char>('a' + i)) + " [*" +
              std::string(1, static_cast<char>('a' + i - 1)) + ", *" + std::string(1, static_cast<char>('a' + i - 1)) +
              ", *" + std::string(1, static_cast<char>('a' + i - 1)) + ", *" + std::string(1, static_cast<char>('a' + i - 1)) + "]\n";
  const std::vector<std::string> docs = {
      "a: &x [*x]\n", "a: &x {b: *x}\n", "a: &x\n  - &y [*x, *y]\n", laughs,
      "a: " + std::string(50000, '[') + std::string(50000, ']') + "\n",
      "a: " + std::string(50000, '{'), "*x\n", "a: *x\n", "&a a: b\n", "? &k [*k]\n: 1\n",
      "a: !!python/object/apply:os.system [ls]\n", std::string("a: \0b\n", 6), "a: \xff\xfe\n",
  };
  const auto start = std::chrono::steady_clock::now();
  for (const auto& d : docs) {
    try {
      std::mt19937 rng(1);
      exercise(Config::from_string(d, "adversarial.yml"), rng);
    } catch (const UsageError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "escaped: " << e.what() << " for " << d.substr(0, 80);
    }
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}
