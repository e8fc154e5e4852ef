// DetDataset: one sample through the detection transforms (det_dataset.h).
#include "ocrforge/train/tasks/det/det_dataset.h"

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"
#include "ocrforge/train/data/replacement.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"  // decode_image: the same DecodeImage as recognition

namespace ocrforge {

namespace {

std::vector<float> plane(const cv::Mat& m) {
  CV_Assert(m.type() == CV_32F && m.isContinuous());
  return std::vector<float>(m.ptr<float>(), m.ptr<float>() + m.total());
}

}  // namespace

void det_validate_regions(const std::vector<DetRegion>& regions, cv::Size image, std::vector<DetPolygon>* polys,
                          std::vector<bool>* ignore, DetDataStats* stats) {
  polys->clear();
  ignore->clear();
  for (const auto& r : regions) {
    DetPolygon poly;
    for (const auto& p : r.points) poly.emplace_back(p[0], p[1]);
    bool ign = r.ignore();
    if (det_clip_polygon(&poly, image)) ++stats->clipped;
    det_drop_repeated_points(&poly);
    if (!ign && (poly.size() < 3 || det_polygon_area(poly) < 1.0)) {
      ++stats->zero_area;
      ign = true;
    } else if (!ign && !polygon_is_valid(poly)) {
      ++stats->self_intersecting;
      ign = true;
    }
    polys->push_back(std::move(poly));
    ignore->push_back(ign);
  }
}

DetDataset::DetDataset(std::vector<DetLabel> samples, DetTransformSpec transforms, bool training)
    : samples_(std::move(samples)), transforms_(std::move(transforms)), training_(training) {
  if (samples_.empty()) throw Error("the detection data set holds no samples");
  if (transforms_.training != training_)
    throw Error(std::string("the detection transforms were read for ") + (transforms_.training ? "training" : "evaluation") +
                " but the data set is for " + (training_ ? "training" : "evaluation"));
}

DetDataset::DetDataset(const DetLabelListSpec& list, DetTransformSpec transforms, bool training)
    : DetDataset(read_det_label_list(list), std::move(transforms), training) {}

DetDataset::DetDataset(DetLabelList list, DetTransformSpec transforms, bool training)
    : DetDataset(std::move(list.samples), std::move(transforms), training) {
  label_stats_ = list.stats;
}

DetDataset::Outcome DetDataset::try_load(size_t index, uint64_t rng_seed, DetSample* out, DetDataStats* stats) const {
  const DetLabel& entry = samples_[index];
  cv::Mat img;
  const DecodeStatus ds = decode_image(entry.path, &img);
  if (ds == DecodeStatus::kMissing) return Outcome::kMissing;
  if (ds == DecodeStatus::kUndecodable) return Outcome::kUndecodable;
  if (entry.regions.empty()) {
    ++stats->no_text;
    if (training_) return Outcome::kNoText;
  }
  std::vector<DetPolygon> polys;
  std::vector<bool> ignore;
  det_validate_regions(entry.regions, img.size(), &polys, &ignore, stats);
  out->path = entry.path;
  out->index = index;
  const DetTransformSpec& t = transforms_;
  if (training_ && t.use_copy_paste) add_pasted_regions(rng_seed, &img, &polys, &ignore);
  if (training_) {
    DataRng rng(rng_seed);
    if (t.use_iaa) iaa_augment(t.iaa, rng, &img, &polys);
    if (t.use_crop) east_random_crop(t.crop, rng, &img, &polys, &ignore);
    if (t.use_resize) det_resize_with_polygons(t.resize_size, &img, &polys);
    cv::Mat tmap, tmask, smap, smask;
    make_border_map(img.size(), polys, ignore, t.border, &tmap, &tmask);
    make_shrink_map(img.size(), polys, ignore, t.shrink, &smap, &smask, stats);
    out->threshold_map = plane(tmap);
    out->threshold_mask = plane(tmask);
    out->shrink_map = plane(smap);
    out->shrink_mask = plane(smask);
  } else {
    out->src_h = img.rows;
    out->src_w = img.cols;
    const cv::Size target = det_eval_target_size(img.size(), t);
    cv::Mat resized;
    cv::resize(img, resized, target, 0, 0, cv::INTER_LINEAR);
    out->ratio_h = static_cast<float>(static_cast<double>(target.height) / img.rows);
    out->ratio_w = static_cast<float>(static_cast<double>(target.width) / img.cols);
    for (size_t i = 0; i < polys.size(); ++i) out->polygons.push_back({polys[i], ignore[i]});
    img = resized;
  }
  out->height = img.rows;
  out->width = img.cols;
  out->image = det_normalize_to_chw(img, t.normalize);
  return Outcome::kOk;
}

void DetDataset::add_pasted_regions(uint64_t rng_seed, cv::Mat* img, std::vector<DetPolygon>* polys,
                                    std::vector<bool>* ignore) const {
  // PaddleOCR's SimpleDataSet.get_ext_data: a random sample of the list
  // through DecodeImage + DetLabelEncode, drawn again while it fails to load
  // or holds no text. A stream of its own, so the other augmentations draw
  // the same numbers with and without CopyPaste.
  DataRng rng(data_seed({rng_seed, 0x436f70795061ULL}));  // "CopyPa"
  for (int attempt = 0; attempt < 10; ++attempt) {
    const DetLabel& other = samples_[rng.index(samples_.size())];
    if (other.regions.empty()) continue;
    cv::Mat ext;
    if (decode_image(other.path, &ext) != DecodeStatus::kOk) continue;
    std::vector<DetPolygon> ext_polys;
    std::vector<bool> ext_ignore;
    DetDataStats scratch;  // the other sample's own load counts it
    det_validate_regions(other.regions, ext.size(), &ext_polys, &ext_ignore, &scratch);
    copy_paste(transforms_.copy_paste, rng, ext, ext_polys, ext_ignore, img, polys, ignore);
    return;
  }
}

DetSample DetDataset::load(size_t index, uint64_t rng_seed, DetDataStats* stats) const {
  if (index >= samples_.size())
    throw Error("DetDataset::load: index " + std::to_string(index) + " out of range (size " +
                std::to_string(samples_.size()) + ")");
  DetDataStats local;
  size_t current = index;
  std::string last_problem;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const LoadAttempt a = load_attempt(rng_seed, attempt, current, samples_.size(), training_);
    const uint64_t seed = a.seed;
    current = a.index;
    DetSample sample;
    const Outcome o = try_load(current, seed, &sample, &local);
    if (o == Outcome::kOk) {
      if (stats) *stats += local;
      return sample;
    }
    switch (o) {
      case Outcome::kMissing: ++local.missing_images; last_problem = "image missing"; break;
      case Outcome::kUndecodable: ++local.undecodable; last_problem = "image not decodable"; break;
      default: ++local.no_text_replaced; last_problem = "no text region in the label"; break;
    }
    last_problem = "'" + samples_[current].path + "': " + last_problem;
  }
  if (stats) *stats += local;
  throw Error(std::to_string(kMaxAttempts) + " detection samples in a row failed to load (last " + last_problem +
              "); check data_dir and the label files");
}

}  // namespace ocrforge
