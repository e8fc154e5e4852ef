// The Loss section of a recognition config, typed:
//   Loss: {name: CTCLoss, use_focal_loss: false}
//   Loss: {name: MultiLoss, loss_config_list: [{CTCLoss: }, {SARLoss: }],
//          weight_1: 1.0, weight_2: 1.0}          (PP-OCRv3's MultiHead)
//   Loss: {name: MultiLoss, loss_config_list: [{CTCLoss: }, {NRTRLoss: }]}
//                                               (PP-OCRv4 / v5's MultiHead)
// PaddleOCR's MultiLoss (ppocr/losses/rec_multi_loss.py) adds
// weight_1 x CTCLoss on MultiHead's CTC branch and weight_2 x SARLoss (or
// NRTRLoss) on its guidance branch, each only when listed; the log names the
// parts CTCLoss, SARLoss, NRTRLoss. Torch-free.
//
// SARLoss's ignore_index: PaddleOCR defaults it to 92, the <PAD> index of a
// 90-character dictionary (its SAR recipe's); with any other dictionary that
// index is a character and <PAD> is outside the prediction classes.
// ocrforge ignores the <PAD> index of the dictionary in use (what
// PaddleOCR's maintainers advise: "num_classes + 2"), and accepts
// ignore_index only when it is that index.
#pragma once
#include <optional>
#include <string>

namespace YAML {
class Node;
}

namespace ocrforge {

struct RecLossSpec {
  std::string name = "CTCLoss";  // CTCLoss | MultiLoss
  bool use_focal_loss = false;   // CTCLoss's (Loss.use_focal_loss, or the CTCLoss entry's)
  bool ctc = true;               // MultiLoss lists CTCLoss
  bool sar = false;              // MultiLoss lists SARLoss
  double weight_1 = 1.0;         // MultiLoss: CTC weight
  double weight_2 = 1.0;         // MultiLoss: SAR weight
  std::optional<long> sar_ignore_index;  // SARLoss.ignore_index when given
  bool nrtr = false;             // MultiLoss lists NRTRLoss (weight_2, as PaddleOCR)
  bool nrtr_smoothing = true;    // NRTRLoss.smoothing: label smoothing 0.1
  std::string nrtr_entry;        // its key path, for messages
};

// UsageError naming the key for another name, unknown keys or losses, an
// empty or repeated list entry, SARLoss and NRTRLoss together.
RecLossSpec rec_loss_from_yaml(const YAML::Node& loss);

}  // namespace ocrforge
