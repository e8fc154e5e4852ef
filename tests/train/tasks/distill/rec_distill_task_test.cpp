// Recognition distillation as a task: PaddleOCR's PP-OCRv3 distillation
// config builds with every term (SAR branch included) and trains a step,
// parameter names carry the
// model names, a frozen teacher gets no gradient, the loss terms are
// PaddleOCR's, dictionaries that differ are compared over their shared
// characters, and bad configs fail naming the key.
#include "ocrforge/train/tasks/distill/rec_distill_task.h"

#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/distill/distill_losses.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "test_support.h"
#include "train/tasks/distill/distill_fixture.h"
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

std::string thrown(const std::function<void()>& f) {
  return ocrforge::test::message_of<Error>([&] {
    f();
  });
}

}  // namespace

TEST(RecDistillTask, BuildsPaddleOCRsPPOCRv3DistillationConfig) {
  Config c = Config::load_file(test::source_dir() + "/configs/rec/PP-OCRv3/ch_PP-OCRv3_mobile_rec_distillation.yml");
  c.apply_overrides({"Global.character_dict_path=" + test::model_root() + "/ppocr_keys_v1.txt"});
  auto task = task_for(c);
  auto* d = dynamic_cast<RecDistillTask*>(task.get());
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->members().size(), 2u);
  EXPECT_EQ(d->members()[0]->spec.name, "Teacher");
  EXPECT_EQ(d->metric_key(), "Student");
  // Checkpoint keys as PaddleOCR names them.
  int teacher = 0, student = 0;
  for (const auto& p : task->model().named_parameters()) {
    teacher += p.key().rfind("Teacher.", 0) == 0;
    student += p.key().rfind("Student.", 0) == 0;
  }
  EXPECT_GT(teacher, 50);
  EXPECT_EQ(teacher, student);
  EXPECT_EQ(teacher + student, static_cast<int>(task->model().parameters().size()));
  // The head's pinned L2 reaches through the member name.
  EXPECT_FLOAT_EQ(task->pinned_l2_decay("Student.head.fc.weight").value_or(-1), 1e-5f);
  // The SAR branch is built: its weights are checkpoint keys, its L2 is the optimizer's.
  EXPECT_EQ(task->model().named_parameters().contains("Student.sar_head.decoder.prediction.weight"), true);
  EXPECT_FALSE(task->pinned_l2_decay("Teacher.sar_head.decoder.prediction.weight").has_value());
  // Every term is built: nothing is left out, use_guide is kept.
  const auto w = task->startup_warnings();
  EXPECT_FALSE(contains(w, "not built")) << w.front();
  EXPECT_FALSE(contains(w, "left out")) << w.front();
  EXPECT_FALSE(contains(w, "use_guide")) << w.front();
  EXPECT_TRUE(d->member("Teacher").arch.neck.use_guide);
  EXPECT_NO_THROW(task->check_trainable());
  EXPECT_TRUE(contains(task->startup_info(), "Architecture.Models.Student MultiHead: the SARHead (enc_dim 512"));
  EXPECT_TRUE(contains(task->startup_info(), "Architecture.Models.Teacher MultiHead: the SARHead (enc_dim 512"));

  // One step on a few rendered numbers: PaddleOCR's seven loss values.
  const auto t = test::make_tiny_task("distill_v3_full", 4);
  c.apply_overrides({"Train.dataset.data_dir=" + t.dir, "Train.dataset.label_file_list=[" + t.dir + "/rec_gt.txt]",
                     "Train.loader.batch_size_per_card=2", "Train.loader.num_workers=0"});
  auto loader = task->make_loader("Train", true, 0, 1);
  EXPECT_TRUE(contains(task->startup_info(), "MultiLabelEncode: a text of 24 or more characters"));
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  task->model().train();
  const StepLoss s = task->train_step(batch);
  std::vector<std::string> names;
  for (const auto& [n, v] : s.parts) {
    names.push_back(n);
    EXPECT_TRUE(std::isfinite(v)) << n;
    EXPECT_GT(v, 0.0) << n;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"dml_ctc_0", "dml_sar_0", "loss_distance_Student_Teacher_0",
                                             "loss_ctc_Student_0", "loss_ctc_Teacher_1", "loss_sar_Student_0",
                                             "loss_sar_Teacher_1"}));
}

// The tiny version of PaddleOCR's recipe (two small MultiHead models, the
// same five terms) trains with every term, and the log lists their values.
TEST(RecDistillTask, TinyPpOcrV3RecipeTrainsEveryTermAndLogsThem) {
  const auto t = test::make_tiny_task("distill_v3_tiny", 8);
  Config c = Config::from_string(test::tiny_v3_distill_config(t, 1, 4));
  c.apply_overrides({"Global.print_batch_step=1"});
  {
    auto task = task_for(c);
    EXPECT_TRUE(task->startup_warnings().empty()) << task->startup_warnings().front();
    auto loader = task->make_loader("Train", true, 0, 1);
    loader->start_epoch(0);
    Batch batch;
    ASSERT_TRUE(loader->next(&batch));
    task->model().train();
    const StepLoss s = task->train_step(batch);
    double sum = 0;
    for (const auto& [n, v] : s.parts) sum += v;
    ASSERT_EQ(s.parts.size(), 7u);
    EXPECT_NEAR(s.loss.item<double>(), sum, 1e-4 * std::abs(sum));
    s.loss.backward();
    // Every SAR head learns: through its own SARLoss and the SAR DML.
    for (const char* p : {"Student.sar_head.decoder.prediction.weight", "Teacher.sar_head.encoder.linear.weight"})
      EXPECT_GT(task->model().named_parameters()[p].grad().abs().sum().item<double>(), 0.0) << p;
  }
  Trainer trainer(c);
  trainer.train();
  const std::string log = test::read_text(t.save_dir + "/train.log");
  for (const char* name : {"dml_ctc_0: ", "dml_sar_0: ", "loss_sar_Student_0: ", "loss_sar_Teacher_1: ",
                           "loss_ctc_Student_0: "})
    EXPECT_NE(log.find(name), std::string::npos) << name << "\n" << log;
  EXPECT_EQ(log.find("left out"), std::string::npos);
}

// A SAR term names a model without a SAR branch: the error says which.
TEST(RecDistillTask, SarTermsNeedAMemberWithASarHead) {
  const auto t = test::make_tiny_task("distill_v3_bad", 4);
  YAML::Node root = YAML::Load(test::tiny_v3_distill_config(t, 1, 4));
  const YAML::Node ctc_only = YAML::Clone(root["Architecture"]["Models"]["Teacher"]["Head"]["head_list"][0]);
  root["Architecture"]["Models"]["Teacher"]["Head"]["head_list"] = YAML::Load("[]");
  root["Architecture"]["Models"]["Teacher"]["Head"]["head_list"].push_back(ctc_only);
  const std::string e = thrown([&] { task_for(Config::from_string(YAML::Dump(root))); });
  EXPECT_NE(e.find("Loss.loss_config_list[1].DistillationDMLLoss.model_name_pairs: 'Teacher' has no SAR branch"),
            std::string::npos)
      << e;
  YAML::Node wrong = YAML::Load(test::tiny_v3_distill_config(t, 1, 4));
  wrong["Loss"]["loss_config_list"][4]["DistillationSARLoss"]["ignore_index"] = 92;
  EXPECT_NE(thrown([&] { task_for(Config::from_string(YAML::Dump(wrong))); })
                .find("DistillationSARLoss.ignore_index: 92, but the SAR labels pad with index 12"),
            std::string::npos);
}

TEST(RecDistillTask, FrozenTeacherGetsNoGradientAndTheLossHasPaddleOCRsTerms) {
  const auto t = test::make_tiny_task("distill_step", 8);
  test::DistillOptions o;
  o.teacher_ctc = true;
  const Config c = Config::from_string(test::tiny_distill_config(t, 1, 8, o));
  auto task = task_for(c);
  auto loader = task->make_loader("Train", true, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  task->model().train();
  const StepLoss s = task->train_step(batch);
  std::vector<std::string> names;
  double sum = 0;
  for (const auto& [n, v] : s.parts) {
    names.push_back(n);
    sum += v;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"loss_ctc_Student_0", "loss_ctc_Teacher_1", "dml_ctc_0"}));
  EXPECT_NEAR(s.loss.item<double>(), sum, 1e-4 * std::abs(sum));
  s.loss.backward();
  for (const auto& p : task->model().named_parameters()) {
    if (p.key().rfind("Teacher.", 0) == 0) {
      EXPECT_FALSE(p.value().requires_grad()) << p.key();
      EXPECT_FALSE(p.value().grad().defined()) << p.key();
    }
  }
  EXPECT_TRUE(task->model().named_parameters()["Student.head.fc.weight"].grad().defined());
  // The frozen teacher ran in eval mode although the container is training.
  auto* d = dynamic_cast<RecDistillTask*>(task.get());
  EXPECT_FALSE(d->member("Teacher").module()->is_training());
  EXPECT_TRUE(d->member("Student").module()->is_training());
}

TEST(RecDistillTask, EvaluationReportsTheKeyModelAndPrefixesTheOthers) {
  const auto t = test::make_tiny_task("distill_eval", 6);
  const Config c = Config::from_string(test::tiny_distill_config(t, 1, 8, {}));
  auto task = task_for(c);
  auto loader = task->make_loader("Eval", false, 0, 1);
  const EvalMetrics r = task->evaluate(*loader, nullptr);
  std::vector<std::string> names;
  for (const auto& [n, v] : r.values) names.push_back(n);
  EXPECT_EQ(names, (std::vector<std::string>{"acc", "norm_edit_dis", "Teacher_acc", "Teacher_norm_edit_dis"}));
  EXPECT_EQ(r.samples, 6);
}

TEST(RecDistillTask, DmlIsTheSymmetricKlOfPaddleOCR) {
  torch::manual_seed(3);
  const auto a = torch::randn({2, 5, 4}), b = torch::randn({2, 5, 4});
  EXPECT_NEAR(dml_loss(a, a.clone(), "softmax", true).item<double>(), 0.0, 1e-6);
  // By hand: p = softmax, loss = (sum p_b (log p_b - log p_a) + sum p_a (log p_a - log p_b)) / 2 / N.
  const auto pa = torch::softmax(a, -1), pb = torch::softmax(b, -1);
  const double expect = ((pb * (pb.log() - pa.log())).sum() + (pa * (pa.log() - pb.log())).sum()).item<double>() / 2 / 2;
  EXPECT_NEAR(dml_loss(a, b, "softmax", true).item<double>(), expect, 1e-4);
  EXPECT_NEAR(dml_loss(a, b, "softmax", true).item<double>(), dml_loss(b, a, "softmax", true).item<double>(), 1e-6);
  EXPECT_THROW(dml_loss(a, torch::randn({2, 6, 4}), "softmax", true), Error);
}

// A teacher with a larger dictionary (digits + letters) teaches a digits
// student: DML compares the 11 classes both know (blank + 10 digits).
TEST(RecDistillTask, TeacherWithItsOwnDictionaryIsComparedOverSharedCharacters) {
  const auto t = test::make_tiny_task("distill_dicts", 8);
  const std::string big = t.dir + "/alnum.txt";
  {
    std::string s;
    for (char ch = 'a'; ch <= 'f'; ++ch) s += std::string(1, ch) + "\n";
    for (char ch = '9'; ch >= '0'; --ch) s += std::string(1, ch) + "\n";  // another order too
    test::write_text(big, s);
  }
  Config c = Config::from_string(test::tiny_distill_config(t, 1, 8, {}));
  c.apply_overrides({"Architecture.Models.Teacher.character_dict_path=" + big});
  auto task = task_for(c);
  EXPECT_TRUE(contains(task->startup_info(), "are compared over the 11 classes they share"));
  auto loader = task->make_loader("Train", true, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  const StepLoss s = task->train_step(batch);
  EXPECT_TRUE(std::isfinite(s.loss.item<double>()));
  // Its CTC loss cannot be computed: the labels use Global's dictionary.
  test::DistillOptions o;
  o.teacher_ctc = true;
  Config bad = Config::from_string(test::tiny_distill_config(t, 1, 8, o));
  bad.apply_overrides({"Architecture.Models.Teacher.character_dict_path=" + big});
  EXPECT_NE(thrown([&] { task_for(bad); }).find("'Teacher' has its own dictionary"), std::string::npos);
}

// en_dict.txt lists a space and use_space_char adds another: the space is
// compared once (at the index labels use), not twice.
TEST(RecDistillTask, ACharacterListedTwiceIsComparedOnce) {
  const auto t = test::make_tiny_task("distill_dup", 4);
  const std::string spaced = t.dir + "/digits_space.txt", teacher = t.dir + "/teacher.txt";
  test::write_text(spaced, "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n \n");
  test::write_text(teacher, "a\n9\n8\n7\n6\n5\n4\n3\n2\n1\n0\n");
  Config c = Config::from_string(test::tiny_distill_config(t, 1, 8, {}));
  c.apply_overrides({"Global.character_dict_path=" + spaced, "Global.use_space_char=true",
                     "Architecture.Models.Teacher.character_dict_path=" + teacher,
                     "Architecture.Models.Teacher.use_space_char=true"});
  auto task = task_for(c);
  // Student: blank + 10 digits + space line + space = 13 classes; shared: blank, 10 digits, one space.
  EXPECT_TRUE(contains(task->startup_info(), "Student (13 classes) and Teacher (13) are compared over the 12 classes"))
      << (task->startup_info().empty() ? "" : task->startup_info().back());
}

TEST(RecDistillTask, BadConfigsNameTheKey) {
  const auto t = test::make_tiny_task("distill_bad", 4);
  const std::string base = test::tiny_distill_config(t, 1, 8, {});
  const auto error_of = [&](const std::vector<std::string>& overrides) {
    Config c = Config::from_string(base);
    c.apply_overrides(overrides);
    return thrown([&] { task_for(c); });
  };
  EXPECT_NE(error_of({"Loss.loss_config_list=[{DistillationDMLLoss: {model_name_pairs: [[Student, Teacherr]]}}]"})
                .find("'Teacherr' is not a model of Architecture.Models"),
            std::string::npos);
  EXPECT_NE(error_of({"Loss.loss_config_list=[{DistillationCTCLoss: {model_name_list: [Teacher]}}]"})
                .find("every model the loss reads is frozen"),
            std::string::npos);
  EXPECT_NE(error_of({"Loss.loss_config_list=[{DistillationKLLoss: {}}]"}).find("unknown loss 'DistillationKLLoss'"),
            std::string::npos);
  {
    YAML::Node root = YAML::Load(base);
    root["Loss"] = YAML::Load("{name: CTCLoss}");
    const Config c = Config::from_string(YAML::Dump(root));
    EXPECT_NE(thrown([&] { task_for(c); }).find("name: CombinedLoss"), std::string::npos);
  }
  EXPECT_NE(error_of({"Architecture.Models.Student.Backbone.scael=0.5"})
                .find("unknown config key 'Architecture.Models.Student.Backbone.scael'"),
            std::string::npos);
  EXPECT_NE(error_of({"Metric.key=Student2"}).find("Metric.key: 'Student2'"), std::string::npos);
  // A frozen teacher must load completely.
  EXPECT_NE(error_of({"Architecture.Models.Teacher.pretrained=" + t.dir + "/nothing"}).find("nothing"),
            std::string::npos);
}

TEST(RecDistillTask, DetectionDistillationIsReadByTheDetTask) {  // det_distill_task_test.cpp covers it
  const Config c = Config::from_string(
      "Architecture: {model_type: det, algorithm: Distillation, Models: {Student: {model_type: det}}}\n");
  EXPECT_NE(thrown([&] { task_for(c); }).find("Architecture.Models.Student.Backbone: missing"), std::string::npos);
}

// PaddleOCR's PP-OCRv4 distillation: Teacher SVTRNet + MultiHead, Student
// PPLCNetV3 + MultiHead. As shipped the Teacher's last_stage: false is
// refused under the member's key path (PaddleOCR fails on it too); with
// last_stage: true, networks shrunk, the losses ocrforge builds (its DKD,
// NRTR and CTC-logits terms are not built yet) and a RecResizeImg in Train
// (PaddleOCR's file has none), the Teacher + Student pair trains two steps.
TEST(RecDistillTask, PpOcrV4SvtrNetTeacherAndPplcNetV3StudentTrain) {
  const auto t = test::make_tiny_task("distill_v4_svtr", 4);
  Config c = Config::load_file(test::source_dir() + "/configs/rec/PP-OCRv4/PP-OCRv4_mobile_rec_distillation.yml");
  c.apply_overrides({"Global.character_dict_path=" + t.dict, "Global.use_space_char=false"});
  const std::string msg = thrown([&] { task_for(c); });
  EXPECT_NE(msg.find("Architecture.Models.Teacher.Backbone.last_stage"), std::string::npos) << msg;

  const std::string m = "Architecture.Models.";
  const std::string neck = "{name: svtr, dims: 16, depth: 1, hidden_dims: 16, num_heads: 2, kernel_size: [1, 3], "
                           "use_guide: True}";
  const std::string transforms =
      "[{DecodeImage: {img_mode: BGR, channel_first: false}}, {MultiLabelEncode: {gtc_encode: NRTRLabelEncode}}, "
      "{RecResizeImg: {image_shape: [3, 48, 320]}}, {KeepKeys: {keep_keys: [image, label_ctc, label_gtc, length, "
      "valid_ratio]}}]";
  c.apply_overrides({
      "Global.epoch_num=1", "Global.save_model_dir=" + t.save_dir, "Global.checkpoints=", "Global.use_gpu=false",
      "Global.max_text_length=8", "Global.print_batch_step=1", "Global.eval_batch_step=[0, 1000000]",
      "Global.save_epoch_step=1000", "Global.num_threads=2", "Global.distributed=false",
      m + "Teacher.Backbone.last_stage=true", m + "Teacher.Backbone.embed_dim=[16, 32, 32]",
      m + "Teacher.Backbone.depth=[1, 1, 1]", m + "Teacher.Backbone.num_heads=[2, 2, 4]",
      m + "Teacher.Backbone.mixer=[Conv, Conv, Global]", m + "Teacher.Backbone.out_channels=32",
      m + "Teacher.Head.head_list=[{CTCHead: {Neck: " + neck + ", Head: {fc_decay: 0.00001}}}, "
          "{NRTRHead: {nrtr_dim: 32, max_text_length: 8}}]",
      m + "Student.Backbone.scale=0.35",
      m + "Student.Head.head_list=[{CTCHead: {Neck: " + neck + ", Head: {fc_decay: 0.00001}}}, "
          "{NRTRHead: {nrtr_dim: 32, max_text_length: 8}}]",
      "Loss.loss_config_list=[{DistillationCTCLoss: {weight: 1.0, model_name_list: [Student], key: head_out, "
      "multi_head: true}}, {DistillationDMLLoss: {weight: 1.0, act: softmax, use_log: true, model_name_pairs: "
      "[[Student, Teacher]], key: head_out, multi_head: true, dis_head: ctc}}]",
      "Train.dataset.data_dir=" + t.dir, "Train.dataset.label_file_list=[" + t.dir + "/rec_gt.txt]",
      "Train.dataset.transforms=" + transforms, "Train.loader.batch_size_per_card=2", "Train.loader.num_workers=0",
      "Eval.dataset.data_dir=" + t.dir, "Eval.dataset.label_file_list=[" + t.dir + "/rec_gt.txt]",
      "Eval.dataset.transforms=" + transforms, "Eval.loader.batch_size_per_card=2", "Eval.loader.num_workers=0",
  });
  {
    auto task = task_for(c);
    const auto params = task->model().named_parameters();
    EXPECT_TRUE(params.contains("Teacher.backbone.pos_embed"));
    EXPECT_TRUE(params.contains("Teacher.backbone.blocks1.0.mixer.local_mixer.weight"));
    EXPECT_TRUE(params.contains("Student.head.fc.weight"));
  }
  Trainer trainer(c);
  trainer.train();
  const std::string log = test::read_text(t.save_dir + "/train.log");
  // DML of the two CTC outputs needs the same 40 steps from both members.
  for (const char* name : {"dml_0: ", "loss_ctc_Student_0: "}) EXPECT_NE(log.find(name), std::string::npos) << log;
  EXPECT_NE(log.find("global_step: 2"), std::string::npos) << log;
}
