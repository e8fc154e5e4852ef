// The commands `ocrforge tipc` composes from PaddleOCR's own TIPC files
// (shipped unchanged in test_tipc/configs): the seed's fleet config, and the
// single-node config with a GPU list, a GPU/CPU inference list and a
// to_static trainer slot.
#include "ocrforge/tipc/tipc_plan.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace ocrforge {
namespace {

TipcConfig shipped(const std::string& name) {
  return TipcConfig::load(test::source_dir() + "/test_tipc/configs/PP-OCRv3_mobile_rec/" + name);
}

const std::string kCfg = "test_tipc/configs/PP-OCRv3_mobile_rec/PP-OCRv3_mobile_rec_distillation.yml";
const std::string kOut = "./test_tipc/output/PP-OCRv3_mobile_rec/lite_train_lite_infer";

TEST(TipcPlan, FleetConfigComposesLaunchExportAndBothBatchSizes) {
  TipcPlanParams o;
  o.mode = "lite_train_lite_infer";
  o.node_ip = "192.168.0.1";
  const TipcPlan p = plan_tipc(shipped("train_linux_gpu_fleet_normal_infer_python_linux_gpu_cpu.txt"), o);
  EXPECT_EQ(p.log_dir, kOut);
  const std::string save = kOut + "/norm_train_gpus_0,1_autocast_fp32_nodes_2";
  ASSERT_EQ(p.stages.size(), 4u);  // train, export, infer batch 1, infer batch 6 (eval is null)
  EXPECT_EQ(p.stages[0].kind, "train");
  EXPECT_EQ(p.stages[0].command(),
            "ocrforge launch --ips=192.168.0.1,192.168.0.2 --gpus=0,1 --node_ip=192.168.0.1 train -c " + kCfg +
                " -o Global.use_gpu=True Global.save_model_dir=" + save +
                " Global.epoch_num=3 Global.auto_cast=fp32 Train.loader.batch_size_per_card=16");
  EXPECT_EQ(p.stages[1].command(), "ocrforge export -c " + kCfg + " -o Global.checkpoints=" + save +
                                       "/latest Global.save_inference_dir=" + save + " --overwrite");
  EXPECT_EQ(p.stages[1].log_path, save + "_export.log");
  for (int b : {1, 6}) {
    const TipcStage& s = p.stages[b == 1 ? 2 : 3];
    EXPECT_EQ(s.command(), "ocrforge infer rec --rec_image_shape=3,48,320 --use_gpu=False --cpu_threads=6 "
                           "--rec_model_dir=" + save + "/Student --rec_batch_num=" + std::to_string(b) +
                               " --image_dir=./inference/rec_inference --benchmark=True --precision=fp32");
    EXPECT_EQ(s.log_path, kOut + "/python_infer_cpu_usemkldnn_False_threads_6_precision_fp32_batchsize_" +
                              std::to_string(b) + ".log");
    EXPECT_TRUE(s.skip_reason.empty());
  }
}

TEST(TipcPlan, CpuFleetVariantLaunchesOneCpuWorkerPerLoopbackNode) {
  TipcPlanParams o;
  o.mode = "lite_train_lite_infer";
  o.node_ip = "127.0.0.2";
  o.is_trainer0 = false;
  const TipcPlan p = plan_tipc(shipped("train_linux_cpu_fleet_normal_infer_python_linux_cpu.txt"), o);
  ASSERT_EQ(p.stages.size(), 4u);
  EXPECT_EQ(p.stages[0].command(),
            "ocrforge launch --ips=127.0.0.1,127.0.0.2 --nproc_per_node=1 --node_ip=127.0.0.2 train -c " + kCfg +
                " -o Global.use_gpu=False Global.save_model_dir=" + kOut +
                "/norm_train_gpus_-1_autocast_fp32_nodes_2 Global.epoch_num=3 Global.auto_cast=fp32 "
                "Train.loader.batch_size_per_card=16");
  EXPECT_EQ(p.stages[0].log_path, kOut + "/norm_train_gpus_-1_autocast_fp32_nodes_2_train.log");
}

TEST(TipcPlan, OtherNodesTrainButSkipExportAndInferenceSayingWhy) {
  TipcPlanParams o;
  o.mode = "lite_train_lite_infer";
  o.is_trainer0 = false;
  const TipcPlan p = plan_tipc(shipped("train_linux_gpu_fleet_normal_infer_python_linux_gpu_cpu.txt"), o);
  ASSERT_EQ(p.stages.size(), 4u);
  EXPECT_TRUE(p.stages[0].skip_reason.empty());
  for (size_t i = 1; i < p.stages.size(); ++i) {
    EXPECT_NE(p.stages[i].skip_reason.find("trainer 0"), std::string::npos) << i;
    EXPECT_TRUE(p.stages[i].argv.empty()) << i;
  }
}

TEST(TipcPlan, SingleNodeConfigRunsEachDeviceSpecAndBothInferenceDevices) {
  TipcPlanParams o;
  o.mode = "whole_train_whole_infer";
  const TipcPlan p = plan_tipc(shipped("train_infer_python.txt"), o);
  const std::string out = "./test_tipc/output/PP-OCRv3_mobile_rec/whole_train_whole_infer";
  // Per device spec (0, then 0,1): train, export, GPU inference, CPU inference.
  ASSERT_EQ(p.stages.size(), 8u);
  const std::string train_tail = " Global.epoch_num=50 Global.auto_cast=fp32 Train.loader.batch_size_per_card=128";
  EXPECT_EQ(p.stages[0].command(), "ocrforge train -c " + kCfg +
                                       " -o Global.print_batch_step=1 Train.loader.shuffle=false Global.use_gpu=True"
                                       " Global.save_model_dir=" + out + "/norm_train_gpus_0_autocast_fp32" + train_tail);
  EXPECT_EQ(p.stages[2].log_path, out + "/python_infer_gpu_usetrt_False_precision_fp32_batchsize_1.log");
  EXPECT_NE(p.stages[2].command().find("--use_gpu=True"), std::string::npos);
  EXPECT_EQ(p.stages[2].command().find("--cpu_threads"), std::string::npos);
  EXPECT_NE(p.stages[3].command().find("--use_gpu=False --cpu_threads=6"), std::string::npos);
  EXPECT_EQ(p.stages[4].command().rfind("ocrforge launch --gpus=0,1 train -c ", 0), 0u) << p.stages[4].command();
  EXPECT_NE(p.stages[4].command().find("norm_train_gpus_0,1_autocast_fp32 "), std::string::npos);
}

TEST(TipcPlan, SwitchesThatDoNotApplyAndUnsupportedTrainersAreReported) {
  std::string text = test::read_text(test::source_dir() + "/test_tipc/configs/PP-OCRv3_mobile_rec/train_infer_python.txt");
  const auto set = [&](const std::string& from, const std::string& to) {
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
  };
  set("gpu_list:0|0,1", "gpu_list:-1");
  set("Global.use_gpu:True|True", "Global.use_gpu:False");
  set("trainer:norm_train", "trainer:norm_train|pact_train");
  set("pact_train:null", "pact_train:deploy/slim/quantization/quant.py -c x.yml -o");
  set("--use_gpu:True|False", "--use_gpu:False");
  set("--enable_mkldnn:False", "--enable_mkldnn:True");
  TipcPlanParams o;
  o.mode = "lite_train_lite_infer";
  const TipcPlan p = plan_tipc(TipcConfig::parse(text, "edited.txt"), o);
  ASSERT_GE(p.stages.size(), 4u);
  EXPECT_EQ(p.stages[0].command().rfind("ocrforge train -c ", 0), 0u);  // -1: one CPU process, no launch
  EXPECT_NE(p.stages[0].command().find("Global.use_gpu=False"), std::string::npos);
  const TipcStage& infer = p.stages[2];
  EXPECT_EQ(infer.kind, "infer");
  ASSERT_EQ(infer.not_applied.size(), 1u);
  EXPECT_NE(infer.not_applied[0].find("--enable_mkldnn=True"), std::string::npos);
  const TipcStage& pact = p.stages.back();
  EXPECT_EQ(pact.kind, "train");
  EXPECT_NE(pact.skip_reason.find("not supported: trainer 'pact_train'"), std::string::npos) << pact.skip_reason;
  EXPECT_TRUE(pact.argv.empty());
}

TEST(TipcPlan, WholeInferExportsNothingAndInfersTheGivenModel) {
  TipcPlanParams o;
  o.mode = "whole_infer";
  const TipcPlan p = plan_tipc(shipped("train_linux_gpu_fleet_normal_infer_python_linux_gpu_cpu.txt"), o);
  ASSERT_EQ(p.stages.size(), 2u);  // infer_export null: inference only, batch 1 and 6
  for (const auto& s : p.stages) {
    EXPECT_EQ(s.kind, "infer");
    EXPECT_NE(s.command().find("--rec_model_dir=./inference/PP-OCRv3_mobile_rec_infer "), std::string::npos);
  }
}

TEST(TipcPlan, AToolWithoutCounterpartIsASkippedStageNotAnAbort) {
  std::string text = test::read_text(test::source_dir() + "/test_tipc/configs/PP-OCRv3_mobile_rec/train_infer_python.txt");
  const std::string from = "inference:tools/infer/predict_rec.py";
  text.replace(text.find(from), from.size(), "inference:tools/infer/predict_e2e.py");
  TipcPlanParams o;
  o.mode = "lite_train_lite_infer";
  const TipcPlan p = plan_tipc(TipcConfig::parse(text, "edited.txt"), o);
  ASSERT_EQ(p.stages.size(), 8u);
  EXPECT_TRUE(p.stages[0].skip_reason.empty());  // training and export still run
  EXPECT_TRUE(p.stages[1].skip_reason.empty());
  EXPECT_NE(p.stages[2].skip_reason.find("not supported: TIPC: 'tools/infer/predict_e2e.py' has no ocrforge counterpart"),
            std::string::npos)
      << p.stages[2].skip_reason;
}

TEST(TipcPlan, DetectorConfigExportsItsTrainModelThenInfersItInWholeInfer) {
  // PaddleOCR's det file names the model slot train_model and exports it first.
  TipcPlanParams o;
  o.mode = "whole_infer";
  const TipcPlan p = plan_tipc(
      TipcConfig::load(test::source_dir() + "/test_tipc/configs/ch_ppocr_mobile_v2_0_det/train_infer_python.txt"), o);
  ASSERT_EQ(p.stages.size(), 3u);  // export, GPU inference, CPU inference
  const std::string model = "./inference/ch_ppocr_mobile_v2.0_det_train/best_accuracy";
  EXPECT_EQ(p.stages[0].command(), "ocrforge export -c configs/det/ch_ppocr_v2.0/ch_det_mv3_db_v2.0.yml -o "
                                   "Global.checkpoints=" + model + " Global.save_inference_dir=" + model + " --overwrite");
  EXPECT_EQ(p.stages[0].log_path, "./test_tipc/output/ch_ppocr_mobile_v2_0_det/whole_infer/_export_0.log");
  EXPECT_EQ(p.stages[2].command(), "ocrforge infer det --use_gpu=False --cpu_threads=1 --det_model_dir=" + model +
                                       " --rec_batch_num=1 --image_dir=./inference/ch_det_data_50/all-sum-510/"
                                       " --benchmark=True --precision=fp32");
}

// benchmark_train as PaddleOCR's benchmark_train.sh composes it without PARAMS:
// every batch size x fp item of train_benchmark_params on N1C4, training only.
TEST(TipcPlan, BenchmarkTrainRunsEachBatchAndPrecisionOnFourCardsTrainingOnly) {
  TipcPlanParams o;
  o.mode = "benchmark_train";
  o.benchmark_root = "/bench";
  o.repo_name = "ocrforge";
  const TipcPlan p = plan_tipc(shipped("train_infer_python.txt"), o);  // batch_size:64, fp_items:fp32|fp16, epoch:1
  ASSERT_EQ(p.stages.size(), 2u);
  const TipcStage& fp32 = p.stages[0];
  EXPECT_EQ(fp32.kind, "train");
  EXPECT_EQ(fp32.command(),
            "ocrforge launch --gpus=0,1,2,3 train -c " + kCfg +
                " -o Global.print_batch_step=1 Train.loader.shuffle=false Global.use_gpu=True Global.save_model_dir=./test_tipc/output/PP-OCRv3_mobile_rec/benchmark_train/"
            "norm_train_gpus_0,1,2,3_autocast_fp32 Global.epoch_num=1 Global.auto_cast=fp32 "
            "Train.loader.batch_size_per_card=64");
  EXPECT_EQ(fp32.log_path, "/bench/train_log/ocrforge_PP-OCRv3_mobile_rec_bs64_fp32_DP_N1C4_log");
  EXPECT_EQ(fp32.benchmark.speed_file, "/bench/index/ocrforge_PP-OCRv3_mobile_rec_bs64_fp32_DP_N1C4_speed");
  EXPECT_EQ(fp32.benchmark.model_name, "PP-OCRv3_mobile_rec_bs64_fp32_DP");
  EXPECT_EQ(fp32.benchmark.batch_size, 64);
  EXPECT_EQ(fp32.benchmark.device_num, "N1C4");
  // The profiler run and Paddle's FLAGS_ are named as not applied, one line each.
  ASSERT_EQ(fp32.not_applied.size(), 4u);
  EXPECT_EQ(fp32.not_applied[0].rfind("--profiler_options", 0), 0u) << fp32.not_applied[0];
  EXPECT_EQ(fp32.not_applied[1], "FLAGS_eager_delete_tensor_gb=0.0 (a Paddle flag)");
  EXPECT_EQ(p.stages[1].benchmark.fp_item, "fp16");
  EXPECT_EQ(p.stages[1].skip_reason, "not supported: fp16 training (Global.use_amp runs bf16 autocast on CPUs with bf16 instructions only)");
}

// With PARAMS (modeltype_bs_fp_runmode_device) one run, epoch x nodes x cards.
TEST(TipcPlan, BenchmarkTrainParamsPickOneRunAndScaleTheEpoch) {
  TipcPlanParams o;
  o.mode = "benchmark_train";
  o.benchmark_params = "dynamic_bs8_fp32_DP_N1C2";
  const TipcPlan p = plan_tipc(shipped("train_infer_python.txt"), o);
  ASSERT_EQ(p.stages.size(), 1u);
  EXPECT_NE(p.stages[0].command().find("ocrforge launch --gpus=0,1 train "), std::string::npos) << p.stages[0].command();
  EXPECT_NE(p.stages[0].command().find(" Global.epoch_num=2 "), std::string::npos) << p.stages[0].command();
  EXPECT_NE(p.stages[0].command().find(" Train.loader.batch_size_per_card=8"), std::string::npos);
  EXPECT_EQ(p.stages[0].log_path, "./train_log/ocrforge_PP-OCRv3_mobile_rec_bs8_fp32_DP_N1C2_log");
  o.benchmark_params = "dynamic_bs8_fp32_DP_N1C1";
  const TipcPlan one = plan_tipc(shipped("train_infer_python.txt"), o);
  ASSERT_EQ(one.stages.size(), 1u);
  EXPECT_EQ(one.stages[0].argv.at(0), "train");  // one card: no launch
  EXPECT_NE(one.stages[0].command().find(" Global.epoch_num=1 "), std::string::npos);
  for (const char* bad : {"bs8_fp32_DP_N1C1", "dynamic_8_fp32_DP_N1C1", "dynamic_bs8_fp32_DP_1x4", "dynamic_bs8_fp32_DP_N2C4"}) {
    o.benchmark_params = bad;
    EXPECT_THROW(plan_tipc(shipped("train_infer_python.txt"), o), UsageError) << bad;
  }
}

// A CPU config (gpu_list -1) benchmarks CPU processes: N1C2 is launch --nproc_per_node=2.
TEST(TipcPlan, BenchmarkTrainOnACpuConfigRunsCpuProcesses) {
  const TipcConfig c = TipcConfig::load(test::source_dir() +
                                        "/test_tipc/configs/ch_ppocr_mobile_v2_0_det/"
                                        "train_linux_cpu_normal_normal_infer_python_linux_cpu.txt");
  TipcPlanParams o;
  o.mode = "benchmark_train";
  const TipcPlan p = plan_tipc(c, o);
  ASSERT_EQ(p.stages.size(), 2u);  // batch 8, fp32 and fp16 on N1C1
  EXPECT_EQ(p.stages[0].argv.at(0), "train");
  EXPECT_NE(p.stages[0].command().find("Global.use_gpu=False"), std::string::npos);
  EXPECT_EQ(p.stages[0].benchmark.device_num, "N1C1");
  o.benchmark_params = "dynamic_bs4_fp32_DP_N1C2";
  const TipcPlan two = plan_tipc(c, o);
  ASSERT_EQ(two.stages.size(), 1u);
  EXPECT_EQ(two.stages[0].command().rfind("ocrforge launch --nproc_per_node=2 train ", 0), 0u) << two.stages[0].command();
  EXPECT_NE(two.stages[0].command().find(" Global.epoch_num=4 "), std::string::npos);  // epoch 2 x 2 cards
}

// PaddleOCR's det files: the fleet one (two machines, GPUs 0,1) and the mac
// CPU one, whose export weight line is `Global.pretrained_model:` (its script
// reads that line by position).
TEST(TipcPlan, DetFleetAndMacCpuFilesComposeAsPaddleOcrsScriptDoes) {
  const std::string dir = test::source_dir() + "/test_tipc/configs/ch_ppocr_mobile_v2_0_det/";
  TipcPlanParams o;
  o.mode = "lite_train_lite_infer";
  o.node_ip = "192.168.0.1";
  const TipcPlan fleet = plan_tipc(TipcConfig::load(dir + "train_linux_gpu_fleet_normal_infer_python_linux_gpu_cpu.txt"), o);
  ASSERT_EQ(fleet.stages.size(), 3u);  // train, export, infer (6 threads)
  EXPECT_EQ(fleet.stages[0].command().rfind("ocrforge launch --ips=192.168.0.1,192.168.0.2 --gpus=0,1 --node_ip=192.168.0.1 "
                                            "train -c configs/det/ch_ppocr_v2.0/ch_det_mv3_db_v2.0.yml",
                                            0),
            0u)
      << fleet.stages[0].command();
  EXPECT_NE(fleet.stages[0].command().find("Global.epoch_num=100 "), std::string::npos);
  o.node_ip.clear();
  const TipcPlan mac = plan_tipc(TipcConfig::load(dir + "train_mac_cpu_normal_normal_infer_python_mac_cpu.txt"), o);
  ASSERT_EQ(mac.stages.size(), 4u);  // train, export, infer with 1 and 6 threads
  const std::string save = "./test_tipc/output/ocr_det/lite_train_lite_infer/norm_train_gpus_-1_autocast_null";
  EXPECT_EQ(mac.stages[1].command(), "ocrforge export -c configs/det/ch_ppocr_v2.0/ch_det_mv3_db_v2.0.yml -o "
                                     "Global.pretrained_model=" + save + "/latest Global.save_inference_dir=" + save + " --overwrite");
  EXPECT_NE(mac.stages[0].command().find(" Global.epoch_num=5 "), std::string::npos);
  EXPECT_NE(mac.stages[3].log_path.find("threads_6"), std::string::npos);
}

// Our PP-OCRv4 fine-tune config in the fleet forms: the same launch as the seed's file.
TEST(TipcPlan, PpOcrV4FineTuneFleetFormsLaunchOnTwoNodes) {
  const std::string dir = test::source_dir() + "/test_tipc/configs/ch_PP-OCRv4_rec_finetune/";
  TipcPlanParams o;
  o.mode = "lite_train_lite_infer";
  o.node_ip = "127.0.0.2";
  o.is_trainer0 = false;
  const TipcPlan cpu = plan_tipc(TipcConfig::load(dir + "train_linux_cpu_fleet_normal_infer_python_linux_cpu.txt"), o);
  ASSERT_GE(cpu.stages.size(), 3u);
  EXPECT_EQ(cpu.stages[0].command().rfind("ocrforge launch --ips=127.0.0.1,127.0.0.2 --nproc_per_node=1 --node_ip=127.0.0.2 train ", 0), 0u)
      << cpu.stages[0].command();
  for (size_t i = 1; i < cpu.stages.size(); ++i) EXPECT_EQ(cpu.stages[i].skip_reason, "the model is saved on trainer 0 only");
  o.node_ip = "192.168.0.1";
  o.is_trainer0 = true;
  const TipcPlan gpu = plan_tipc(TipcConfig::load(dir + "train_linux_gpu_fleet_normal_infer_python_linux_gpu_cpu.txt"), o);
  EXPECT_NE(gpu.stages[0].command().find("--gpus=0,1 --node_ip=192.168.0.1 train "), std::string::npos);
  EXPECT_NE(gpu.stages[0].log_path.find("norm_train_gpus_0,1_autocast_fp32_nodes_2_train.log"), std::string::npos);
}

// PaddleOCR's rec_mv3_none_bilstm_ctc_v2_0 and det_mv3_east_v2_0 files leave the
// inference_dir slot as a bare `##` line: the model is inferred from the save folder
// itself, and whole_infer finds its train_model slot by name.
TEST(TipcPlan, ABareHashLineInPlaceOfInferenceDirInfersFromTheSaveFolder) {
  for (const char* name : {"rec_mv3_none_bilstm_ctc_v2_0", "det_mv3_east_v2_0"}) {
    SCOPED_TRACE(name);
    const TipcConfig c =
        TipcConfig::load(test::source_dir() + "/test_tipc/configs/" + name + "/train_infer_python.txt");
    TipcPlanParams o;
    o.mode = "lite_train_lite_infer";
    const TipcPlan p = plan_tipc(c, o);
    int infers = 0;
    std::string save;
    for (const TipcStage& s : p.stages) {
      if (s.kind == "train") save = s.log_path.substr(0, s.log_path.find("_nodes_"));
      if (s.kind != "infer") continue;
      ++infers;
      const std::string flag = std::string(name).rfind("rec", 0) == 0 ? "--rec_model_dir=" : "--det_model_dir=";
      EXPECT_NE(s.command().find(flag + save + " "), std::string::npos) << s.command();
      EXPECT_EQ(s.command().find("##"), std::string::npos) << s.command();
    }
    EXPECT_GT(infers, 0);

    o.mode = "whole_infer";
    const TipcPlan w = plan_tipc(c, o);
    ASSERT_FALSE(w.stages.empty());
    EXPECT_EQ(w.stages[0].kind, "export");
    EXPECT_NE(w.stages[0].command().find("Global.checkpoints=./inference/"), std::string::npos) << w.stages[0].command();
  }
}

TEST(TipcPlan, WholeInferWithoutAnyModelSlotNamesWhatIsMissing) {
  std::string text = test::read_text(test::source_dir() + "/test_tipc/configs/rec_mv3_none_bilstm_ctc_v2_0/train_infer_python.txt");
  const std::string from = "train_model:";
  text.replace(text.find(from), from.size(), "some_model:");
  TipcPlanParams o;
  o.mode = "whole_infer";
  const std::string m = test::message_of<Error>([&] { plan_tipc(TipcConfig::parse(text, "edited.txt"), o); });
  EXPECT_NE(m.find("edited.txt"), std::string::npos) << m;
  EXPECT_NE(m.find("train_model"), std::string::npos) << m;
}

TEST(TipcPlan, UnknownModesAndToolsAreUsageErrors) {
  TipcPlanParams o;
  o.mode = "lite_train";
  EXPECT_THROW(plan_tipc(shipped("train_infer_python.txt"), o), UsageError);
  EXPECT_THROW(tipc_translate("tools/infer_kie.py -c x.yml", {}), UsageError);
  EXPECT_EQ(tipc_translate("tools/infer/predict_system.py --use_angle_cls=True", {"--use_gpu=False"}),
            (std::vector<std::string>{"ocr", "--use_angle_cls=True", "--use_gpu=False"}));
}

}  // namespace
}  // namespace ocrforge
