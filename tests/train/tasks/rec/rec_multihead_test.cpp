// PP-OCRv3's MultiHead as a recognition task: the SAR branch is built and
// trained with MultiLoss (CTCLoss + SARLoss, logged under PaddleOCR's names),
// MultiLabelEncode feeds it label_sar, use_guide is honoured with it, and the
// pairings that cannot train (MultiHead + CTCLoss, MultiLoss without SAR,
// CTCLabelEncode, a wrong ignore_index) fail or warn naming the key; PP-OCRv4's
// NRTR branch trains with NRTRLoss and is left out without it.
#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/rec/rec_task.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "test_support.h"
#include "train/tasks/rec/multihead_fixture.h"

using namespace ocrforge;

namespace {

std::unique_ptr<Task> task_for(const Config& c) {
  check_config_keys(c);
  return make_task(c, trainer_spec_from_config(c), torch::kCPU);
}

bool contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& l : lines)
    if (l.find(part) != std::string::npos) return true;
  return false;
}

// `yaml` with its Loss section replaced.
std::string with_loss(const std::string& yaml, const std::string& loss) {
  YAML::Node root = YAML::Load(yaml);
  root["Loss"] = YAML::Load(loss);
  return YAML::Dump(root);
}

std::string thrown(const std::function<void()>& f) {
  return ocrforge::test::message_of<Error>([&] {
    f();
  });
}

}  // namespace

TEST(RecMultiHead, TrainsTheCtcAndSarBranchesUnderPaddleOcrsNames) {
  const auto t = test::make_tiny_task("multihead_step", 8);
  const Config c = Config::from_string(test::tiny_multihead_config(t, 1, 4));
  auto task = task_for(c);
  auto* rec = dynamic_cast<RecTask*>(task.get());
  ASSERT_NE(rec, nullptr);
  ASSERT_TRUE(rec->rec_model()->sar_head());
  EXPECT_TRUE(task->startup_warnings().empty()) << task->startup_warnings().front();
  auto loader = task->make_loader("Train", true, 0, 1);
  EXPECT_TRUE(contains(task->startup_info(), "Architecture MultiHead: the SARHead (enc_dim 64, d_k 32"));
  EXPECT_TRUE(contains(task->startup_info(), "SARLoss ignores the <PAD> index 12"));
  EXPECT_TRUE(contains(task->startup_info(), "MultiLabelEncode: a text of 7 or more characters"));
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  EXPECT_EQ(batch.at("label_sar").sizes(), (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(batch.at("label_sar")[0][0].item<int64_t>(), 11);  // <BOS/EOS> of 10 digits
  task->model().train();
  const StepLoss s = task->train_step(batch);
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.parts[0].first, "CTCLoss");
  EXPECT_EQ(s.parts[1].first, "SARLoss");
  EXPECT_GT(s.parts[1].second, 1.0);  // about log(12) untrained
  EXPECT_NEAR(s.loss.item<double>(), s.parts[0].second + s.parts[1].second, 1e-4 * s.loss.item<double>());
  s.loss.backward();
  EXPECT_TRUE(task->model().named_parameters()["sar_head.decoder.prediction.weight"].grad().defined());
  // MultiLoss's weights scale the parts.
  Config w = Config::from_string(test::tiny_multihead_config(t, 1, 4));
  w.apply_overrides({"Loss.weight_2=0.5"});
  auto half = task_for(w);
  half->model().train();
  torch::manual_seed(0);
  const StepLoss h = half->train_step(batch);
  EXPECT_LT(h.parts[1].second, 0.75 * s.parts[1].second);
}

// PaddleOCR's ch_PP-OCRv3_rec.yml network and loss (MultiHead with
// use_guide: True + SARHead enc_dim 512, MultiLoss) over the shipped
// configs' data settings: both branches are built, the guide is kept.
TEST(RecMultiHead, PaddleOcrsPpOcrV3RecipeBuildsBothBranchesAndKeepsTheGuide) {
  Config c = Config::load_file(test::source_dir() + "/configs/rec/ch_PP-OCRv3_mobile_rec.yml");
  YAML::Node root = YAML::Clone(c.root());
  root["Global"]["character_dict_path"] = test::model_root() + "/ppocr_keys_v1.txt";
  root["Architecture"] = YAML::Load(R"(
model_type: rec
algorithm: SVTR_LCNet
Transform:
Backbone: {name: MobileNetV1Enhance, scale: 0.5, last_conv_stride: [1, 2], last_pool_type: avg, last_pool_kernel_size: [2, 2]}
Head:
  name: MultiHead
  head_list:
    - CTCHead:
        Neck: {name: svtr, dims: 64, depth: 2, hidden_dims: 120, use_guide: True}
        Head: {fc_decay: 0.00001}
    - SARHead: {enc_dim: 512, max_text_length: 25}
)");
  root["Loss"] = YAML::Load("{name: MultiLoss, loss_config_list: [{CTCLoss: }, {SARLoss: }]}");
  test::use_multi_label_encode(root);
  auto task = task_for(Config::from_string(YAML::Dump(root)));
  auto* rec = dynamic_cast<RecTask*>(task.get());
  ASSERT_NE(rec, nullptr);
  EXPECT_TRUE(rec->rec_model()->spec().neck.use_guide);
  EXPECT_NO_THROW(task->check_trainable());
  ASSERT_TRUE(rec->rec_model()->sar_head());
  EXPECT_EQ(count_parameters(*rec->rec_model()->sar_head()), 24867811);  // sar_head_test.cpp's count
  EXPECT_TRUE(contains(task->startup_info(), "SARLoss ignores the <PAD> index 6626"));
  EXPECT_FALSE(contains(task->startup_warnings(), "use_guide"));
}

TEST(RecMultiHead, PairingsThatCannotTrainNameTheKey) {
  const auto t = test::make_tiny_task("multihead_bad", 4);
  const std::string base = test::tiny_multihead_config(t, 1, 4);
  const auto error_of = [&](const std::vector<std::string>& overrides, bool train = false) {
    Config c = Config::from_string(base);
    c.apply_overrides(overrides);
    return thrown([&] {
      auto task = task_for(c);
      if (train) {
        task->check_trainable();
        task->make_loader("Train", true, 0, 1);
      }
    });
  };
  EXPECT_NE(thrown([&] { task_for(Config::from_string(with_loss(base, "{name: CTCLoss}"))); })
                .find("Loss.name: CTCLoss, but Architecture.Head is a MultiHead with a SARHead; train it with "
                      "PaddleOCR's MultiLoss"),
            std::string::npos);
  EXPECT_NE(error_of({"Loss.loss_config_list=[{CTCLoss: }, {SARLoss: {ignore_index: 92}}]"})
                .find("SARLoss.ignore_index: 92, but the SAR labels pad with index 12"),
            std::string::npos);
  EXPECT_NE(error_of({"Train.dataset.transforms=[{DecodeImage: }, {CTCLabelEncode: }, "
                      "{RecResizeImg: {image_shape: [3, 32, 100]}}]"},
                     true)
                .find("Train.dataset.transforms: the SAR branch of MultiHead trains on label_sar"),
            std::string::npos);
  // MultiLoss without a SAR branch.
  EXPECT_NE(thrown([&] {
              task_for(Config::from_string(with_loss(test::tiny_config(t, 1, 4),
                                                     "{name: MultiLoss, loss_config_list: [{CTCLoss: }, {SARLoss: }]}")));
            }).find("this Architecture has a CTC head only"),
            std::string::npos);
  // use_guide leaves the backbone to SAR: without SARLoss nothing trains it.
  test::MultiHeadOptions guided;
  guided.neck = "svtr";
  guided.use_guide = true;
  Config g = Config::from_string(test::tiny_multihead_config(t, 1, 4, guided));
  EXPECT_NO_THROW(task_for(g)->check_trainable());
  g.apply_overrides({"Loss.loss_config_list=[{CTCLoss: }]"});
  auto no_sar = task_for(g);
  EXPECT_TRUE(contains(no_sar->startup_warnings(), "no SARLoss, so the SARHead of Architecture.Head gets no loss"));
  EXPECT_NE(thrown([&] { no_sar->check_trainable(); }).find("Loss lists no SARLoss"), std::string::npos);
  // Both guidance heads: PaddleOCR's MultiHead runs one.
  Config both = Config::from_string(base);
  both.apply_overrides({"Architecture.Head.head_list=[{CTCHead: {Neck: {name: rnn, hidden_size: 32}}}, {SARHead: }, "
                        "{NRTRHead: }]"});
  EXPECT_NE(thrown([&] { task_for(both); }).find("lists both SARHead and NRTRHead"), std::string::npos);
}

// NRTRHead without NRTRLoss (a CTC-only fine-tune of a PP-OCRv4 config):
// the NRTR branch is left out with a warning, use_guide turned off.
TEST(RecMultiHead, NrtrHeadWithoutItsLossIsLeftOutWithAWarning) {
  const auto t = test::make_tiny_task("multihead_nrtr", 4);
  test::MultiHeadOptions o;
  o.neck = "svtr";
  o.use_guide = true;
  o.sar = false;
  Config c = Config::from_string(test::tiny_multihead_config(t, 1, 4, o));
  c.apply_overrides({"Architecture.Head.head_list=[{CTCHead: {Neck: {name: svtr, dims: 32, depth: 1, hidden_dims: 32, "
                     "use_guide: true}}}, {NRTRHead: {nrtr_dim: 64, max_text_length: 8}}]"});
  auto task = task_for(c);
  const auto w = task->startup_warnings();
  EXPECT_TRUE(contains(w, "MultiHead: only the CTC branch is trained; left out (no loss of this run reads it): NRTRHead"));
  EXPECT_TRUE(contains(w, "use_guide: True trains the backbone through the NRTRHead branch, which is left out"));
  EXPECT_NO_THROW(task->check_trainable());
  auto* rec = dynamic_cast<RecTask*>(task.get());
  EXPECT_FALSE(rec->rec_model()->sar_head());
  EXPECT_FALSE(rec->rec_model()->gtc_head());
  // PP-OCRv4's MultiLoss with its NRTRLoss entry taken out trains the CTC branch alone.
  c.apply_overrides({"Loss.name=MultiLoss", "Loss.loss_config_list=[{CTCLoss: }]"});
  auto multi = task_for(c);
  EXPECT_TRUE(contains(multi->startup_warnings(), "left out (no loss of this run reads it): NRTRHead"));
  EXPECT_NO_THROW(multi->check_trainable());
}

// PP-OCRv4's MultiLoss (CTCLoss + NRTRLoss) trains both branches, logged
// under PaddleOCR's names; NRTRLoss without an NRTRHead, or with a
// MultiLabelEncode that makes no label_gtc, is a mistake naming the key.
TEST(RecMultiHead, NrtrLossTrainsTheNrtrBranch) {
  torch::manual_seed(11);
  const auto t = test::make_tiny_task("multihead_nrtr_loss", 4);
  test::MultiHeadOptions o;
  o.neck = "svtr";
  o.sar = false;
  const std::string heads =
      "Architecture.Head.head_list=[{CTCHead: {Neck: {name: svtr, dims: 32, depth: 1, hidden_dims: 32}}}, "
      "{NRTRHead: {nrtr_dim: 64, max_text_length: 8}}]";
  Config c = Config::from_string(test::tiny_multihead_config(t, 1, 4, o));
  c.apply_overrides({heads, "Loss.name=MultiLoss", "Loss.loss_config_list=[{CTCLoss: }, {NRTRLoss: }]"});
  // MultiLabelEncode without gtc_encode makes label_sar, not label_gtc: the key check says so.
  EXPECT_NE(thrown([&] { task_for(c); }).find("gtc_encode: NRTRLabelEncode"), std::string::npos);
  YAML::Node root = YAML::Clone(c.root());
  test::use_multi_label_encode(root, /*nrtr=*/true);
  const Config v4 = Config::from_string(YAML::Dump(root));  // the task keeps a reference
  auto task = task_for(v4);
  auto* rec = dynamic_cast<RecTask*>(task.get());
  ASSERT_TRUE(rec->rec_model()->gtc_head());
  EXPECT_TRUE(contains(task->startup_info(), "the NRTR branch (nrtr_dim 64, 4 decoder layers"));
  auto loader = task->make_loader("Train", true, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  EXPECT_EQ(batch.at("label_gtc").sizes(), (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(batch.at("label_gtc")[0][0].item<int64_t>(), 2);  // <s>
  task->model().train();
  const StepLoss s = task->train_step(batch);
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.parts[0].first, "CTCLoss");
  EXPECT_EQ(s.parts[1].first, "NRTRLoss");
  EXPECT_GT(s.parts[1].second, 1.0);  // about log(15) untrained
  EXPECT_NEAR(s.loss.item<double>(), s.parts[0].second + s.parts[1].second, 1e-4 * s.loss.item<double>());
  s.loss.backward();
  EXPECT_TRUE(task->model().named_parameters()["gtc_head.tgt_word_prj.weight"].grad().defined());
  EXPECT_TRUE(task->model().named_parameters()["before_gtc.1.fc.weight"].grad().defined());
  // The branch learns: 40 Adam steps on this batch lower NRTRLoss well below
  // its start (label smoothing keeps it above about 0.6 here).
  torch::optim::Adam adam(task->model().parameters(), torch::optim::AdamOptions(5e-3));
  double last = 0;
  for (int i = 0; i < 40; ++i) {
    adam.zero_grad();
    const StepLoss step = task->train_step(batch);
    step.loss.backward();
    adam.step();
    last = step.parts[1].second;
  }
  EXPECT_LT(last, 0.65 * s.parts[1].second) << "NRTRLoss " << s.parts[1].second << " -> " << last;

  Config no_head = Config::from_string(test::tiny_multihead_config(t, 1, 4, o));
  no_head.apply_overrides({"Architecture.Head.head_list=[{CTCHead: {Neck: {name: svtr, dims: 32, depth: 1, "
                           "hidden_dims: 32}}}]",
                           "Loss.name=MultiLoss", "Loss.loss_config_list=[{CTCLoss: }, {NRTRLoss: }]"});
  EXPECT_NE(thrown([&] { task_for(no_head); }).find("Architecture.Head lists no NRTRHead for this loss"),
            std::string::npos);
}

// Pretrained weights without the NRTR branch under use_guide: True (a
// fine-tune from an inference model) warn: the untrained branch alone would
// train the backbone.
TEST(RecMultiHead, AnUntrainedGuideOverATrainedBackboneWarns) {
  const auto t = test::make_tiny_task("multihead_guide_warn", 4);
  test::MultiHeadOptions o;
  o.neck = "svtr";
  o.use_guide = true;
  o.sar = false;
  const std::string ctc_only = test::tiny_multihead_config(t, 1, 4, o);
  Config plain = Config::from_string(ctc_only);
  plain.apply_overrides({"Architecture.Head.head_list=[{CTCHead: {Neck: {name: svtr, dims: 32, depth: 1, hidden_dims: 32}}}]",
                         "Architecture.Head.name=MultiHead"});
  auto source = task_for(plain);
  save_checkpoint(t.dir + "/ctc_only", source->model(), nullptr, CheckpointData{});
  const std::string heads =
      "Architecture.Head.head_list=[{CTCHead: {Neck: {name: svtr, dims: 32, depth: 1, hidden_dims: 32, "
      "use_guide: GUIDE}}}, {NRTRHead: {nrtr_dim: 64, max_text_length: 8}}]";
  for (const char* guide : {"true", "false"}) {
    Config c = Config::from_string(ctc_only);
    std::string h = heads;
    h.replace(h.find("GUIDE"), 5, guide);
    c.apply_overrides({h, "Loss.name=MultiLoss", "Loss.loss_config_list=[{CTCLoss: }, {NRTRLoss: }]"});
    test::use_multi_label_encode(c.root(), /*nrtr=*/true);
    auto task = task_for(c);
    const PretrainedReport r = task->load_pretrained_weights(t.dir + "/ctc_only");
    EXPECT_FALSE(r.loaded.empty());
    EXPECT_EQ(r.warnings.size(), std::string(guide) == "true" ? 1u : 0u) << guide;
    if (!r.warnings.empty()) EXPECT_NE(r.warnings[0].find("NRTR branch starts untrained"), std::string::npos);
  }
}

