// Loss section -> RecLossSpec (rec_loss_spec.h).
#include "ocrforge/train/tasks/rec/rec_loss_spec.h"

#include <yaml-cpp/yaml.h>

#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

RecLossSpec rec_loss_from_yaml(const YAML::Node& loss) {
  RecLossSpec s;
  if (!loss || loss.IsNull()) return s;  // PaddleOCR requires a Loss; the rec task has always defaulted to CTC
  s.name = required_name(loss, "Loss");
  if (s.name == "CTCLoss") {
    read(loss, "use_focal_loss", "Loss", s.use_focal_loss);
    return s;
  }
  if (s.name != "MultiLoss")
    throw UsageError("Loss.name: '" + s.name + "' is not a recognition loss (known: CTCLoss, MultiLoss)");
  read(loss, "weight_1", "Loss", s.weight_1);
  read(loss, "weight_2", "Loss", s.weight_2);
  note_config_read("Loss.loss_config_list");
  const YAML::Node list = loss["loss_config_list"];
  if (!list || !list.IsSequence() || list.size() == 0)
    throw UsageError("Loss.loss_config_list: missing or empty; MultiLoss lists its terms, e.g. [{CTCLoss: }, {SARLoss: }]");
  s.ctc = false;
  std::set<std::string> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "Loss.loss_config_list[" + std::to_string(i) + "]";
    if (!list[i].IsMap() || list[i].size() != 1)
      throw UsageError(path + ": each entry is one loss, e.g. - SARLoss:");
    const std::string kind = list[i].begin()->first.as<std::string>();
    const YAML::Node args = list[i].begin()->second;
    const std::string p = path + "." + kind;
    note_config_read(p);
    if (!seen.insert(kind).second) throw UsageError(p + ": listed twice");
    const bool has_args = args && !args.IsNull();
    if (kind == "CTCLoss") {
      s.ctc = true;
      if (has_args) {
        read(args, "use_focal_loss", p, s.use_focal_loss);
      }
    } else if (kind == "SARLoss") {
      s.sar = true;
      if (has_args) {
        long index = 0;
        read(args, "ignore_index", p, index);
        if (present(args, "ignore_index")) s.sar_ignore_index = index;
      }
    } else if (kind == "NRTRLoss") {
      s.nrtr = true;
      s.nrtr_entry = p;
      if (has_args) read(args, "smoothing", p, s.nrtr_smoothing);
    } else {
      throw UsageError(p + ": unknown loss '" + kind + "' (known: CTCLoss, SARLoss, NRTRLoss)");
    }
  }
  if (s.sar && s.nrtr)
    throw UsageError("Loss.loss_config_list: lists both SARLoss and NRTRLoss; a MultiHead trains one guidance branch "
                     "(SARHead or NRTRHead), keep the loss of the one Architecture.Head lists");
  return s;
}

}  // namespace ocrforge
