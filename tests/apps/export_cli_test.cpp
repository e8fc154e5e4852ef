// `ocrforge export` end to end: the shipped det and rec models, imported as
// trainable graphs and exported with no training, give `ocrforge ocr` the
// same results as the originals; a natively trained recognizer (detector),
// exported, reads (finds) in ONNX Runtime what its checkpoint reads (finds)
// in LibTorch, with the dictionary (post-processing) from inference.yml.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "test_support.h"
#include "train/tasks/rec/trainer_fixture.h"
#include "train/tasks/distill/distill_fixture.h"
#include "train/tasks/det/det_fixture.h"
#include "train/onnx/shipped_model_inputs.h"

using namespace ocrforge;

namespace {

std::string export_cmd(const std::string& config, const std::string& overrides) {
  return test::binary() + " export -c " + test::source_dir() + "/" + config + " -o " + overrides;
}

}  // namespace

TEST(ExportCli, UntrainedExportGivesOcrTheSameResultsAsTheShippedModels) {
  const std::string dir = test::fresh_dir("export_cli_roundtrip");
  const std::string models = test::model_root();
  auto rec = test::run_command(export_cmd("configs/rec/ch_PP-OCRv4_rec_finetune.yml",
                                          "Architecture.onnx_model=" + models + "/rec/inference.onnx "
                                          "Global.character_dict_path=" + models + "/ppocr_keys_v1.txt "
                                          "Global.save_inference_dir=" + dir + "/rec"),
                               dir);
  ASSERT_EQ(rec.exit_code, 0) << rec.out << rec.err;
  EXPECT_NE(rec.out.find("passes the ONNX checker"), std::string::npos) << rec.out;
  auto det = test::run_command(export_cmd("configs/det/ch_PP-OCRv4_det_finetune.yml",
                                          "Architecture.onnx_model=" + models + "/det/inference.onnx "
                                          "Global.save_inference_dir=" + dir + "/det"),
                               dir);
  ASSERT_EQ(det.exit_code, 0) << det.out << det.err;

  const std::string images = dir + "/imgs";
  std::filesystem::create_directories(images);
  for (const char* name : {"imgs_ger_1.jpg", "imgs_en_254.jpg", "imgs_11.jpg"})
    std::filesystem::copy_file(test::data_dir() + "/samples/" + name, images + "/" + name);
  auto ocr = [&](const std::string& out, const std::string& models_flags) {
    auto r = test::run_command(test::binary() + " ocr --cpu_threads 2 --image_dir " + images + " " + models_flags +
                                   " --draw_img_save_dir " + dir + "/" + out,
                               dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return test::read_text(dir + "/" + out + "/system_results.txt");
  };
  const std::string shipped = ocr("shipped", "");
  const std::string exported = ocr("exported", "--det_model_dir " + dir + "/det --rec_model_dir " + dir + "/rec");
  EXPECT_GT(shipped.size(), 200u) << shipped;
  EXPECT_EQ(exported, shipped);
}

// "Predicts of <path>:('<text>', <score>)" lines -> (text, score) per line.
std::vector<std::pair<std::string, double>> predictions(const std::string& out) {
  std::vector<std::pair<std::string, double>> v;
  std::stringstream ss(out);
  for (std::string line; std::getline(ss, line);) {
    const size_t a = line.find(":('"), b = line.rfind("', ");
    if (a == std::string::npos || b == std::string::npos || b < a) continue;
    v.emplace_back(line.substr(a + 3, b - a - 3), std::stod(line.substr(b + 3)));
  }
  return v;
}

// `ocrforge train -c cfg`, then `export` of its latest checkpoint to dir/inference.
void train_and_export(const std::string& cfg, const std::string& dir, const std::string& save_dir) {
  auto train = test::run_command(test::binary() + " train -c " + cfg, dir);
  ASSERT_EQ(train.exit_code, 0) << train.err;
  auto exp = test::run_command(test::binary() + " export -c " + cfg + " -o Global.pretrained_model=" + save_dir +
                                   "/latest Global.save_inference_dir=" + dir + "/inference",
                               dir);
  ASSERT_EQ(exp.exit_code, 0) << exp.out << exp.err;
}

// Sets the CTC head of the checkpoint at `prefix` (a model of config `cfg`,
// 10 digits + blank) so that every time step of every image is class
// `cls`: weight 0, bias +10 for `cls` and -10 for the others. The checkpoint
// then reads any crop as one known character, whatever the CPU.
void force_ctc_class(const std::string& prefix, const std::string& cfg, int cls) {
  const YAML::Node arch = YAML::LoadFile(cfg)["Architecture"];
  RecModel model(rec_arch_from_yaml(arch, 11));
  const CheckpointData data = load_checkpoint(prefix, *model, nullptr);
  int set = 0;
  {
    torch::NoGradGuard no_grad;
    for (auto& item : model->named_parameters()) {
      if (item.key() == "head.fc.weight") {
        item.value().zero_();
        ++set;
      } else if (item.key() == "head.fc.bias") {
        item.value().fill_(-10.f);
        item.value()[cls] = 10.f;
        ++set;
      }
    }
  }
  ASSERT_EQ(set, 2) << "head.fc.weight / head.fc.bias not found";
  save_checkpoint(prefix, *model, nullptr, data);
}

// Seeded random weights of unit gain in every layer (each matrix or kernel
// ~ N(0, 2 / fan_in), biases 0; the network's own initialisation gives
// nearly the same output for any crop): the reads become arbitrary strings
// that change with the pixels and with the number of time steps.
void randomize_network(const std::string& prefix, const std::string& cfg) {
  const YAML::Node arch = YAML::LoadFile(cfg)["Architecture"];
  RecModel model(rec_arch_from_yaml(arch, 11));
  const CheckpointData data = load_checkpoint(prefix, *model, nullptr);
  torch::manual_seed(7);
  {
    torch::NoGradGuard no_grad;
    for (auto& item : model->named_parameters()) {
      torch::Tensor& p = item.value();
      if (p.dim() >= 2) {
        const double fan_in = static_cast<double>(p.numel() / p.size(0));
        p.copy_(torch::randn(p.sizes()) * std::sqrt(2.0 / fan_in));
      } else if (item.key().size() >= 4 && item.key().substr(item.key().size() - 4) == "bias") {
        p.zero_();
      }
    }
  }
  save_checkpoint(prefix, *model, nullptr, data);
}

// The checkpoint and its export map classes to characters alike. Seed-free:
// the network trains one step at a learning rate of 1e-6, then its head is
// set to read one chosen class everywhere (force_ctc_class): the first, a
// middle and the last class in turn, over a dictionary in shuffled order, so
// a shifted, sorted or reversed dictionary fails. A trained model's reads
// would depend on its training trajectory, which differs between CPUs.
TEST(ExportCli, NativeRecognizerReadsInOrtWhatItsCheckpointReads) {
  auto t = test::make_tiny_task("export_cli_native_rec", 16);
  const std::vector<std::string> dict = {"7", "3", "9", "0", "5", "1", "8", "2", "6", "4"};
  std::string dict_text;
  for (const auto& c : dict) dict_text += c + "\n";
  test::write_text(t.dict, dict_text);
  const std::string cfg = t.dir + "/cfg.yml";
  test::write_text(cfg, test::tiny_config(t, 1, 16, 1e-6));
  auto train = test::run_command(test::binary() + " train -c " + cfg, t.dir);
  ASSERT_EQ(train.exit_code, 0) << train.err;
  for (int cls : {1, 6, 10}) {
    SCOPED_TRACE("class " + std::to_string(cls));
    ASSERT_NO_FATAL_FAILURE(force_ctc_class(t.save_dir + "/latest", cfg, cls));
    const std::string out = t.dir + "/inference" + std::to_string(cls);
    auto exp = test::run_command(test::binary() + " export -c " + cfg + " -o Global.pretrained_model=" + t.save_dir +
                                     "/latest Global.save_inference_dir=" + out,
                                 t.dir);
    ASSERT_EQ(exp.exit_code, 0) << exp.out << exp.err;
    // The dictionary travels in inference.yml, in class order (blank and space not listed).
    const YAML::Node yml = YAML::LoadFile(out + "/inference.yml");
    EXPECT_EQ(yml["Global"]["algorithm"].as<std::string>(), "CRNN");
    EXPECT_EQ(yml["Input"]["shape"].as<std::vector<int64_t>>(), (std::vector<int64_t>{-1, 3, 32, -1}));
    EXPECT_EQ(yml["PostProcess"]["character_dict"].as<std::vector<std::string>>(), dict);
    EXPECT_FALSE(yml["PostProcess"]["use_space_char"].as<bool>());
    // The export folder brings its own dictionary and input shape (3, 32, 100): no flags needed.
    const std::string images = " --image_dir " + t.dir + "/imgs --cpu_threads 1";
    auto torch_run = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.save_dir + "/latest.ckpt" +
                                           images + " --rec_image_shape 3,32,100",
                                       t.dir);
    auto ort_run = test::run_command(test::binary() + " infer rec --rec_model_dir " + out + images, t.dir);
    ASSERT_EQ(torch_run.exit_code, 0) << torch_run.err;
    ASSERT_EQ(ort_run.exit_code, 0) << ort_run.err;
    const auto a = predictions(torch_run.out), b = predictions(ort_run.out);
    ASSERT_EQ(a.size(), 16u) << torch_run.out;
    ASSERT_EQ(b.size(), a.size()) << ort_run.out;
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].first, dict[static_cast<size_t>(cls - 1)]) << i << ": the checkpoint's own mapping";
      EXPECT_EQ(b[i].first, a[i].first) << i;
      EXPECT_NEAR(b[i].second, a[i].second, 1e-4) << i;
    }
  }
}

// A checkpoint and its export read every crop alike: one batching and
// resize rule (TextRecognizer's) for both, so widths, padding and batch
// composition cannot differ. Seed-free: the network is as initialised (one
// step at a learning rate of 1e-6) given seeded random weights
// (randomize_network), whose reads are arbitrary but depend on every pixel
// and on the number of time steps, so a crop resized or padded differently
// on one side reads differently. Over the 16 tiny crops, and
// the first 300 ICDAR2015 word crops of the shared data when present (real
// widths from 1:8 to 12:1).
TEST(ExportCli, CheckpointAndItsExportReadEveryCropAlike) {
  auto t = test::make_tiny_task("export_cli_same_reads", 16);
  const std::string cfg = t.dir + "/cfg.yml";
  test::write_text(cfg, test::tiny_config(t, 1, 16, 1e-6));
  auto train = test::run_command(test::binary() + " train -c " + cfg, t.dir);
  ASSERT_EQ(train.exit_code, 0) << train.err;
  randomize_network(t.save_dir + "/latest", cfg);
  auto exp = test::run_command(test::binary() + " export -c " + cfg + " -o Global.pretrained_model=" + t.save_dir +
                                   "/latest Global.save_inference_dir=" + t.dir + "/inference",
                               t.dir);
  ASSERT_EQ(exp.exit_code, 0) << exp.out << exp.err;
  std::vector<std::string> folders{t.dir + "/imgs"};
  const std::string shared = test::shared_data_dir();
  if (!shared.empty() && std::filesystem::is_directory(shared + "/ic15_rec_train/imgs")) {
    std::vector<std::filesystem::path> crops;
    for (const auto& e : std::filesystem::directory_iterator(shared + "/ic15_rec_train/imgs")) crops.push_back(e.path());
    std::sort(crops.begin(), crops.end());
    crops.resize(std::min<size_t>(crops.size(), 300));
    const std::string ic15 = t.dir + "/ic15";
    std::filesystem::create_directories(ic15);
    for (const auto& c : crops) std::filesystem::copy_file(c, ic15 + "/" + c.filename().string());
    folders.push_back(ic15);
  } else {
    std::cout << "shared ICDAR2015 crops absent: checking the 16 tiny crops only\n";
  }
  for (const std::string& images : folders) {
    SCOPED_TRACE(images);
    const std::string common = " --cpu_threads 1 --rec_batch_num 6 --image_dir " + images;
    auto torch_run = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.save_dir + "/latest.ckpt" +
                                           common + " --rec_image_shape 3,32,100",
                                       t.dir);
    auto ort_run = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.dir + "/inference" + common, t.dir);
    ASSERT_EQ(torch_run.exit_code, 0) << torch_run.err;
    ASSERT_EQ(ort_run.exit_code, 0) << ort_run.err;
    const auto a = predictions(torch_run.out), b = predictions(ort_run.out);
    ASSERT_GE(a.size(), 16u) << torch_run.out;
    ASSERT_EQ(b.size(), a.size()) << ort_run.out;
    std::set<std::string> distinct;
    int differ = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      distinct.insert(a[i].first);
      if (b[i].first != a[i].first) ++differ;
      EXPECT_EQ(b[i].first, a[i].first) << "crop " << i;
      EXPECT_NEAR(b[i].second, a[i].second, 1e-4) << "crop " << i;
    }
    // Arbitrary but not constant reads: otherwise equality would prove nothing.
    EXPECT_GT(distinct.size(), a.size() / 10) << torch_run.out;
    std::cout << images << ": " << a.size() << " crops, " << distinct.size() << " distinct texts, " << differ
              << " differ\n";
  }
}

// A distillation exports OUT/Student and OUT/Teacher, and `infer rec`
// reads each folder on its own (dictionary and input shape from its
// inference.yml). Both members start from one model: exported from their
// own `pretrained` weights, each folder reads exactly what that model's
// plain export reads. The model is one step at a learning rate of 1e-6
// with seeded random weights (randomize_network): its reads are arbitrary
// but differ from crop to crop and depend on every weight, so a member
// that loaded other weights, or none, reads differently (no training to
// convergence needed). Then the distillation trains a few steps and its
// checkpoint exports as well.
TEST(ExportCli, DistillationFoldersAreReadByInferRec) {
  auto t = test::make_tiny_task("export_cli_distill", 16);
  const std::string plain = t.dir + "/plain.yml";
  test::write_text(plain, test::tiny_config(t, 1, 16, 1e-6));
  auto plain_train = test::run_command(test::binary() + " train -c " + plain, t.dir);
  ASSERT_EQ(plain_train.exit_code, 0) << plain_train.err;
  randomize_network(t.save_dir + "/latest", plain);
  auto plain_export = test::run_command(test::binary() + " export -c " + plain + " -o Global.pretrained_model=" +
                                            t.save_dir + "/latest Global.save_inference_dir=" + t.dir + "/inference",
                                        t.dir);
  ASSERT_EQ(plain_export.exit_code, 0) << plain_export.out << plain_export.err;
  const std::string images = " --cpu_threads 1 --image_dir " + t.dir + "/imgs";
  auto reference = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.dir + "/inference" + images, t.dir);
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  const auto expected = predictions(reference.out);
  ASSERT_EQ(expected.size(), 16u) << reference.out;
  int nonempty = 0;
  std::set<std::string> distinct;
  for (const auto& [text, score] : expected) {
    nonempty += !text.empty();
    distinct.insert(text);
  }
  ASSERT_GT(nonempty, 0) << "the plain model reads nothing; the comparison would be empty";
  ASSERT_GT(distinct.size(), 1u) << "the plain model reads every crop alike; the comparison would prove little\n"
                                 << reference.out;

  test::DistillOptions o;
  o.freeze_teacher = false;  // mutual learning: both models train
  o.teacher_ctc = true;
  o.teacher_pretrained = t.save_dir + "/latest";
  YAML::Node distill = YAML::Load(test::tiny_distill_config(t, 2, 8, o));  // 4 steps
  distill["Architecture"]["Models"]["Student"]["pretrained"] = t.save_dir + "/latest";
  distill["Global"]["save_model_dir"] = t.dir + "/distill";
  const std::string cfg = t.dir + "/distill.yml";
  test::write_text(cfg, YAML::Dump(distill));
  auto own = test::run_command(test::binary() + " export -c " + cfg + " -o Global.save_inference_dir=" + t.dir + "/own",
                               t.dir);
  ASSERT_EQ(own.exit_code, 0) << own.out << own.err;
  for (const std::string model : {"Student", "Teacher"}) {
    auto r = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.dir + "/own/" + model + images, t.dir);
    ASSERT_EQ(r.exit_code, 0) << model << ": " << r.err;
    const auto p = predictions(r.out);
    ASSERT_EQ(p.size(), expected.size()) << r.out;
    for (size_t i = 0; i < p.size(); ++i) {
      EXPECT_EQ(p[i].first, expected[i].first) << model << " " << i;
      EXPECT_NEAR(p[i].second, expected[i].second, 1e-5) << model << " " << i;
    }
  }
  // Trained as a distillation, exported from its checkpoint.
  auto train = test::run_command(test::binary() + " train -c " + cfg, t.dir);
  ASSERT_EQ(train.exit_code, 0) << train.err;
  auto exp = test::run_command(test::binary() + " export -c " + cfg + " -o Global.pretrained_model=" + t.dir +
                                   "/distill/latest Global.save_inference_dir=" + t.dir + "/trained",
                               t.dir);
  ASSERT_EQ(exp.exit_code, 0) << exp.out << exp.err;
  EXPECT_NE(exp.out.find("Student -> " + t.dir + "/trained/Student/inference.onnx"), std::string::npos) << exp.out;
  auto r = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.dir + "/trained/Student" + images, t.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(predictions(r.out).size(), 16u) << r.out;
  // The checkpoint itself holds several models: infer says to export it.
  auto ckpt = test::run_command(test::binary() + " infer rec --rec_model_dir " + t.dir + "/distill/latest.ckpt" + images,
                                t.dir);
  EXPECT_EQ(ckpt.exit_code, 2);
  EXPECT_NE(ckpt.err.find("is a distillation checkpoint (several models); export it first"), std::string::npos)
      << ckpt.err;
}

// The "hmean: X" value in `out`, or -1.
double hmean_in(const std::string& out) {
  const size_t p = out.find("hmean: ");
  return p == std::string::npos ? -1 : std::stod(out.substr(p + 7));
}

TEST(ExportCli, NativeDetectorFindsInOrtWhatItsCheckpointFinds) {
  auto t = test::make_tiny_det_task("export_cli_native_det", 4);
  const std::string cfg = t.dir + "/cfg.yml";
  // 300 steps of batch 4: boxes on most words. Post-processing other than
  // the flag defaults, so the test sees whether inference.yml is applied.
  std::string text = test::tiny_det_config(t, 300, 4);
  const std::string post = "box_thresh: 0.6, max_candidates: 1000, unclip_ratio: 1.5";
  ASSERT_NE(text.find(post), std::string::npos);
  text.replace(text.find(post), post.size(), "box_thresh: 0.5, max_candidates: 1000, unclip_ratio: 2.0");
  test::write_text(cfg, text);
  ASSERT_NO_FATAL_FAILURE(train_and_export(cfg, t.dir, t.save_dir));
  const YAML::Node yml = YAML::LoadFile(t.dir + "/inference/inference.yml");
  EXPECT_EQ(yml["Global"]["model_type"].as<std::string>(), "det");
  EXPECT_EQ(yml["Input"]["shape"].as<std::vector<int64_t>>(), (std::vector<int64_t>{-1, 3, -1, -1}));
  EXPECT_EQ(yml["Output"]["name"].as<std::string>(), "sigmoid_0.tmp_0");
  EXPECT_DOUBLE_EQ(yml["PostProcess"]["unclip_ratio"].as<double>(), 2.0);

  const auto infer = [&](const std::string& model, const std::string& flags, const std::string& out) {
    auto r = test::run_command(test::binary() + " infer det --cpu_threads 1 --det_model_dir " + model +
                                   " --image_dir " + t.dir + "/imgs --draw_img_save_dir " + t.dir + "/" + out + flags,
                               t.dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return test::read_text(t.dir + "/" + out + "/det_results.txt");
  };
  // The checkpoint is told the config's post-processing; the export folder brings its own.
  const std::string torch_boxes =
      infer(t.save_dir + "/latest.ckpt", " --det_db_box_thresh 0.5 --det_db_unclip_ratio 2.0", "torch");
  const std::string ort_boxes = infer(t.dir + "/inference", "", "ort");
  const std::string default_post = infer(t.dir + "/inference", " --det_db_unclip_ratio 1.5", "ort_flag");
  ASSERT_NE(torch_boxes.find("0.png\t[[["), std::string::npos) << torch_boxes;  // boxes found, so compared
  EXPECT_EQ(ort_boxes, torch_boxes);
  EXPECT_NE(default_post, ort_boxes);  // an explicit flag wins over inference.yml

  // `ocrforge eval` scores the checkpoint as eval-det scores the exported model's boxes.
  auto eval = test::run_command(test::binary() + " eval -c " + cfg + " -o Global.checkpoints=" + t.save_dir + "/latest",
                                t.dir);
  auto score = test::run_command(
      test::binary() + " eval-det --gt " + t.dir + "/det_gt.txt --pred " + t.dir + "/ort/det_results.txt", t.dir);
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  ASSERT_EQ(score.exit_code, 0) << score.err;
  EXPECT_GT(hmean_in(eval.out), 0.3) << eval.out;
  EXPECT_NEAR(hmean_in(score.out), hmean_in(eval.out), 1e-6) << score.out << eval.out;
}

// PaddleOCR's PP-OCRv5 server detector config as written (PPHGNetV2_B4 det,
// LKPAN 256 with IntraCL, PFHeadLocal): a checkpoint of it exports, and
// `infer det` finds in ONNX Runtime what it finds on the checkpoint in
// LibTorch. Seeded weights, BN statistics from a real page (no training:
// the agreement is the point, not accuracy); 128-pixel images keep it quick.
TEST(ExportCli, PaddleOcrsServerDetectorExportsAndInfers) {
  auto t = test::make_tiny_det_task("export_cli_server_det", 2, 128);
  const std::string cfg = test::source_dir() + "/configs/det/PP-OCRv5/PP-OCRv5_server_det.yml";
  Config config = Config::load_file(cfg);
  config.set("Global.use_gpu", false);
  torch::manual_seed(9);
  DetModel model(det_arch_from_yaml(config.root()["Architecture"]));
  {
    torch::NoGradGuard no_grad;
    for (auto& mod : model->modules(/*include_self=*/false))
      if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) bn->options.momentum(1.0);
    model->train();
    model->forward(test::sample_picture("imgs_11.jpg", 320, 256, true));
  }
  CheckpointData data;
  data.config_yaml = config.to_yaml();
  save_checkpoint(t.dir + "/server", *model, nullptr, data);

  auto exp = test::run_command(test::binary() + " export -c " + cfg + " -o Global.use_gpu=false " +
                                   "Global.pretrained_model=" + t.dir + "/server Global.save_inference_dir=" + t.dir +
                                   "/inference",
                               t.dir);
  ASSERT_EQ(exp.exit_code, 0) << exp.out << exp.err;
  const YAML::Node yml = YAML::LoadFile(t.dir + "/inference/inference.yml");
  EXPECT_EQ(yml["Global"]["model_type"].as<std::string>(), "det");
  // The exported file, run by ONNX Runtime, gives the checkpoint's map (eval: 0.5 * (P + cbn)).
  const torch::Tensor page = test::sample_picture("imgs_11.jpg", 128, 96, true);
  model->eval();
  torch::Tensor ours;
  {
    torch::NoGradGuard no_grad;
    ours = model->forward(page);
  }
  const torch::Tensor theirs = test::ort_output(t.dir + "/inference/inference.onnx", "det", page);
  ASSERT_EQ(ours.sizes(), theirs.sizes());
  const double diff = (ours - theirs).abs().max().item<double>();
  std::printf("PP-OCRv5_server_det export: max |LibTorch - ORT| = %.3g, map in [%.3f, %.3f]\n", diff,
              ours.min().item<double>(), ours.max().item<double>());
  EXPECT_LE(diff, 1e-4);
  // `infer det` runs both; with the thresholds low enough for this untrained map to give boxes, the same ones.
  const auto infer = [&](const std::string& model_dir, const std::string& out) {
    auto r = test::run_command(test::binary() + " infer det --cpu_threads 1 --det_limit_side_len 128 "
                                   "--det_limit_type max --det_db_thresh 0.3 --det_db_box_thresh 0.3 "
                                   "--det_db_unclip_ratio 1.5 --det_model_dir " + model_dir + " --image_dir " +
                                   t.dir + "/imgs --draw_img_save_dir " + t.dir + "/" + out,
                               t.dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return test::read_text(t.dir + "/" + out + "/det_results.txt");
  };
  const std::string torch_boxes = infer(t.dir + "/server.ckpt", "torch");
  const std::string ort_boxes = infer(t.dir + "/inference", "ort");
  EXPECT_NE(torch_boxes.find("0.png\t"), std::string::npos) << torch_boxes;
  size_t boxes = 0;
  for (size_t at = torch_boxes.find("[["); at != std::string::npos; at = torch_boxes.find("[[", at + 3)) ++boxes;
  std::printf("infer det: %zu boxes on the checkpoint\n", boxes);
  EXPECT_GT(boxes, 0u);  // compared, not two empty lists
  EXPECT_EQ(ort_boxes, torch_boxes);
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(t.dir);  // ~0.2 GB: the checkpoint and its export
}

TEST(ExportCli, ANativeModelWithoutWeightsIsRefused) {
  const std::string dir = test::fresh_dir("export_cli_native");
  // A native det model without weights: nothing trained to export.
  auto r = test::run_command(export_cmd("configs/det/det_mv3_db.yml", "Global.save_inference_dir=" + dir + "/out"), dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("needs its weights"), std::string::npos) << r.err;
}
