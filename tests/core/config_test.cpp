// Tests for ocrforge/core/config.h: loading, `-o` overrides (PaddleOCR's
// tools/program.py rules), typed reads, the resolved YAML, save and hash.
#include "ocrforge/core/config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ocrforge/core/error.h"
#include "contains_assertion.h"
#include "test_support.h"

using ocrforge::Config;
using ocrforge::Error;
using ocrforge::UsageError;
namespace fs = std::filesystem;

namespace {

// Success when `text` contains `part`; prints both otherwise.
using ocrforge::test::contains;

const char* kSmall = R"(Global:
  epoch_num: 2
  use_gpu: false
  save_model_dir: ./output/small
  pretrained_model:
  max_text_length: &max_len 25
  eval_batch_step: [0, 20]
Optimizer:
  name: Adam
  lr:
    name: Cosine
    learning_rate: 0.001
Architecture:
  model_type: rec
  Head:
    name: CTCHead
    fc_decay: 1e-5
PostProcess:
Train:
  dataset:
    name: SimpleDataSet
    label_file_list: a.txt
  loader:
    batch_size_per_card: 16
Eval:
  loader:
    batch_size_per_card: *max_len
)";

Config small() { return Config::from_string(kSmall, "small.yml"); }

// The UsageError message of `f` ("" when nothing was thrown).
template <typename F>
std::string usage_error(F f) {
  return ocrforge::test::message_of<UsageError>([&] {
    f();
  });
}

}  // namespace

TEST(Config, LoadsFileAndNamesOrigin) {
  const std::string dir = ocrforge::test::fresh_dir("config_load");
  ocrforge::test::write_text(dir + "/c.yml", kSmall);
  const Config c = Config::load_file(dir + "/c.yml");
  EXPECT_EQ(c.origin(), dir + "/c.yml");
  EXPECT_EQ(c.require<int>("Global.epoch_num"), 2);
  EXPECT_EQ(Config::from_string("Global: {}").origin(), "<string>");
}

TEST(Config, MissingFileErrorNamesIt) {
  const std::string msg = usage_error([] { Config::load_file("/nonexistent/dir/c.yml"); });
  EXPECT_TRUE(contains(msg, "cannot read config file '/nonexistent/dir/c.yml'"));
  EXPECT_TRUE(contains(msg, "No such file"));
}

TEST(Config, YamlSyntaxErrorNamesFileAndLine) {
  const std::string dir = ocrforge::test::fresh_dir("config_syntax");
  ocrforge::test::write_text(dir + "/bad.yml", "Global:\n  epoch_num: 3\n   bad: 1\n");
  const std::string msg = usage_error([&] { Config::load_file(dir + "/bad.yml"); });
  EXPECT_TRUE(contains(msg, dir + "/bad.yml: YAML syntax error at line 3"));
}

TEST(Config, DocumentMustBeAMapOfSections) {
  EXPECT_TRUE(contains(usage_error([] { Config::from_string("- a\n- b\n", "x.yml"); }),
              "x.yml: a config must be a map of sections"));
  EXPECT_TRUE(contains(usage_error([] { Config::from_string("", "e.yml"); }), "an empty document"));
}

TEST(Config, OverrideValuesAreParsedAsYaml) {
  Config c = small();
  c.apply_override("Global.eval_batch_step=[0, 2000]");
  c.apply_override("Global.use_gpu=true");
  c.apply_override("Global.epoch_num=7");
  c.apply_override("Optimizer.lr.learning_rate=1e-3");
  c.apply_override("Global.save_model_dir=\"quoted dir\"");
  EXPECT_EQ(c.get<std::vector<int>>("Global.eval_batch_step", {}), (std::vector<int>{0, 2000}));
  EXPECT_TRUE(c.get<bool>("Global.use_gpu", false));
  EXPECT_EQ(c.get<int>("Global.epoch_num", 0), 7);
  EXPECT_DOUBLE_EQ(c.get<double>("Optimizer.lr.learning_rate", 0), 0.001);
  EXPECT_EQ(c.get<std::string>("Global.save_model_dir", ""), "quoted dir");
  c.apply_override("Global.use_gpu=False");
  EXPECT_FALSE(c.get<bool>("Global.use_gpu", true));
}

TEST(Config, OverrideSplitsAtFirstEquals) {
  Config c = small();
  c.apply_override("Global.save_model_dir=./out/a=b==c");
  EXPECT_EQ(c.get<std::string>("Global.save_model_dir", ""), "./out/a=b==c");
  c.apply_override("Global.save_model_dir=\"x = y\"");
  EXPECT_EQ(c.get<std::string>("Global.save_model_dir", ""), "x = y");
}

TEST(Config, OverrideCreatesOnlyTheLastKey) {
  Config c = small();
  EXPECT_FALSE(c.has("Optimizer.lr.warmup_epoch"));
  c.apply_override("Optimizer.lr.warmup_epoch=5");
  EXPECT_EQ(c.get<int>("Optimizer.lr.warmup_epoch", 0), 5);
  const std::string msg = usage_error([&] { c.apply_override("Optimizer.lrr.learning_rate=0.1"); });
  EXPECT_TRUE(contains(msg, "override 'Optimizer.lrr.learning_rate=0.1'"));
  EXPECT_TRUE(contains(msg, "'Optimizer.lrr' does not exist (did you mean 'Optimizer.lr'?)"));
  EXPECT_TRUE(contains(usage_error([&] { c.apply_override("Train.dataset.extra.deep.key=1"); }),
              "'Train.dataset.extra' does not exist"));
}

TEST(Config, OverrideNeedsAnExistingSection) {
  Config c = small();
  const std::string msg = usage_error([&] { c.apply_override("Globl.epoch_num=3"); });
  EXPECT_TRUE(contains(msg, "unknown section 'Globl' (did you mean 'Global'?)"));
  EXPECT_TRUE(contains(msg, "sections: Global, Optimizer, Architecture, PostProcess, Train, Eval"));
}

TEST(Config, OverrideWithoutSectionIsRejectedWithAHint) {
  Config c = small();
  EXPECT_TRUE(contains(usage_error([&] { c.apply_override("epoch_num=3"); }),
              "write 'Global.epoch_num=3'"));
  EXPECT_TRUE(contains(usage_error([&] { c.apply_override("batch_size_per_card=8"); }),
              "write 'Train.loader.batch_size_per_card=8'"));
}

TEST(Config, MalformedOverridesAreRejected) {
  Config c = small();
  EXPECT_TRUE(contains(usage_error([&] { c.apply_override("Global.epoch_num"); }), "expected KEY=VALUE"));
  EXPECT_TRUE(contains(usage_error([&] { c.apply_override("Global..epoch_num=1"); }), "empty key part"));
  EXPECT_TRUE(contains(usage_error([&] { c.apply_override("Global.epoch_num.x=1"); }),
              "'Global.epoch_num' is '2', not a map"));
  EXPECT_TRUE(contains(usage_error([&] { c.apply_override("Global.eval_batch_step=[0, 1"); }),
              "not valid YAML"));
}

TEST(Config, OverrideEmptyValueUnsetsAndNullSectionBecomesMap) {
  Config c = small();
  c.apply_override("Global.save_model_dir=");
  EXPECT_FALSE(c.has("Global.save_model_dir"));
  c.apply_override("PostProcess.name=CTCLabelDecode");  // `PostProcess:` was empty
  EXPECT_EQ(c.require<std::string>("PostProcess.name"), "CTCLabelDecode");
}

TEST(Config, OverrideOfAnAliasedValueChangesOnlyThatKey) {
  Config c = small();
  c.apply_override("Global.max_text_length=40");
  EXPECT_EQ(c.get<int>("Global.max_text_length", 0), 40);
  EXPECT_EQ(c.get<int>("Eval.loader.batch_size_per_card", 0), 25);
}

// A typo'd override creates its key (as in PaddleOCR); the run's reading pass
// reports it (tests/train/loop/config_keys_test.cpp), and the typed read
// names a wrong kind.
TEST(Config, ApplyOverridesThenValidates) {
  Config c = small();
  c.apply_overrides({"Global.epoch_num=4", "Train.loader.batch_size_per_card=8"});
  EXPECT_EQ(c.get<int>("Train.loader.batch_size_per_card", 0), 8);
  c.apply_overrides({"Global.epoch_nun=3"});
  ocrforge::ConfigReads reads;
  {
    ocrforge::ConfigReadScope scope(reads);
    for (const char* key : {"Global.epoch_num", "Global.use_gpu", "Global.save_model_dir", "Global.pretrained_model",
                            "Global.max_text_length", "Global.eval_batch_step"})
      (void)c.has(key);
  }
  const std::string msg = usage_error([&] { reads.throw_if_unknown(c.root()["Global"], c.origin(), "Global"); });
  EXPECT_TRUE(contains(msg, "unknown config key 'Global.epoch_nun' (did you mean 'Global.epoch_num'?)"));
  Config wrong = small();
  wrong.apply_overrides({"Global.epoch_num=[1, 2]"});
  EXPECT_TRUE(contains(usage_error([&] { (void)wrong.get<int>("Global.epoch_num", 0); }),
              "config key 'Global.epoch_num' must be an integer, got a list"));
}

TEST(Config, GetReturnsFallbackWhenAbsentOrNull) {
  const Config c = small();
  EXPECT_EQ(c.get<int>("Global.seed", 1024), 1024);
  EXPECT_EQ(c.get<std::string>("Global.pretrained_model", "none"), "none");
  EXPECT_EQ(c.get<int>("Nope.at.all", 3), 3);
  EXPECT_EQ(c.get<int>("Global.epoch_num.deeper", 9), 9);
}

TEST(Config, GetOfWrongTypeNamesTheKey) {
  const Config c = small();
  EXPECT_TRUE(contains(usage_error([&] { c.get<int>("Global.save_model_dir", 0); }),
              "config key 'Global.save_model_dir' must be an integer, got './output/small'"));
  EXPECT_TRUE(contains(usage_error([&] { c.get<double>("Optimizer.lr", 0); }),
              "config key 'Optimizer.lr' must be a number, got a map"));
  EXPECT_TRUE(contains(usage_error([&] { c.get<bool>("Global.epoch_num", false); }),
              "must be a boolean (true/false), got '2'"));
  EXPECT_TRUE(contains(usage_error([&] { c.get<std::string>("Global.eval_batch_step", ""); }),
              "must be a string, got a list"));
}

TEST(Config, NumbersAcceptPaddleOcrForms) {
  for (const char* v : {"0.001", "1e-3", "1.0e-3", "1E-3"}) {
    const Config c = Config::from_string(std::string("Optimizer:\n  lr:\n    learning_rate: ") + v);
    EXPECT_DOUBLE_EQ(c.get<double>("Optimizer.lr.learning_rate", 0), 0.001) << v;
    EXPECT_FLOAT_EQ(c.get<float>("Optimizer.lr.learning_rate", 0), 0.001f) << v;
  }
  EXPECT_DOUBLE_EQ(small().get<double>("Global.epoch_num", 0), 2.0);  // an int is a number
  EXPECT_DOUBLE_EQ(small().get<double>("Architecture.Head.fc_decay", 0), 1e-5);
}

TEST(Config, ListsReadFromSequencesOrOneScalar) {
  const Config c = small();
  EXPECT_EQ(c.get<std::vector<std::string>>("Train.dataset.label_file_list", {}),
            (std::vector<std::string>{"a.txt"}));
  EXPECT_EQ(c.get<std::vector<double>>("Global.eval_batch_step", {}), (std::vector<double>{0, 20}));
  const Config bad = Config::from_string("Global:\n  shape: [3, x, 320]\n");
  EXPECT_TRUE(contains(usage_error([&] { bad.get<std::vector<int>>("Global.shape", {}); }),
              "config key 'Global.shape[1]' must be an integer, got 'x'"));
}

TEST(Config, RequireAndHas) {
  const Config c = small();
  EXPECT_EQ(c.require<std::string>("Optimizer.lr.name"), "Cosine");
  EXPECT_TRUE(c.has("Optimizer.lr"));
  EXPECT_TRUE(c.has("Global.use_gpu"));
  EXPECT_FALSE(c.has("Global.pretrained_model"));  // null means not set
  EXPECT_FALSE(c.has("Global.nothing"));
  EXPECT_TRUE(contains(usage_error([&] { c.require<std::string>("Global.checkpoints"); }),
              "small.yml: missing config key 'Global.checkpoints'"));
  const Config empty = Config::from_string("Global: {}\n");
  EXPECT_TRUE(contains(usage_error([&] { empty.require<std::string>("Global.save_model_dir"); }),
              "missing config key 'Global.save_model_dir'"));
}

TEST(Config, ToYamlRoundTrips) {
  Config c = small();
  c.apply_override("Global.character_type=\"True\"");  // a string that looks like a bool
  const std::string yaml = c.to_yaml();
  const Config again = Config::from_string(yaml);
  EXPECT_EQ(again.to_yaml(), yaml);
  EXPECT_EQ(again.root()["Global"]["character_type"].Tag(), "!");  // still a quoted string
  EXPECT_EQ(again.get<std::vector<int>>("Global.eval_batch_step", {}), (std::vector<int>{0, 20}));
  EXPECT_TRUE(contains(yaml, "eval_batch_step: [0, 20]"));
  EXPECT_TRUE(contains(yaml, "fc_decay: 1e-5"));  // numbers keep their spelling
  EXPECT_EQ(yaml.find('&'), std::string::npos);     // aliases resolved
  EXPECT_LT(yaml.find("Global:"), yaml.find("Optimizer:"));  // order kept
}

TEST(Config, CopiesAreDeep) {
  const Config a = small();
  Config b = a;
  b.apply_override("Global.epoch_num=99");
  EXPECT_EQ(a.get<int>("Global.epoch_num", 0), 2);
  Config d;
  d = b;
  d.apply_override("Global.epoch_num=5");
  EXPECT_EQ(b.get<int>("Global.epoch_num", 0), 99);
}

TEST(Config, MovedFromConfigIsEmptyAndIndependent) {
  Config a = small();
  Config b = std::move(a);
  a.set("Global.epoch_num", 50);  // must not reach b's tree
  EXPECT_EQ(b.require<int>("Global.epoch_num"), 2);
  Config d;
  d = std::move(b);
  EXPECT_EQ(d.origin(), "small.yml");
  EXPECT_FALSE(b.has("Global.epoch_num"));
}

TEST(Config, SetCreatesMaps) {
  Config c;
  c.set("Global.distributed", true);
  c.set("Global.seed", 7);
  EXPECT_TRUE(c.require<bool>("Global.distributed"));
  EXPECT_EQ(c.require<int>("Global.seed"), 7);
  EXPECT_THROW(c.set("Global.seed.x", 1), UsageError);
}

TEST(Config, SaveReplacesAtomicallyAndReloads) {
  const std::string dir = ocrforge::test::fresh_dir("config_save");
  const std::string path = dir + "/config.yml";
  ocrforge::test::write_text(path, "old contents\n");
  Config c = small();
  c.apply_override("Global.epoch_num=11");
  c.save(path);
  EXPECT_EQ(ocrforge::test::read_text(path), c.to_yaml());
  EXPECT_EQ(Config::load_file(path).require<int>("Global.epoch_num"), 11);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"config.yml"});  // no temp file left
  EXPECT_THROW(c.save(dir + "/missing/config.yml"), Error);
}

TEST(Config, HashIsStableFnv1aAndFollowsOverrides) {
  EXPECT_EQ(small().hash(), small().hash());
  Config c = small();
  const uint64_t before = c.hash();
  c.apply_override("Global.epoch_num=3");
  EXPECT_NE(c.hash(), before);
  c.apply_override("Global.epoch_num=2");
  EXPECT_EQ(c.hash(), before);
  // FNV-1a 64 of the resolved YAML, computed here independently.
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : c.to_yaml()) h = (h ^ ch) * 0x100000001b3ull;
  EXPECT_EQ(c.hash(), h);
}

// Configs are untrusted input (issue 29): an alias inside its own anchor
// used to recurse until the stack ran out (a segfault in `train` / `eval`).
TEST(Config, SelfReferencingAliasIsRefusedNamingTheFileAndKey) {
  const std::string dir = ocrforge::test::fresh_dir("config_cycle");
  ocrforge::test::write_text(dir + "/cycle.yml", "Global: &g\n  epoch_num: 1\n  again: *g\n");
  std::string msg = usage_error([&] { Config::load_file(dir + "/cycle.yml"); });
  EXPECT_TRUE(contains(msg, dir + "/cycle.yml: key 'Global.again' refers to itself through a YAML alias"));
  msg = usage_error([] { Config::from_string("Global:\n  list: &l [1, *l]\n", "seq.yml"); });
  EXPECT_TRUE(contains(msg, "seq.yml: key 'Global.list[1]' refers to itself"));
  // An override is YAML too.
  Config c = small();
  msg = usage_error([&] { c.apply_override("Global.x=&a [*a]"); });
  EXPECT_TRUE(contains(msg, "override 'Global.x=&a [*a]'"));
  EXPECT_TRUE(contains(msg, "refers to itself"));
}

// "Billion laughs": 9 levels of 10 aliases stand for 10^9 values. Refused
// at once, in bounded memory (before: 11 GB and still running).
TEST(Config, NestedAliasExpansionIsBounded) {
  std::string yaml = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 9; ++i) {
    yaml += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) yaml += std::string(k ? ", " : "") + "*l" + std::to_string(i - 1);
    yaml += "]\n";
  }
  const std::string msg = usage_error([&] { Config::from_string(yaml, "laughs.yml"); });
  EXPECT_TRUE(contains(msg, "laughs.yml: key 'l"));
  EXPECT_TRUE(contains(msg, "once its YAML aliases are expanded"));
  // A big scalar repeated through aliases is bounded by its bytes.
  std::string big = "a: &a " + std::string(1 << 20, 'x') + "\nb: [";
  for (int k = 0; k < 20; ++k) big += std::string(k ? ", " : "") + "*a";
  big += "]\n";
  EXPECT_TRUE(contains(usage_error([&] { Config::from_string(big, "big.yml"); }), "MiB of text"));
  // Aliases used the ordinary way still load.
  EXPECT_EQ(small().require<int>("Eval.loader.batch_size_per_card"), 25);
}

TEST(Config, DeepNestingIsRefusedNotACrash) {
  std::string yaml;
  for (int i = 0; i < 100; ++i) yaml += std::string(static_cast<size_t>(2 * i), ' ') + "k" + std::to_string(i) + ":\n";
  yaml += std::string(200, ' ') + "v: 1\n";
  EXPECT_TRUE(contains(usage_error([&] { Config::from_string(yaml, "deep.yml"); }), "nested more than 64 levels"));
  // Far deeper flow nesting stops in the parser, with the file named.
  const std::string flow = "a: " + std::string(100000, '[');
  EXPECT_TRUE(contains(usage_error([&] { Config::from_string(flow, "flow.yml"); }), "flow.yml: YAML syntax error"));
}

TEST(Config, AFileLargerThanAnyConfigIsRefusedUnread) {
  const std::string dir = ocrforge::test::fresh_dir("config_large");
  {
    std::ofstream out(dir + "/huge.yml", std::ios::binary);
    out << "Global:\n  a: 1\n";
    out.seekp((64 << 20) - 1);  // sparse: no disk used
    out.put('\n');
  }
  const std::string msg = usage_error([&] { Config::load_file(dir + "/huge.yml"); });
  EXPECT_TRUE(contains(msg, "config file '" + dir + "/huge.yml' is 64 MiB"));
}

// Escape sequences in a config value never reach a terminal raw: messages
// show them escaped, and the resolved YAML (printed by `train`) writes them
// as YAML escapes that read back to the same value.
TEST(Config, EscapeSequencesAreNeverEchoedRaw) {
  const Config c = Config::from_string("Global:\n  epoch_num: \"\\e]0;pwned\\a\\e[2J\"\n", "esc.yml");
  const std::string msg = usage_error([&] { c.require<int>("Global.epoch_num"); });
  EXPECT_TRUE(contains(msg, "\\x1b]0;pwned\\x07\\x1b[2J"));
  EXPECT_EQ(msg.find('\x1b'), std::string::npos) << msg;
  const std::string yaml = c.to_yaml();
  EXPECT_EQ(yaml.find('\x1b'), std::string::npos) << yaml;
  EXPECT_EQ(Config::from_string(yaml).require<std::string>("Global.epoch_num"), "\x1b]0;pwned\a\x1b[2J");
}
