// Where a recognition data set's samples come from: SimpleDataSet's label
// files (image files on disk, RecLabelSource here) or LMDBDataSet's
// environments (image bytes in the database, rec_lmdb_source.h). RecDataset
// runs the same transforms and the same replacement of bad samples on both.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/core/label_file.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"

namespace ocrforge {

class RecSampleSource {
 public:
  virtual ~RecSampleSource() = default;
  virtual size_t size() const = 0;
  // Sample i's label text, raw (CTCLabelEncode comes later); false when the
  // sample has none that can be read (an LMDB record without its label).
  // Never throws for a bad sample: the data set replaces it.
  virtual bool text(size_t i, std::string* text) const = 0;
  // Sample i's image, decoded as DecodeImage does (rec_transforms.h).
  virtual DecodeStatus image(size_t i, cv::Mat* bgr) const = 0;
  // What names sample i in messages and in a batch's paths.
  virtual std::string name(size_t i) const = 0;
};

// SimpleDataSet's samples: image paths (already joined to data_dir) and texts.
class RecLabelSource : public RecSampleSource {
 public:
  // Throws Error when `labels` is empty.
  explicit RecLabelSource(std::vector<RecLabel> labels);
  size_t size() const override { return labels_.size(); }
  bool text(size_t i, std::string* text) const override;
  DecodeStatus image(size_t i, cv::Mat* bgr) const override;
  std::string name(size_t i) const override { return labels_.at(i).path; }

 private:
  std::vector<RecLabel> labels_;
};

}  // namespace ocrforge
