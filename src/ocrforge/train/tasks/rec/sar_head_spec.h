// Typed parameters of PaddleOCR's SARHead (ppocr/modeling/heads/rec_sar_head.py),
// the training-only guidance branch of PP-OCRv3's MultiHead. Torch-free, so
// the config checker and the exporter read it without LibTorch headers.
// Defaults are SARHead's constructor defaults; PP-OCRv3's configs set
// enc_dim 512 and max_text_length 25.
#pragma once
#include <string>

namespace YAML {
class Node;
}

namespace ocrforge {

struct SarHeadSpec {
  // SARLabelDecode's classes: dictionary (+ space) + <UKN> + <BOS/EOS> + <PAD>,
  // i.e. CTC classes + 2 (PaddleOCR's out_channels_list["SARLabelDecode"]).
  int out_channels = 0;
  int enc_dim = 512;           // encoder LSTM / GRU width (d_enc)
  int max_text_length = 30;    // decoding steps of greedy inference (training uses the label's length)
  bool enc_bi_rnn = false;
  float enc_drop_rnn = 0.1f;   // dropout between the 2 encoder RNN layers
  bool enc_gru = false;        // GRU instead of LSTM
  bool dec_bi_rnn = false;
  float dec_drop_rnn = 0.0f;
  bool dec_gru = false;
  int d_k = 512;               // 2-D attention width
  float pred_dropout = 0.1f;   // dropout on the prediction logits (training only)
  bool pred_concat = true;     // predict from [decoder state, glimpse, holistic feature]
};

// The `SARHead: {...}` entry of a MultiHead head_list (`path` names it, e.g.
// "Architecture.Head.head_list[1].SARHead"); `ctc_classes` is the CTC class
// count. UsageError naming the key for unknown keys or bad values.
SarHeadSpec sar_head_from_yaml(const YAML::Node& args, const std::string& path, int ctc_classes);

// Value checks (UsageError naming `path`'s keys), also run by the model.
void validate_sar_head(const SarHeadSpec& spec, const std::string& path);

}  // namespace ocrforge
