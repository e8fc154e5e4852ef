// RecDataset: transforms one sample, replacing failures (rec_dataset.h).
#include "ocrforge/train/tasks/rec/rec_dataset.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"
#include "ocrforge/train/data/replacement.h"
#include "ocrforge/train/tasks/rec/nrtr_label_encode.h"
#include "ocrforge/train/tasks/rec/sar_label_encode.h"

namespace ocrforge {

const char* const RecDataset::kSarTooLongReason =
    "texts too long for MultiLabelEncode's SAR / NRTR label (max_text_length - 2 characters at most; replaced)";

const char* const RecDataset::kNoLabelReason = "samples without a readable label (LMDB records; replaced)";

RecDataset::RecDataset(std::shared_ptr<const RecSampleSource> source, RecTransformSpec transforms,
                       bool random_replacement)
    : source_(std::move(source)), transforms_(std::move(transforms)), random_replacement_(random_replacement) {
  if (!source_ || source_->size() == 0) throw Error("the recognition data set holds no samples");
  if (transforms_.max_text_length <= 0) throw Error("max_text_length must be positive");
}

RecDataset::RecDataset(std::vector<RecLabel> samples, RecTransformSpec transforms, bool random_replacement)
    : RecDataset(std::make_shared<RecLabelSource>(std::move(samples)), std::move(transforms), random_replacement) {}

RecDataset::RecDataset(const RecLabelListSpec& list, RecTransformSpec transforms, bool random_replacement)
    : RecDataset(read_rec_label_list(list), std::move(transforms), random_replacement) {}

namespace {

// Salt of RecConAug's random stream: a stream of its own (not RecAug's
// DataRng(rng_seed)), so listing RecConAug leaves RecAug's draws unchanged.
constexpr uint64_t kConAugSalt = 0x636f6e63ULL;  // "conc"

}  // namespace

int RecDataset::con_aug(RecConAugPart* part, uint64_t rng_seed) const {
  DataRng rng(data_seed({rng_seed, kConAugSalt}));
  // An extra sample is drawn uniformly from the whole data set and decoded
  // alone (PaddleOCR: transforms before ext_op_transform_idx = DecodeImage);
  // its label is used raw. One that cannot be read is skipped and another
  // drawn, as PaddleOCR does, without counting it in DataStats (it is not a
  // training sample). After kMaxAttempts failed draws the step ends.
  const auto next_ext = [&](RecConAugPart* ext) {
    for (int tries = 0; tries < kMaxAttempts; ++tries) {
      const size_t j = rng.index(source_->size());
      if (!source_->text(j, &ext->text)) continue;
      if (source_->image(j, &ext->image) != DecodeStatus::kOk) continue;
      return true;
    }
    return false;
  };
  return rec_con_aug(part, transforms_.con_aug, rng, next_ext);
}

bool RecDataset::encode_guide(const CtcLabel& label, RecSample* out) const {
  if (!transforms_.multi_label_encode) return true;
  const std::vector<int64_t> text(label.label.begin(), label.label.begin() + label.length);
  const int max_len = transforms_.max_text_length;
  out->guide_label = transforms_.nrtr_labels
                         ? nrtr_label_from_ctc(text, transforms_.charset.num_classes() - 1, max_len)
                         : sar_label_from_ctc(text, sar_classes(transforms_.charset), max_len);
  return !out->guide_label.empty();
}

RecDataset::Outcome RecDataset::try_load(size_t index, uint64_t rng_seed, const std::array<int, 3>& shape,
                                         RecSample* out, long* dropped) const {
  // The label first: a rejected label costs no image decode.
  std::string text;
  if (!source_->text(index, &text)) return Outcome::kNoLabel;
  CtcLabel label = ctc_label_encode(text, transforms_.charset, transforms_.max_text_length);
  *dropped += label.dropped_chars;
  if (label.status == LabelStatus::kTooLong) return Outcome::kTooLong;
  if (label.status == LabelStatus::kEmpty) return Outcome::kEmpty;
  // MultiLabelEncode drops what either of its encoders rejects (PaddleOCR).
  if (!encode_guide(label, out)) return Outcome::kSarTooLong;

  cv::Mat img;
  const DecodeStatus ds = source_->image(index, &img);
  if (ds == DecodeStatus::kMissing) return Outcome::kMissing;
  if (ds == DecodeStatus::kUndecodable) return Outcome::kUndecodable;
  if (transforms_.use_con_aug) {
    RecConAugPart part{img, text};
    if (con_aug(&part, rng_seed) > 0) {
      // The joined raw text is what the label step encodes (PaddleOCR's
      // order); with RecConAug's own max_text_length above Global's it can
      // be rejected like any too long label (it cannot be empty: the
      // sample's own text kept a character). The sample's own dropped
      // characters were counted above: add the extra samples' only.
      img = part.image;
      const long own_dropped = label.dropped_chars;
      label = ctc_label_encode(part.text, transforms_.charset, transforms_.max_text_length);
      if (label.status != LabelStatus::kOk) return Outcome::kTooLong;
      *dropped += label.dropped_chars - own_dropped;
      if (!encode_guide(label, out)) return Outcome::kSarTooLong;
    }
  }
  if (transforms_.use_aug) {
    DataRng rng(rng_seed);
    img = rec_aug(img, transforms_.aug, rng);
  }
  std::array<int, 3> sized = shape;
  if (transforms_.keep_wide_lines) sized[2] = eval_mode_width(img, shape);
  out->width = sized[2];
  out->image.assign(static_cast<size_t>(sized[0]) * sized[1] * sized[2], 0.0f);
  out->valid_ratio = rec_resize_img(img, sized, out->image.data());
  out->label = std::move(label.label);
  out->length = label.length;
  out->text = std::move(label.text);
  out->path = source_->name(index);
  out->index = index;
  return Outcome::kOk;
}

RecSample RecDataset::load(size_t index, uint64_t rng_seed, DataStats* stats) const {
  return load(index, rng_seed, stats, transforms_.image_shape);
}

RecSample RecDataset::load(size_t index, uint64_t rng_seed, DataStats* stats, const std::array<int, 3>& shape) const {
  if (shape[0] != 3 || shape[1] <= 0 || shape[2] <= 0)
    throw Error("RecDataset::load: image shape must be 3 x H x W with H, W > 0");
  if (index >= source_->size())
    throw Error("RecDataset::load: index " + std::to_string(index) + " out of range (size " +
                std::to_string(source_->size()) + ")");
  DataStats local;
  size_t current = index;
  std::string last_problem;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const LoadAttempt a = load_attempt(rng_seed, attempt, current, source_->size(), random_replacement_);
    const uint64_t seed = a.seed;
    current = a.index;
    RecSample sample;
    const Outcome o = try_load(current, seed, shape, &sample, &local.dropped_chars);
    switch (o) {
      case Outcome::kOk:
        if (stats) *stats += local;
        return sample;
      case Outcome::kMissing: ++local.missing_images; last_problem = "image missing"; break;
      case Outcome::kUndecodable: ++local.undecodable; last_problem = "image not decodable"; break;
      case Outcome::kTooLong: ++local.too_long; last_problem = "label longer than max_text_length"; break;
      case Outcome::kEmpty: ++local.empty_label; last_problem = "label empty after dropping unknown characters"; break;
      case Outcome::kSarTooLong:
        ++local.other[kSarTooLongReason];
        last_problem = "label of max_text_length - 1 or more characters (MultiLabelEncode's SAR / NRTR label)";
        break;
      case Outcome::kNoLabel:
        ++local.other[kNoLabelReason];
        last_problem = "no readable label";
        break;
    }
    last_problem = "'" + source_->name(current) + "': " + last_problem;
  }
  if (stats) *stats += local;
  throw Error(std::to_string(kMaxAttempts) + " samples in a row failed to load (last " + last_problem +
              "); check data_dir, the label files and the character dictionary");
}

}  // namespace ocrforge

namespace ocrforge {

Sample RecDataset::load_sample(size_t index, uint64_t rng_seed, DataStats* stats) const {
  return to_sample(load(index, rng_seed, stats), transforms_.image_shape);
}

Sample RecDataset::load_sample_sized(size_t index, uint64_t rng_seed, DataStats* stats, int height, int width) const {
  const std::array<int, 3> shape{3, height, width};
  return to_sample(load(index, rng_seed, stats, shape), shape);
}

Sample RecDataset::to_sample(RecSample r, const std::array<int, 3>& shape) const {
  Sample s;
  s.tensors["image"] = torch::from_blob(r.image.data(), {shape[0], shape[1], r.width}, torch::kFloat32).clone();
  s.tensors["label"] = torch::from_blob(r.label.data(), {static_cast<int64_t>(r.label.size())}, torch::kInt64).clone();
  s.tensors["length"] = torch::tensor(r.length, torch::kInt64);
  s.tensors["valid_ratio"] = torch::tensor(r.valid_ratio, torch::kFloat32);
  if (!r.guide_label.empty())
    s.tensors[transforms_.nrtr_labels ? "label_gtc" : "label_sar"] =
        torch::from_blob(r.guide_label.data(), {static_cast<int64_t>(r.guide_label.size())}, torch::kInt64).clone();
  s.text = std::move(r.text);
  s.path = std::move(r.path);
  return s;
}

}  // namespace ocrforge
