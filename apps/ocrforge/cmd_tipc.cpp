// `ocrforge tipc plan|run CONFIG.txt MODE [--node_ip=IP]`: the commands a
// TIPC config composes for a mode (tipc/tipc_plan.h), printed one stage per
// line (plan: what runs, where its log goes, what is skipped and why, which
// switches do not apply) or run with PaddleOCR's status log (run:
// tipc/tipc_run.h; exit 1 when a stage failed). `tipc prepare` is not built yet.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <iostream>

#include "commands.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/tipc/tipc_plan.h"
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
  const std::vector<std::string> rest = flags.parse(args);
  const std::string usage =
      "usage: ocrforge tipc plan|run CONFIG.txt MODE [--node_ip=IP]\n"
      "  MODE: lite_train_lite_infer | lite_train_whole_infer | whole_infer | whole_train_whole_infer\n"
      "  plan: prints the train / eval / export / infer commands PaddleOCR's TIPC config composes\n"
      "  run:  runs them; status lines in test_tipc/output/<model>/<MODE>/results_python.log, summary.md\n";
  if (flags.help_requested()) {
    std::cout << usage << flags.help_text();
    return 0;
  }
  if (rest.empty()) throw UsageError("missing subcommand\n" + usage);
  if (rest[0] == "prepare")
    throw UsageError("'tipc prepare' is not yet supported; make the data the config names (ocrforge synth, "
                     "ocrforge data) and run 'tipc run'");
  if (rest[0] != "plan" && rest[0] != "run") throw UsageError("unknown subcommand '" + rest[0] + "'\n" + usage);
  if (rest.size() != 3) throw UsageError("tipc " + rest[0] + " takes CONFIG.txt and MODE\n" + usage);
  const TipcConfig config = TipcConfig::load(rest[1]);
  TipcPlanOptions o;
  o.mode = rest[2];
  o.node_ip = flags.get("node_ip");
  const std::string first = first_node(config);
  o.is_trainer0 = o.node_ip.empty() || first.empty() || o.node_ip == first;
  const TipcPlan plan = plan_tipc(config, o);
  if (rest[0] == "run") {
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) throw Error("tipc run: cannot find this binary (/proc/self/exe)");
    self[n] = 0;
    const TipcRunReport report = run_tipc(plan, self, std::cout);
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
