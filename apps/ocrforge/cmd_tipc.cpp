// `ocrforge tipc prepare|plan|run CONFIG.txt MODE [PARAMS] [--node_ip=IP]`:
//   prepare: the data and image folders the mode needs (tipc/tipc_prepare.h;
//            exit 1 when something cannot be made offline);
//   plan:    the commands the config composes for the mode (tipc/tipc_plan.h),
//            one stage per line: what runs, where its log goes, what is
//            skipped and why, which switches do not apply;
//   run:     runs them with PaddleOCR's status log (tipc/tipc_run.h; exit 1
//            when a stage failed). benchmark_train also prints each run's
//            JSON line (tipc/tipc_benchmark.h).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/tipc/tipc_plan.h"
#include "ocrforge/tipc/tipc_prepare.h"
#include "ocrforge/version.h"
#include "ocrforge/tipc/tipc_run.h"

namespace ocrforge {

namespace {

// The first node of a several-machine gpu_list ("IP1,IP2;gpus"), or "".
std::string first_node(const TipcConfig& c) {
  const TipcSection* train = c.section("train_params");
  const TipcEntry* gpus = train ? train->find("gpu_list") : nullptr;
  if (!gpus) return "";
  for (const std::string& spec : tipc_list(gpus->value)) {
    const size_t semi = spec.find(';');
    if (semi != std::string::npos) return spec.substr(0, std::min(spec.find(','), semi));
  }
  return "";
}

}  // namespace

int cmd_tipc(const Args& args) {
  FlagSet flags("tipc");
  flags.add("node_ip", "", "this machine's address among the config's gpu_list IPs (several machines)");
  flags.add("real_data", "../shared/data",
            "prepare: a folder with ic15_rec_train/rec_gt_train.txt and det_toy/det_gt.txt to take real samples "
            "from; when it is not there (or too small), synthetic data");
  flags.add("num_train", "0", "prepare: samples per training label file (0: the mode's default)");
  flags.add("num_test", "0", "prepare: samples per eval label file (0: the mode's default)");
  flags.add("seed", "1", "prepare: seed of the synthetic data");
  const std::vector<std::string> rest = flags.parse(args);
  const std::string usage =
      "usage: ocrforge tipc prepare|plan|run CONFIG.txt MODE [--node_ip=IP]\n"
      "       ocrforge tipc plan|run CONFIG.txt benchmark_train [PARAMS, e.g. dynamic_bs8_fp32_DP_N1C1]\n"
      "  MODE: lite_train_lite_infer | lite_train_whole_infer | whole_infer | whole_train_whole_infer | benchmark_train\n"
      "  prepare: makes the mode's data (ocrforge synth, or --real_data) and inference image folders\n"
      "  plan:    prints the train / eval / export / infer commands PaddleOCR's TIPC config composes\n"
      "  run:     runs them; status lines in test_tipc/output/<model>/<MODE>/results_python.log, summary.md;\n"
      "           benchmark_train: PaddleOCR's JSON line per run, in ${BENCHMARK_LOG_DIR:-.}/index/\n";
  if (flags.help_requested()) {
    std::cout << usage << flags.help_text();
    return 0;
  }
  if (rest.empty()) throw UsageError("missing subcommand\n" + usage);
  if (rest[0] != "plan" && rest[0] != "run" && rest[0] != "prepare")
    throw UsageError("unknown subcommand '" + rest[0] + "'\n" + usage);
  const bool params = rest.size() == 4 && rest[2] == "benchmark_train" && rest[0] != "prepare";
  if (rest.size() != 3 && !params) throw UsageError("tipc " + rest[0] + " takes CONFIG.txt and MODE\n" + usage);
  const TipcConfig config = TipcConfig::load(rest[1]);
  if (rest[0] == "prepare") {
    TipcPrepareParams po;
    po.mode = rest[2];
    po.real_data = std::filesystem::is_directory(flags.get("real_data")) ? flags.get("real_data") : "";
    po.num_train = flags.get_int_at_least("num_train", 0);
    po.num_test = flags.get_int_at_least("num_test", 0);
    po.seed = flags.get_int("seed");
    const TipcPrepareReport report = prepare_tipc(config, po);
    for (const TipcPrepareItem& i : report.items) std::cout << i.status << "\t" << i.path << "\t" << i.detail << "\n";
    if (report.missing() == 0) return 0;
    std::cerr << "ocrforge tipc prepare: " << report.missing()
              << " item(s) cannot be made offline (listed as 'missing'); the stages that need them will fail\n";
    return 1;
  }
  TipcPlanParams o;
  o.mode = rest[2];
  o.node_ip = flags.get("node_ip");
  if (params) o.benchmark_params = rest[3];
  if (const char* root = std::getenv("BENCHMARK_LOG_DIR"); root && *root) o.benchmark_root = root;
  o.repo_name = std::filesystem::current_path().filename().string();
  const std::string first = first_node(config);
  o.is_trainer0 = o.node_ip.empty() || first.empty() || o.node_ip == first;
  const TipcPlan plan = plan_tipc(config, o);
  if (rest[0] == "run") {
    const std::string self = executable_path();
    if (self.empty()) throw Error("tipc run: cannot find this binary (/proc/self/exe)");
    const TipcRunReport report = run_tipc(plan, self, std::cout, std::string("ocrforge ") + OCRFORGE_VERSION);
    return report.failed == 0 ? 0 : 1;
  }
  std::cout << "# " << plan.model_name << " " << plan.mode << ": logs in " << plan.log_dir
            << (o.is_trainer0 ? "" : " (not trainer 0)") << "\n";
  for (const TipcStage& s : plan.stages) {
    if (!s.skip_reason.empty()) {
      std::cout << s.kind << "\tskipped: " << s.skip_reason << "\n";
      continue;
    }
    std::cout << s.kind << "\t" << s.command() << (s.log_path.empty() ? "" : " > " + s.log_path + " 2>&1") << "\n";
    for (const auto& n : s.not_applied) std::cout << "\tnot applied: " << n << "\n";
  }
  return 0;
}

}  // namespace ocrforge
