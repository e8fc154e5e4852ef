// Typed parameters of the NRTR branch of PaddleOCR's MultiHead
// (ppocr/modeling/heads/rec_multi_head.py building rec_nrtr_head.py's
// Transformer): PP-OCRv4 / v5's training-only guidance branch. Torch-free, so
// the config checker and the exporter read it without LibTorch headers.
// MultiHead reads three keys of the NRTRHead entry (max_text_length,
// nrtr_dim, num_decoder_layers); the rest of the Transformer is fixed there:
// no encoder layers, nrtr_dim / 32 heads, feed-forward 4 x nrtr_dim,
// residual dropout 0.1, attention dropout 0, greedy decoding (beam_size -1).
#pragma once
#include <string>

namespace YAML {
class Node;
}

namespace ocrforge {

struct NrtrHeadSpec {
  // NRTRLabelDecode's classes: <blank>, <unk>, <s>, </s> + dictionary (+ space),
  // i.e. CTC classes + 3 (PaddleOCR's out_channels_list["NRTRLabelDecode"]).
  // The Transformer predicts one class more (its out_channels + 1), never a label.
  int out_channels = 0;
  int nrtr_dim = 256;          // d_model; MultiHead's default
  int num_decoder_layers = 4;  // MultiHead's default
  int max_text_length = 25;    // greedy decoding steps (training reads the label's length)
  // MultiHead.use_pos: a learnt positional embedding (80 positions) added to
  // the backbone tokens before the decoder reads them.
  bool use_pos = false;
  int heads() const { return nrtr_dim / 32; }
  int feedforward() const { return nrtr_dim * 4; }
  int vocabulary() const { return out_channels + 1; }
};

// The `NRTRHead: {...}` entry of a MultiHead head_list (`path` names it);
// `ctc_classes` is the CTC class count. UsageError naming the key for
// unknown keys or bad values.
NrtrHeadSpec nrtr_head_from_yaml(const YAML::Node& args, const std::string& path, int ctc_classes);

// Value checks (UsageError naming `path`'s keys), also run by the model.
void validate_nrtr_head(const NrtrHeadSpec& spec, const std::string& path);

}  // namespace ocrforge
