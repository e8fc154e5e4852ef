// Text recognition (PaddleOCR's predict_rec): CTC model on ONNX Runtime.
#pragma once
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/core/charset.h"
#include "ocrforge/infer/network.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/infer/stage_stats.h"
#include "ocrforge/vision/ctc_decode.h"
#include "ocrforge/vision/lexicon.h"

namespace ocrforge {

struct RecBatch;  // rec_batching.h

class TextRecognizer {
 public:
  // Throws Error when the model or dictionary is missing, the model is not a
  // CTC recogniser (input N x 3 x H x W, output N x T x C), or the dictionary
  // does not fit the model's class count.
  TextRecognizer(const RecParams& params, const RuntimeParams& runtime);

  // Crops (8-bit BGR) -> text and confidence, in the order given. Each crop
  // gets its own input width (rec_input_width), or the model's when its
  // input width is static (an exported SVTRNet: every crop is resized into
  // it, aspect kept and right-padded, as PaddleOCR's predict_rec does for a
  // fixed-width model); up to batch_num crops of equal
  // width share an ORT call, so results do not depend on batch_num. Batches
  // run on up to workers() threads at once (RecParams::workers), which
  // changes neither a result nor the order. Safe to call from several
  // threads at once (each call's stats are merged under a lock).
  std::vector<RecText> recognize(const std::vector<cv::Mat>& crops);

  // Batches run at once, and the ORT intra-op threads each gets.
  int workers() const { return workers_; }
  int threads_per_worker() const { return threads_per_worker_; }

  StageStats stats() const;
  void reset_stats();
  const Network& model() const { return *model_; }
  const Charset& charset() const { return charset_; }
  // What the caller should tell the user about how the model is read (a
  // --use_space_char that the model has no class for); empty when nothing.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  // One batch: preprocess, ORT run, CTC decode into results; times into stats.
  void run_batch(const std::vector<cv::Mat>& crops, const RecBatch& batch, std::vector<float>& buffer,
                 std::vector<RecText>& results, StageStats& stats);

  RecParams params_;
  int fixed_width_ = 0;  // the model's static input width; 0: dynamic
  int workers_ = 1, threads_per_worker_ = 1;
  // The word list, read on a thread of its own while the model loads (before
  // model_ on purpose: members start in this order); taken into lexicon_.
  std::future<Lexicon> lexicon_loading_;
  std::unique_ptr<Network> model_;
  Charset charset_;
  std::unique_ptr<const Lexicon> lexicon_;  // RecParams::lexicon_path; null: greedy decoding only
  std::vector<std::string> notes_;
  mutable std::mutex stats_mutex_;
  StageStats stats_;
};

}  // namespace ocrforge
