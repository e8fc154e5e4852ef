// Runs a TIPC plan (tipc_plan.h): each stage's ocrforge command as a child
// process of `binary`, its output to the stage's log, and PaddleOCR's status
// lines appended to <log_dir>/results_python.log:
//   Run successfully with command - <model> - <command> - <log>
//   Run failed with command - <model> - <command> - <log> - exit code N
// from each command's real exit status (PaddleOCR's script checks the exit
// status of `cat` for some stages). Skipped stages and switches that do not
// apply get their own lines ("Skipped - ...", "Not applied - ..."), so
// nothing is reported as done that did not run. At the end a summary table
// (stage, status, seconds, log) goes to `out` and to <log_dir>/summary.md.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "ocrforge/tipc/tipc_plan.h"

namespace ocrforge {

struct TipcStageResult {
  std::string kind, status;  // status: "ok" | "failed (exit code N)" | "skipped: ..."
  double seconds = 0;
  std::string log_path;
};

struct TipcRunReport {
  std::vector<TipcStageResult> stages;
  std::string results_log, summary_md;
  std::vector<std::string> benchmark_json;  // benchmark_train: one line per run that trained
  int failed = 0;
};

// `binary`: the ocrforge executable the stages run (its path is written into
// the status lines, so a failed command can be replayed by hand).
// benchmark_train stages: after a training that succeeded, its log gives the
// JSON line (tipc_benchmark.h), written to the run's speed file and to `out`;
// a log without enough `ips:` records fails the stage. `frame_version` goes
// into that line.
TipcRunReport run_tipc(const TipcPlan& plan, const std::string& binary, std::ostream& out,
                       const std::string& frame_version = "ocrforge");

}  // namespace ocrforge
