// SimpleDataSet's sample source (rec_sample_source.h).
#include "ocrforge/train/tasks/rec/rec_sample_source.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

RecLabelSource::RecLabelSource(std::vector<RecLabel> labels) : labels_(std::move(labels)) {
  if (labels_.empty()) throw Error("the recognition data set holds no samples");
}

bool RecLabelSource::text(size_t i, std::string* text) const {
  *text = labels_.at(i).text;
  return true;
}

DecodeStatus RecLabelSource::image(size_t i, cv::Mat* bgr) const { return decode_image(labels_.at(i).path, bgr); }

}  // namespace ocrforge
