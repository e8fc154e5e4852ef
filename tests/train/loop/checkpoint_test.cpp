#include "ocrforge/train/loop/checkpoint.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {
struct Tiny : torch::nn::Module {
  explicit Tiny(int hidden) {
    fc = register_module("fc", torch::nn::Linear(4, hidden));
    bn = register_module("bn", torch::nn::BatchNorm1d(hidden));
  }
  torch::nn::Linear fc{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
};
}  // namespace

TEST(Checkpoint, RoundTripsWeightsOptimizerAndProgress) {
  const std::string dir = test::fresh_dir("ckpt_roundtrip");
  torch::manual_seed(1);
  Tiny a(3);
  torch::optim::Adam opt(a.parameters(), torch::optim::AdamOptions(0.01));
  a.fc->forward(torch::ones({2, 4})).sum().backward();
  opt.step();
  CheckpointData d;
  d.progress.epoch = 3;
  d.progress.global_step = 42;
  d.progress.best_metric = 0.75;
  d.config_yaml = "Global: {epoch_num: 5}\n";
  save_checkpoint(dir + "/latest", a, &opt, d);
  EXPECT_TRUE(fs::exists(dir + "/latest.ckpt"));
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename(), "latest.ckpt") << "temp file left";

  torch::manual_seed(2);
  Tiny b(3);
  torch::optim::Adam opt_b(b.parameters(), torch::optim::AdamOptions(0.01));
  CheckpointData back = load_checkpoint(dir + "/latest.ckpt", b, &opt_b);
  EXPECT_EQ(back.progress.epoch, 3);
  EXPECT_EQ(back.progress.global_step, 42);
  EXPECT_DOUBLE_EQ(back.progress.best_metric, 0.75);
  EXPECT_EQ(back.config_yaml, d.config_yaml);
  EXPECT_TRUE(torch::equal(a.fc->weight, b.fc->weight));
  EXPECT_TRUE(torch::equal(a.bn->running_mean, b.bn->running_mean));
  // The optimizer state came back too: one more identical step stays identical.
  opt.zero_grad();
  opt_b.zero_grad();
  for (auto* m : {&a, &b}) m->fc->forward(torch::ones({2, 4})).sum().backward();
  opt.step();
  opt_b.step();
  EXPECT_TRUE(torch::allclose(a.fc->weight, b.fc->weight));
}

TEST(Checkpoint, MismatchListsKeysAndLeavesModelUntouched) {
  const std::string dir = test::fresh_dir("ckpt_mismatch");
  Tiny a(3);
  save_checkpoint(dir + "/m", a, nullptr, {});
  Tiny b(5);
  const torch::Tensor before = b.fc->weight.clone();
  try {
    load_checkpoint(dir + "/m", b, nullptr);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("shape mismatches: bn.bias"), std::string::npos) << msg;
    EXPECT_NE(msg.find("fc.weight"), std::string::npos) << msg;
  }
  EXPECT_TRUE(torch::equal(before, b.fc->weight));
}

TEST(Checkpoint, MissingAndCorruptFilesAreClearErrors) {
  const std::string dir = test::fresh_dir("ckpt_bad");
  Tiny a(3);
  EXPECT_THROW(load_checkpoint(dir + "/nope", a, nullptr), Error);
  test::write_text(dir + "/junk.ckpt", "not a checkpoint");
  try {
    load_checkpoint(dir + "/junk", a, nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not an ocrforge checkpoint"), std::string::npos);
  }
  save_checkpoint(dir + "/t", a, nullptr, {});
  const std::string whole = test::read_text(dir + "/t.ckpt");
  test::write_text(dir + "/cut.ckpt", whole.substr(0, whole.size() / 2));
  EXPECT_THROW(load_checkpoint(dir + "/cut", a, nullptr), Error);
}

TEST(Checkpoint, PretrainedLoadsWhatFits) {
  const std::string dir = test::fresh_dir("ckpt_pretrained");
  Tiny a(3);
  save_checkpoint(dir + "/p", a, nullptr, {});
  Tiny b(5);
  PretrainedReport r = load_pretrained(dir + "/p", b);
  // Only the scalar BatchNorm step counter has the same shape.
  EXPECT_EQ(r.loaded, std::vector<std::string>{"bn.num_batches_tracked"});
  EXPECT_FALSE(r.shape_mismatch.empty());
  Tiny c(3);
  EXPECT_EQ(load_pretrained(dir + "/p", c).loaded.size(), model_state(c).size());
}

static std::string load_error(const std::string& prefix, torch::nn::Module& m) {
  return test::message_of<Error>([&] { load_checkpoint(prefix, m, nullptr); });
}

TEST(Checkpoint, FlippedBytesInTheMiddleAreRefusedByName) {
  // The case: 64 bytes flipped mid-file loaded silently before.
  const std::string dir = test::fresh_dir("ckpt_flip");
  Tiny a(3);
  save_checkpoint(dir + "/t", a, nullptr, {});
  std::string bytes = test::read_text(dir + "/t.ckpt");
  ASSERT_GT(bytes.size(), 200u);
  for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i) bytes[i] = static_cast<char>(~bytes[i]);
  test::write_text(dir + "/flipped.ckpt", bytes);
  Tiny b(3);
  const torch::Tensor before = b.fc->weight.clone();
  const std::string msg = load_error(dir + "/flipped", b);
  EXPECT_NE(msg.find("damaged checkpoint '" + dir + "/flipped.ckpt'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("use another (e.g. best_accuracy / iter_epoch_N"), std::string::npos) << msg;
  EXPECT_TRUE(torch::equal(before, b.fc->weight)) << "a damaged file must change nothing";
  EXPECT_THROW(load_pretrained(dir + "/flipped", b), Error);
}

TEST(Checkpoint, DamagedHeaderAndTailGiveTheSameClearError) {
  const std::string dir = test::fresh_dir("ckpt_ends");
  Tiny a(3);
  save_checkpoint(dir + "/t", a, nullptr, {});
  const std::string whole = test::read_text(dir + "/t.ckpt");
  std::string header = whole;
  header[20] = '}';  // inside the JSON header block
  test::write_text(dir + "/header.ckpt", header);
  std::string tail = whole;
  tail[tail.size() - 50] ^= 0x5A;  // in the tail of the weights block, before the hash block
  test::write_text(dir + "/tail.ckpt", tail);
  test::write_text(dir + "/cut.ckpt", whole.substr(0, whole.size() - 10));
  for (const char* name : {"header", "tail", "cut"}) {
    Tiny b(3);
    const std::string msg = load_error(dir + "/" + name, b);
    EXPECT_NE(msg.find("damaged checkpoint"), std::string::npos) << name << ": " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << name << ": no stack trace in the message: " << msg;
  }
}

TEST(Checkpoint, OldFilesWithoutTheHashStillLoad) {
  const std::string dir = test::fresh_dir("ckpt_old");
  Tiny a(3);
  save_checkpoint(dir + "/t", a, nullptr, {});
  std::string bytes = test::read_text(dir + "/t.ckpt");
  // Drop the fourth block ("fnv1a64 " + 16 hex digits after its 8-byte length).
  const size_t trailer = 8 + 8 + 16;
  ASSERT_EQ(bytes.substr(bytes.size() - 24, 8), "fnv1a64 ");
  test::write_text(dir + "/old.ckpt", bytes.substr(0, bytes.size() - trailer));
  Tiny b(3);
  EXPECT_NO_THROW(load_checkpoint(dir + "/old", b, nullptr));
  EXPECT_TRUE(torch::equal(a.fc->weight, b.fc->weight));
}

TEST(Checkpoint, SaveRemovesTempFilesOfAKilledSave) {
  const std::string dir = test::fresh_dir("ckpt_stale");
  test::write_text(dir + "/.latest.ckpt.tmp.AbCdEf", "half a checkpoint from kill -9");
  Tiny a(3);
  save_checkpoint(dir + "/latest", a, nullptr, {});
  EXPECT_FALSE(std::filesystem::exists(dir + "/.latest.ckpt.tmp.AbCdEf"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/latest.ckpt"));
}
