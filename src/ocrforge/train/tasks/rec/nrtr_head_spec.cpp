// NRTRHead's YAML entry -> NrtrHeadSpec (nrtr_head_spec.h).
#include "ocrforge/train/tasks/rec/nrtr_head_spec.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

NrtrHeadSpec nrtr_head_from_yaml(const YAML::Node& args, const std::string& path, int ctc_classes) {
  NrtrHeadSpec s;
  s.out_channels = ctc_classes + 3;
  if (args && !args.IsNull()) {
    read(args, "nrtr_dim", path, s.nrtr_dim);
    read(args, "num_decoder_layers", path, s.num_decoder_layers);
    read(args, "max_text_length", path, s.max_text_length);
  }
  validate_nrtr_head(s, path);
  return s;
}

void validate_nrtr_head(const NrtrHeadSpec& s, const std::string& path) {
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw UsageError(path + "." + key + ": " + what);
  };
  if (s.out_channels < 5) fail("out_channels", "needs at least 1 character + <blank>, <unk>, <s>, </s>");
  // MultiHead gives the Transformer nrtr_dim / 32 heads, each head_dim wide.
  if (s.nrtr_dim < 32 || s.nrtr_dim % 32 != 0)
    fail("nrtr_dim", "must be a positive multiple of 32 (MultiHead uses nrtr_dim / 32 attention heads), got " +
                         std::to_string(s.nrtr_dim));
  if (s.num_decoder_layers < 1) fail("num_decoder_layers", "must be >= 1");
  if (s.max_text_length < 1) fail("max_text_length", "must be >= 1");
}

}  // namespace ocrforge
