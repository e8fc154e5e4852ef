// SARHead's YAML entry -> SarHeadSpec (sar_head_spec.h).
#include "ocrforge/train/tasks/rec/sar_head_spec.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

SarHeadSpec sar_head_from_yaml(const YAML::Node& args, const std::string& path, int ctc_classes) {
  SarHeadSpec s;
  s.out_channels = ctc_classes + 2;
  if (args && !args.IsNull()) {
    read(args, "enc_dim", path, s.enc_dim);
    read(args, "max_text_length", path, s.max_text_length);
    read(args, "enc_bi_rnn", path, s.enc_bi_rnn);
    read(args, "enc_drop_rnn", path, s.enc_drop_rnn);
    read(args, "enc_gru", path, s.enc_gru);
    read(args, "dec_bi_rnn", path, s.dec_bi_rnn);
    read(args, "dec_drop_rnn", path, s.dec_drop_rnn);
    read(args, "dec_gru", path, s.dec_gru);
    read(args, "d_k", path, s.d_k);
    read(args, "pred_dropout", path, s.pred_dropout);
    read(args, "pred_concat", path, s.pred_concat);
  }
  validate_sar_head(s, path);
  return s;
}

void validate_sar_head(const SarHeadSpec& s, const std::string& path) {
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw UsageError(path + "." + key + ": " + what);
  };
  if (s.out_channels < 4) fail("out_channels", "needs at least 1 character + <UKN>, <BOS/EOS>, <PAD>");
  if (s.enc_dim < 1) fail("enc_dim", "must be >= 1");
  if (s.d_k < 1) fail("d_k", "must be >= 1");
  if (s.max_text_length < 1) fail("max_text_length", "must be >= 1");
  // PaddleOCR asserts 0 <= enc_drop_rnn < 1 (the RNN dropout); the others are nn.Dropout's [0, 1).
  for (const auto& [key, p] : {std::pair<const char*, float>{"enc_drop_rnn", s.enc_drop_rnn},
                               {"dec_drop_rnn", s.dec_drop_rnn},
                               {"pred_dropout", s.pred_dropout}})
    if (!(p >= 0.0f && p < 1.0f)) fail(key, "a dropout probability in [0, 1)");
}

}  // namespace ocrforge
