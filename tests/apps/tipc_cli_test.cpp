// `ocrforge tipc plan` on PaddleOCR's own TIPC file, and `tipc run` on a
// tiny config in PaddleOCR's layout, as a user runs them.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "ocrforge/core/tcp_port.h"
#include "test_support.h"
#include "train/tasks/rec/trainer_fixture.h"

using namespace ocrforge;
namespace fs = std::filesystem;

namespace {

const std::string kFleet = "/test_tipc/configs/PP-OCRv3_mobile_rec/train_linux_gpu_fleet_normal_infer_python_linux_gpu_cpu.txt";
const std::string kCpuFleet = "test_tipc/configs/PP-OCRv3_mobile_rec/train_linux_cpu_fleet_normal_infer_python_linux_cpu.txt";

}  // namespace

TEST(TipcCli, PlanPrintsEveryStageWithItsLog) {
  const std::string dir = test::fresh_dir("tipc_plan");
  auto r = test::run_command(test::binary() + " tipc plan " + test::source_dir() + kFleet + " lite_train_lite_infer", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("train\tocrforge launch --ips=192.168.0.1,192.168.0.2 --gpus=0,1 train -c "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("export\tocrforge export -c "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("_export.log 2>&1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("python_infer_cpu_usemkldnn_False_threads_6_precision_fp32_batchsize_6.log"), std::string::npos)
      << r.out;
}

TEST(TipcCli, ASecondNodeSkipsExportAndInference) {
  const std::string dir = test::fresh_dir("tipc_plan_node2");
  auto r = test::run_command(
      test::binary() + " tipc plan " + test::source_dir() + kFleet + " lite_train_lite_infer --node_ip=192.168.0.2", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(not trainer 0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--node_ip=192.168.0.2 train"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("export\tskipped: the model is saved on trainer 0 only"), std::string::npos) << r.out;
}

TEST(TipcCli, BadModeMissingFileAndUsage) {
  const std::string dir = test::fresh_dir("tipc_plan_bad");
  auto mode = test::run_command(test::binary() + " tipc plan " + test::source_dir() + kFleet + " lite", dir);
  EXPECT_EQ(mode.exit_code, 2);
  EXPECT_NE(mode.err.find("TIPC mode 'lite' is not one of"), std::string::npos) << mode.err;
  auto missing = test::run_command(test::binary() + " tipc plan /nonexistent.txt whole_infer", dir);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("'/nonexistent.txt' cannot be read"), std::string::npos) << missing.err;
  auto usage = test::run_command(test::binary() + " tipc plan", dir);
  EXPECT_EQ(usage.exit_code, 2);
}

namespace {

// A TIPC config in PaddleOCR's layout around a tiny CRNN on digits:
// train 2 epochs on one CPU process, eval, export, infer at batch 1.
std::string tiny_tipc(const test::TinyTask& t, const std::string& cfg, const std::string& inference_dir,
                      const std::string& gpu_list = "-1") {
  return "===========================train_params===========================\n"
         "model_name:tiny_rec\npython:python3.7\ngpu_list:" + gpu_list + "\nGlobal.use_gpu:False\nGlobal.auto_cast:null\n"
         "Global.epoch_num:lite_train_lite_infer=2|whole_train_whole_infer=4\nGlobal.save_model_dir:./output/\n"
         "Train.loader.batch_size_per_card:lite_train_lite_infer=8|whole_train_whole_infer=8\n"
         "Global.pretrained_model:null\ntrain_model_name:latest\ntrain_infer_img_dir:" + t.dir + "/imgs\nnull:null\n##\n"
         "trainer:norm_train\nnorm_train:tools/train.py -c " + cfg + " -o \npact_train:null\nfpgm_train:null\n"
         "distill_train:null\nnull:null\nnull:null\n##\n"
         "===========================eval_params===========================\n"
         "eval:tools/eval.py -c " + cfg + " -o\nnull:null\n##\n"
         "===========================infer_params===========================\n"
         "Global.save_inference_dir:./output/\nGlobal.checkpoints:\nnorm_export:tools/export_model.py -c " + cfg +
         " -o \nquant_export:\nfpgm_export:\ndistill_export:null\nexport1:null\nexport2:null\n"
         "inference_dir:" + inference_dir + "\ninfer_model:null\ninfer_export:null\ninfer_quant:False\n"
         "inference:tools/infer/predict_rec.py\n--use_gpu:False\n--enable_mkldnn:False\n--cpu_threads:1\n"
         "--rec_batch_num:1\n--use_tensorrt:False\n--precision:fp32\n--rec_model_dir:\n--image_dir:" + t.dir +
         "/imgs\nnull:null\n--benchmark:False\nnull:null\n";
}

std::vector<std::string> status_lines(const std::string& text) {
  std::vector<std::string> v;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);)
    if (l.rfind("Run ", 0) == 0 || l.rfind("Skipped", 0) == 0) v.push_back(l);
  return v;
}

struct TinyRun {
  std::string cfg, out;  // the training config; the run's log folder
  test::CommandResult result;
};

// `tipc run` on one node over a fresh tiny task, in the task's folder.
TinyRun run_tiny(const std::string& name, const std::string& inference_dir) {
  auto t = test::make_tiny_task(name, 16);
  TinyRun r;
  r.cfg = t.dir + "/tiny.yml";
  test::write_text(r.cfg, test::tiny_config(t, 2, 8));
  test::write_text(t.dir + "/tipc.txt", tiny_tipc(t, r.cfg, inference_dir));
  r.result = test::run_command("cd " + t.dir + " && " + test::binary() + " tipc run tipc.txt lite_train_lite_infer", t.dir);
  r.out = t.dir + "/test_tipc/output/tiny_rec/lite_train_lite_infer";
  return r;
}

}  // namespace

TEST(TipcCli, RunTrainsEvaluatesExportsAndInfersWithStatusLines) {
  const TinyRun run = run_tiny("tipc_run_ok", "null");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.out << run.result.err;
  const std::string& out = run.out;
  const std::string& cfg = run.cfg;
  const auto lines = status_lines(test::read_text(out + "/results_python.log"));
  ASSERT_EQ(lines.size(), 4u) << test::read_text(out + "/results_python.log");  // train, eval, export, infer
  for (const auto& l : lines) EXPECT_EQ(l.rfind("Run successfully with command - tiny_rec - ", 0), 0u) << l;
  EXPECT_NE(lines[0].find(" train -c " + cfg + " -o Global.use_gpu=False Global.save_model_dir="), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[3].find(" infer rec --use_gpu=False --cpu_threads=1 --rec_model_dir=./test_tipc/output/tiny_rec/"
                          "lite_train_lite_infer/norm_train_gpus_-1_autocast_null "),
            std::string::npos)
      << lines[3];
  // The inference log is the real output of the exported model.
  EXPECT_NE(test::read_text(out + "/python_infer_cpu_usemkldnn_False_threads_1_precision_fp32_batchsize_1.log")
                .find("Predicts of "),
            std::string::npos);
  const std::string summary = test::read_text(out + "/summary.md");
  EXPECT_NE(summary.find("| export | ok |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("4 stages, 0 failed"), std::string::npos) << summary;
}

TEST(TipcCli, ABrokenStageIsTheOnlyRunFailedLineAndTheExitCodeSaysSo) {
  // inference_dir names a sub-model that export never writes: inference cannot find its model.
  const TinyRun run = run_tiny("tipc_run_broken", "Student");
  EXPECT_EQ(run.result.exit_code, 1) << run.result.out << run.result.err;
  const std::string& out = run.out;
  const auto lines = status_lines(test::read_text(out + "/results_python.log"));
  ASSERT_EQ(lines.size(), 4u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(lines[i].rfind("Run successfully with command - ", 0), 0u) << lines[i];
  EXPECT_EQ(lines[3].rfind("Run failed with command - tiny_rec - ", 0), 0u) << lines[3];
  EXPECT_NE(lines[3].find("/Student "), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find(" - exit code 1"), std::string::npos) << lines[3];
  EXPECT_NE(test::read_text(out + "/summary.md").find("| infer | failed (exit code 1) |"), std::string::npos);
}

TEST(TipcCli, TwoNodesOnLoopbackTrainTogetherAndOnlyTrainer0ExportsAndInfers) {
  // The CPU fleet form of the seed's config: gpu_list IP1,IP2;-1, the same
  // `tipc run` on both "nodes" (127.0.0.1 and 127.0.0.2, each in its own
  // working directory), as the seed's step 4 runs it on every machine.
  auto t = test::make_tiny_task("tipc_fleet", 16);
  const std::string cfg = t.dir + "/tiny.yml";
  test::write_text(cfg, test::tiny_config(t, 2, 4));
  test::write_text(t.dir + "/tipc.txt", tiny_tipc(t, cfg, "null", "127.0.0.1,127.0.0.2;-1"));
  const std::string port = std::to_string(free_loopback_port());
  const auto node = [&](const std::string& name, const std::string& ip) {
    return "(mkdir -p " + t.dir + "/" + name + " && cd " + t.dir + "/" + name + " && FLAGS_START_PORT=" + port + " " +
           test::binary() + " tipc run " + t.dir + "/tipc.txt lite_train_lite_infer --node_ip=" + ip +
           " > out.txt 2> err.txt; echo $? > rc.txt)";
  };
  test::run_command(node("a", "127.0.0.1") + " & " + node("b", "127.0.0.2") + " & wait", t.dir);
  const std::string out = "/test_tipc/output/tiny_rec/lite_train_lite_infer";
  const std::string a = t.dir + "/a", b = t.dir + "/b";
  EXPECT_EQ(test::read_text(a + "/rc.txt"), "0\n") << test::read_text(a + "/out.txt") << test::read_text(a + "/err.txt");
  EXPECT_EQ(test::read_text(b + "/rc.txt"), "0\n") << test::read_text(b + "/out.txt") << test::read_text(b + "/err.txt");
  const auto first = status_lines(test::read_text(a + out + "/results_python.log"));
  ASSERT_EQ(first.size(), 4u) << test::read_text(a + out + "/results_python.log");
  for (const auto& l : first) EXPECT_EQ(l.rfind("Run successfully with command - tiny_rec - ", 0), 0u) << l;
  EXPECT_NE(first[0].find(" launch --ips=127.0.0.1,127.0.0.2 --nproc_per_node=1 --node_ip=127.0.0.1 train -c "),
            std::string::npos)
      << first[0];
  EXPECT_NE(first[0].find("norm_train_gpus_-1_autocast_null_nodes_2"), std::string::npos) << first[0];
  const auto second = status_lines(test::read_text(b + out + "/results_python.log"));
  ASSERT_EQ(second.size(), 4u) << test::read_text(b + out + "/results_python.log");
  EXPECT_EQ(second[0].rfind("Run successfully with command - tiny_rec - ", 0), 0u) << second[0];
  for (size_t i = 1; i < 4; ++i)
    EXPECT_NE(second[i].find("Skipped - tiny_rec - "), std::string::npos) << second[i];
  EXPECT_NE(second[2].find("export - the model is saved on trainer 0 only"), std::string::npos) << second[2];
}

TEST(TipcCli, PpOcrV4FineTuneConfigRunsTheWholeChainOnTheShippedModel) {
  // test_tipc/configs/ch_PP-OCRv4_rec_finetune: one epoch of fine-tuning the
  // shipped PP-OCRv4 recognizer on tests/data/rec_toy, eval, export, and
  // inference of the export at batch 1 and 6; then whole_infer on the
  // shipped model itself. Paths in the config are relative to the
  // repository root, so the run's folder links configs/, models/, tests/data.
  const std::string dir = test::fresh_dir("tipc_ppocrv4");
  fs::create_directories(dir + "/tests");
  fs::create_directory_symlink(test::source_dir() + "/configs", dir + "/configs");
  fs::create_directory_symlink(test::model_root() + "/..", dir + "/models");
  fs::create_directory_symlink(test::data_dir(), dir + "/tests/data");
  const std::string cfg = test::source_dir() + "/test_tipc/configs/ch_PP-OCRv4_rec_finetune/train_infer_python.txt";
  for (const char* mode : {"lite_train_lite_infer", "whole_infer"}) {
    auto r = test::run_command("cd " + dir + " && " + test::binary() + " tipc run " + cfg + " " + mode, dir);
    const std::string out = dir + "/test_tipc/output/ch_PP-OCRv4_rec_finetune/" + mode;
    ASSERT_EQ(r.exit_code, 0) << mode << "\n" << r.out << r.err;
    const auto lines = status_lines(test::read_text(out + "/results_python.log"));
    ASSERT_EQ(lines.size(), std::string(mode) == "whole_infer" ? 2u : 5u) << mode;
    for (const auto& l : lines) EXPECT_EQ(l.rfind("Run successfully with command - ch_PP-OCRv4_rec_finetune - ", 0), 0u) << l;
    // The inference logs hold real readings of the 10 toy crops.
    const std::string infer_log =
        test::read_text(out + "/python_infer_cpu_usemkldnn_False_threads_2_precision_fp32_batchsize_6.log");
    EXPECT_NE(infer_log.find("Predicts of ./tests/data/rec_toy/imgs/"), std::string::npos) << infer_log;
  }
}

// Issue 13's main case: PaddleOCR's PP-OCRv3_mobile_rec fleet test in its
// CPU form (train_linux_cpu_fleet_..., gpu_list 127.0.0.1,127.0.0.2;-1) as
// shipped, on two "nodes" on loopback. Its training config is PaddleOCR's
// PP-OCRv3 distillation recipe, so this trains a Teacher and a Student
// across two processes, exports Student/ and Teacher/, and infers with
// Student/. Every node holds the data (the seed's step 2): 32 synthetic
// crops in PaddleOCR's TIPC layout, ./train_data/ic15_data/.
TEST(TipcCli, ShippedPpOcrV3CpuFleetConfigTrainsTheDistillationOnTwoNodes) {
  const std::string dir = test::fresh_dir("tipc_v3_fleet");
  const auto prepare_node = [&](const std::string& node) {
    const std::string d = dir + "/" + node;
    fs::create_directories(d + "/test_tipc");
    fs::create_directory_symlink(test::source_dir() + "/test_tipc/configs", d + "/test_tipc/configs");
    fs::create_directory_symlink(test::model_root() + "/..", d + "/models");
    // The seed's step 2 by `tipc prepare`: synthetic crops into ./train_data/ic15_data
    // (--real_data names no folder, so the test never depends on the team's data).
    auto prepare = test::run_command("cd " + d + " && " + test::binary() + " tipc prepare " + kCpuFleet +
                                         " lite_train_lite_infer --num_train 32 --num_test 8 --real_data=",
                                     d);
    ASSERT_EQ(prepare.exit_code, 0) << prepare.out << prepare.err;
    EXPECT_NE(prepare.out.find("made\t./train_data/ic15_data/rec_gt_train.txt\t32 synthetic samples"), std::string::npos)
        << prepare.out;
    EXPECT_NE(prepare.out.find("made\t./inference/rec_inference\t4 images"), std::string::npos) << prepare.out;
  };
  ASSERT_NO_FATAL_FAILURE(prepare_node("a"));
  ASSERT_NO_FATAL_FAILURE(prepare_node("b"));
  const std::string cfg = kCpuFleet;
  const std::string port = std::to_string(free_loopback_port());
  const auto node = [&](const std::string& name, const std::string& ip) {
    return "(cd " + dir + "/" + name + " && FLAGS_START_PORT=" + port + " " + test::binary() + " tipc run " + cfg +
           " lite_train_lite_infer --node_ip=" + ip + " > out.txt 2> err.txt; echo $? > rc.txt)";
  };
  test::run_command(node("a", "127.0.0.1") + " & " + node("b", "127.0.0.2") + " & wait", dir);
  const std::string out = "/test_tipc/output/PP-OCRv3_mobile_rec/lite_train_lite_infer";
  const std::string a = dir + "/a", b = dir + "/b";
  EXPECT_EQ(test::read_text(a + "/rc.txt"), "0\n") << test::read_text(a + "/out.txt") << test::read_text(a + "/err.txt");
  EXPECT_EQ(test::read_text(b + "/rc.txt"), "0\n") << test::read_text(b + "/out.txt") << test::read_text(b + "/err.txt");
  const auto first = status_lines(test::read_text(a + out + "/results_python.log"));
  ASSERT_EQ(first.size(), 4u) << test::read_text(a + out + "/results_python.log");
  for (const auto& l : first) EXPECT_EQ(l.rfind("Run successfully with command - PP-OCRv3_mobile_rec - ", 0), 0u) << l;
  EXPECT_NE(first[0].find(" launch --ips=127.0.0.1,127.0.0.2 --nproc_per_node=1 --node_ip=127.0.0.1 train -c "
                          "test_tipc/configs/PP-OCRv3_mobile_rec/PP-OCRv3_mobile_rec_distillation.yml"),
            std::string::npos)
      << first[0];
  const std::string model = a + out + "/norm_train_gpus_-1_autocast_fp32_nodes_2";
  EXPECT_TRUE(fs::exists(model + "/Student/inference.onnx"));
  EXPECT_TRUE(fs::exists(model + "/Teacher/inference.onnx"));
  EXPECT_NE(first[2].find("--rec_model_dir=" + std::string(".") + out + "/norm_train_gpus_-1_autocast_fp32_nodes_2/Student"),
            std::string::npos)
      << first[2];
  const std::string train_log = test::read_text(model + "_train.log");
  EXPECT_NE(train_log.find("dml_ctc_0"), std::string::npos);
  const auto second = status_lines(test::read_text(b + out + "/results_python.log"));
  ASSERT_EQ(second.size(), 4u) << test::read_text(b + out + "/results_python.log");
  EXPECT_EQ(second[0].rfind("Run successfully with command - PP-OCRv3_mobile_rec - ", 0), 0u) << second[0];
  for (size_t i = 1; i < 4; ++i) EXPECT_NE(second[i].find("the model is saved on trainer 0 only"), std::string::npos) << second[i];
}

// Issue 13's detector case: PaddleOCR's ch_ppocr_mobile_v2_0_det TIPC config
// in its Linux CPU form (PaddleOCR's mac CPU file: gpu_list -1, 5 lite
// epochs; no ImageNet backbone) on one node. `tipc prepare` makes the
// ICDAR2015-layout pages and the inference folder, then `tipc run` trains
// PaddleOCR's ch_det_mv3_db_v2.0.yml, exports `latest` (the export's weight
// key is that file's `Global.pretrained_model:`) and runs predict_det on the
// export with 1 and 6 threads.
TEST(TipcCli, ShippedDetectorCpuConfigPreparesThenRunsEveryStageOnOneNode) {
  const std::string dir = test::fresh_dir("tipc_det_cpu");
  fs::create_directories(dir + "/test_tipc");
  fs::create_directory_symlink(test::source_dir() + "/test_tipc/configs", dir + "/test_tipc/configs");
  fs::create_directory_symlink(test::source_dir() + "/configs", dir + "/configs");
  const std::string cfg = "test_tipc/configs/ch_ppocr_mobile_v2_0_det/train_linux_cpu_normal_normal_infer_python_linux_cpu.txt";
  // Two training pages (the lite default is 4): one step of the config's batch 2 per epoch.
  auto prepare = test::run_command(
      "cd " + dir + " && " + test::binary() + " tipc prepare " + cfg + " lite_train_lite_infer --num_train 2 --real_data=",
      dir);
  ASSERT_EQ(prepare.exit_code, 0) << prepare.out << prepare.err;
  EXPECT_NE(prepare.out.find("made\t./train_data/icdar2015/text_localization/train_icdar2015_label.txt\t2 synthetic samples"),
            std::string::npos)
      << prepare.out;
  EXPECT_NE(prepare.out.find("made\t./train_data/icdar2015/text_localization/ch4_test_images/\t2 images"), std::string::npos)
      << prepare.out;
  EXPECT_NE(prepare.out.find("made\t./inference/ch_det_data_50/all-sum-510/\t2 images"), std::string::npos) << prepare.out;
  auto run = test::run_command("cd " + dir + " && " + test::binary() + " tipc run " + cfg + " lite_train_lite_infer", dir);
  const std::string out = dir + "/test_tipc/output/ch_ppocr_mobile_v2_0_det/lite_train_lite_infer";
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err << test::read_text(out + "/norm_train_gpus_-1_autocast_null_nodes_1_train.log");
  const auto lines = status_lines(test::read_text(out + "/results_python.log"));
  ASSERT_EQ(lines.size(), 4u) << test::read_text(out + "/results_python.log");  // train, export, infer x 2 (eval is null)
  for (const auto& l : lines) EXPECT_EQ(l.rfind("Run successfully with command - ch_ppocr_mobile_v2_0_det - ", 0), 0u) << l;
  EXPECT_NE(lines[0].find(" train -c configs/det/ch_ppocr_v2.0/ch_det_mv3_db_v2.0.yml -o Global.pretrained_model= "),
            std::string::npos)
      << lines[0];
  EXPECT_TRUE(fs::exists(out + "/norm_train_gpus_-1_autocast_null/inference.onnx"));
  EXPECT_NE(lines[1].find(" export -c configs/det/ch_ppocr_v2.0/ch_det_mv3_db_v2.0.yml -o Global.pretrained_model=./test_tipc/"),
            std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find(" infer det "), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find(" --cpu_threads=6 "), std::string::npos) << lines[3];
  // The exported detector read both pictures prepare put in train_infer_img_dir
  // (its boxes may be few: 5 epochs from scratch).
  const std::string infer_log = test::read_text(out + "/python_infer_cpu_usemkldnn_False_threads_1_precision_fp32_batchsize_1.log");
  EXPECT_NE(infer_log.find("./train_data/icdar2015/text_localization/ch4_test_images/1_"), std::string::npos) << infer_log;
  EXPECT_NE(infer_log.find("data_num: 2"), std::string::npos) << infer_log;
}

// benchmark_train on the tiny CRNN: one CPU process (N1C1) and, with
// PaddleOCR's PARAMS, two (N1C2), each giving PaddleOCR's JSON line from
// its own training log.
TEST(TipcCli, BenchmarkTrainWritesPaddleOcrsJsonLinePerRun) {
  auto t = test::make_tiny_task("tipc_bench", 16);
  const std::string cfg = t.dir + "/tiny.yml";
  test::write_text(cfg, test::tiny_config(t, 2, 8));
  std::string txt = tiny_tipc(t, cfg, "null");
  const std::string no_extra = " -o \npact_train";
  txt.replace(txt.find(no_extra), no_extra.size(), " -o Global.print_batch_step=1\npact_train");
  txt += "===========================train_benchmark_params==========================\n"
         "batch_size:8\nfp_items:fp32|fp16\nepoch:3\n"
         "--profiler_options:batch_range=[10,20];state=GPU;tracer_option=Default;profile_path=model.profile\n"
         "flags:FLAGS_eager_delete_tensor_gb=0.0\n";
  test::write_text(t.dir + "/tipc.txt", txt);
  const std::string repo = fs::path(t.dir).filename().string();
  auto one = test::run_command("cd " + t.dir + " && " + test::binary() + " tipc run tipc.txt benchmark_train", t.dir);
  ASSERT_EQ(one.exit_code, 0) << one.out << one.err;
  const std::string speed = t.dir + "/index/" + repo + "_tiny_rec_bs8_fp32_DP_N1C1_speed";
  const std::string json = test::read_text(speed);
  EXPECT_NE(json.find("\"model_name\":\"tiny_rec_bs8_fp32_DP\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"device_num\":\"N1C1\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"speed_unit\":\"samples/s\""), std::string::npos) << json;
  EXPECT_EQ(json.find("\"ips\":0,"), std::string::npos) << json;
  EXPECT_NE(one.out.find(json.substr(0, json.size() - 1)), std::string::npos) << one.out;  // printed too
  const std::string results = test::read_text(t.dir + "/test_tipc/output/tiny_rec/benchmark_train/results_python.log");
  EXPECT_NE(results.find("Skipped - tiny_rec - train - not supported: fp16 training"), std::string::npos) << results;
  EXPECT_NE(results.find("Not applied - tiny_rec - train - FLAGS_eager_delete_tensor_gb=0.0 (a Paddle flag)"),
            std::string::npos)
      << results;

  auto two = test::run_command(
      "cd " + t.dir + " && FLAGS_START_PORT=" + std::to_string(free_loopback_port()) + " " + test::binary() +
          " tipc run tipc.txt benchmark_train dynamic_bs8_fp32_DP_N1C2",
      t.dir);
  ASSERT_EQ(two.exit_code, 0) << two.out << two.err;
  const std::string json2 = test::read_text(t.dir + "/index/" + repo + "_tiny_rec_bs8_fp32_DP_N1C2_speed");
  EXPECT_NE(json2.find("\"device_num\":\"N1C2\""), std::string::npos) << json2;
  EXPECT_NE(test::read_text(t.dir + "/train_log/" + repo + "_tiny_rec_bs8_fp32_DP_N1C2_log").find("global_step: 6"),
            std::string::npos);  // epoch 3 x 2 cards, 8 samples a card: 6 steps
}
