// PaddleOCR's SimpleDataSet (and LMDBDataSet) for recognition: a sample
// source (rec_sample_source.h: label files, or LMDB environments) plus the
// typed transforms. Loading never throws for a bad sample: it is replaced by
// another one and counted (DataStats), as PaddleOCR replaces and logs.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ocrforge/train/data/data_stats.h"
#include "ocrforge/train/data/dataset.h"
#include "ocrforge/train/tasks/rec/rec_con_aug.h"
#include "ocrforge/train/tasks/rec/rec_label_list.h"
#include "ocrforge/train/tasks/rec/rec_sample_source.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"

namespace ocrforge {

// One transformed sample (KeepKeys [image, label, length, valid_ratio];
// MultiLabelEncode's label_ctc is `label`, and it adds label_sar or label_gtc).
struct RecSample {
  std::vector<float> image;     // C x H x W floats in [-1, 1] (CHW, BGR), zero-padded on the right
  int width = 0;                // W: the shape's, or the line's own with RecResizeImg eval_mode
  float valid_ratio = 1.0f;     // resized width / W
  std::vector<int64_t> label;   // max_text_length class indices, 0-padded
  int64_t length = 0;           // real indices in `label`
  // MultiLabelEncode only: SARLabelEncode's (sar_label_encode.h) or, with
  // gtc_encode NRTRLabelEncode, NRTR's (nrtr_label_encode.h) max_text_length indices.
  std::vector<int64_t> guide_label;
  std::string text;             // label text without dropped characters (what `label` encodes; RecConAug's joined text)
  std::string path;             // image path (joined to data_dir), or an LMDB record's name (RecSampleSource::name)
  size_t index = 0;             // the sample actually loaded (differs from the request when replaced)
};

class RecDataset : public Dataset {
 public:
  // Replacement policy when a sample fails: `random_replacement` (training)
  // draws another index from the sample's seed; otherwise (evaluation) the
  // next index is tried, as PaddleOCR does in eval mode.
  RecDataset(std::shared_ptr<const RecSampleSource> source, RecTransformSpec transforms, bool random_replacement);
  // SimpleDataSet's samples as a RecLabelSource, then as above.
  RecDataset(std::vector<RecLabel> samples, RecTransformSpec transforms, bool random_replacement);
  // Reads the label files (read_rec_label_list), then as above.
  RecDataset(const RecLabelListSpec& list, RecTransformSpec transforms, bool random_replacement);

  size_t size() const override { return source_->size(); }
  const RecSampleSource& source() const { return *source_; }
  const RecTransformSpec& transforms() const { return transforms_; }

  // Loads sample `index`: DecodeImage -> RecConAug (when enabled: extra
  // samples drawn and joined with a stream derived from `rng_seed`) -> RecAug
  // (when enabled; random draws from `rng_seed` only) -> CTCLabelEncode (or
  // MultiLabelEncode: CTC + SAR labels) of the (joined) text -> RecResizeImg.
  // A sample whose
  // image is missing or undecodable, or whose label is rejected, is replaced
  // (attempt k uses data_seed({rng_seed, k})); every failure and every
  // dropped character is added to *stats. Throws Error only after
  // kMaxAttempts failures in a row (a data set that is broken as a whole).
  // Thread-safe: const and free of shared mutable state.
  // `shape` (3 x H x W): the RecResizeImg size for this sample instead of
  // transforms().image_shape (a multi-scale batch; MultiScaleDataSet resizes
  // the same way, after the other transforms).
  RecSample load(size_t index, uint64_t rng_seed, DataStats* stats) const;
  RecSample load(size_t index, uint64_t rng_seed, DataStats* stats, const std::array<int, 3>& shape) const;

  // load() as named tensors for the task-free loader: image (C x H x W
  // float), label (max_text_length int64), length and valid_ratio (scalars);
  // label_sar or label_gtc (max_text_length int64) after MultiLabelEncode.
  Sample load_sample(size_t index, uint64_t rng_seed, DataStats* stats) const override;
  // load_sample at 3 x height x width (MultiScaleSampler's batches).
  Sample load_sample_sized(size_t index, uint64_t rng_seed, DataStats* stats, int height, int width) const override;

  static constexpr int kMaxAttempts = 100;
  // DataStats::other key of samples MultiLabelEncode rejected for the SAR / NRTR label alone.
  static const char* const kSarTooLongReason;
  // DataStats::other key of samples whose label could not be read (an LMDB
  // record without its label key, or a damaged one).
  static const char* const kNoLabelReason;

 private:
  enum class Outcome { kOk, kMissing, kUndecodable, kTooLong, kEmpty, kSarTooLong, kNoLabel };
  Outcome try_load(size_t index, uint64_t rng_seed, const std::array<int, 3>& shape, RecSample* out,
                   long* dropped) const;
  Sample to_sample(RecSample r, const std::array<int, 3>& shape) const;
  // MultiLabelEncode's SAR or NRTR label of `label` into out->guide_label;
  // false when the text is too long for it.
  bool encode_guide(const CtcLabel& label, RecSample* out) const;
  // RecConAug on `part` (the decoded sample and its raw text); returns the
  // number of extra samples joined.
  int con_aug(RecConAugPart* part, uint64_t rng_seed) const;

  std::shared_ptr<const RecSampleSource> source_;
  RecTransformSpec transforms_;
  bool random_replacement_;
};

}  // namespace ocrforge
