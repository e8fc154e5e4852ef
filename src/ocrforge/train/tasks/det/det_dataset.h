// PaddleOCR's SimpleDataSet for DB detection: a sample list plus the typed
// transforms (det_transforms.h). Loading never throws for a bad sample: it
// is replaced by another one and counted (DetDataStats), as PaddleOCR
// replaces; bad polygons are clipped or ignored and counted.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ocrforge/core/label_file.h"
#include "ocrforge/train/tasks/det/det_data_stats.h"
#include "ocrforge/train/tasks/det/det_label_list.h"
#include "ocrforge/train/tasks/det/det_transforms.h"
#include "ocrforge/vision/det_metric.h"

namespace ocrforge {

// One transformed sample. Every plane is row-major H x W float32.
struct DetSample {
  std::vector<float> image;  // 3 x height x width (CHW, BGR), NormalizeImage'd
  int height = 0, width = 0;
  // Training only (empty in evaluation), each height x width:
  std::vector<float> threshold_map;   // in [thresh_min, thresh_max]
  std::vector<float> threshold_mask;  // 1 inside the grown cared-for polygons, else 0
  std::vector<float> shrink_map;      // 1 inside the shrunk cared-for polygons, else 0
  std::vector<float> shrink_mask;     // 0 over ignored / too small polygons, else 1
  // Evaluation only (PaddleOCR's shape = [src_h, src_w, ratio_h, ratio_w], polys, ignore_tags):
  int src_h = 0, src_w = 0;
  float ratio_h = 1.f, ratio_w = 1.f;  // network input size / source size
  std::vector<DetGtPolygon> polygons;  // source-image pixels (clipped into it), "###" etc. ignored
  std::string path;                    // image path (joined to data_dir)
  size_t index = 0;                    // the sample actually loaded (differs from the request when replaced)
};

class DetDataset {
 public:
  // `training`: the transforms' training pipeline (spec.training must agree),
  // failed samples replaced by a random one (from the request's seed), and
  // images without text replaced (PaddleOCR's DetLabelEncode returns None).
  // Otherwise the next sample replaces a failed one and images without text
  // are kept (their detections count as false positives).
  // Throws Error for an empty list or a spec built for the other mode.
  DetDataset(std::vector<DetLabel> samples, DetTransformSpec transforms, bool training);
  // Reads the label files (read_det_label_list); label_stats() keeps what it skipped.
  DetDataset(const DetLabelListSpec& list, DetTransformSpec transforms, bool training);

  size_t size() const { return samples_.size(); }
  const DetLabel& entry(size_t i) const { return samples_.at(i); }
  const DetTransformSpec& transforms() const { return transforms_; }
  bool training() const { return training_; }
  // invalid_lines and few_points from reading the label files (zero when
  // constructed from samples).
  const DetDataStats& label_stats() const { return label_stats_; }

  // Loads sample `index`; every random draw comes from `rng_seed` (attempt k
  // of a replacement uses data_seed({rng_seed, k})), so a sample depends only
  // on (rng_seed, index). Adds per-load counts to *stats (may be null).
  // Throws Error only after kMaxAttempts failures in a row.
  // Thread-safe: const and free of shared mutable state.
  DetSample load(size_t index, uint64_t rng_seed, DetDataStats* stats) const;

  static constexpr int kMaxAttempts = 100;

 private:
  DetDataset(DetLabelList list, DetTransformSpec transforms, bool training);
  enum class Outcome { kOk, kMissing, kUndecodable, kNoText };
  Outcome try_load(size_t index, uint64_t rng_seed, DetSample* out, DetDataStats* stats) const;
  // CopyPaste: regions of another sample of the list pasted into *img.
  void add_pasted_regions(uint64_t rng_seed, cv::Mat* img, std::vector<DetPolygon>* polys,
                          std::vector<bool>* ignore) const;

  std::vector<DetLabel> samples_;
  DetTransformSpec transforms_;
  bool training_;
  DetDataStats label_stats_;
};

// The label's regions as polygons in `image` pixels: points clipped into the
// image (clipped), repeated points dropped; a cared-for region with fewer
// than 3 distinct points or |area| < 1 is ignored (zero_area), one whose
// edges cross is ignored (self_intersecting). Counts go to *stats.
void det_validate_regions(const std::vector<DetRegion>& regions, cv::Size image, std::vector<DetPolygon>* polys,
                          std::vector<bool>* ignore, DetDataStats* stats);

}  // namespace ocrforge
