// One per Python PaddleOCR object: its pipeline pools, one per parameter set.
// Parameters arrive as `ocrforge ocr` flags ("--det_db_box_thresh=0.5") and
// are converted by the library's ocr_params_from_flags (and
// document_read_params_from_flags), so a keyword means
// in Python exactly what the flag means on the command line (same ranges,
// same messages). Per-call variants (ocr(cls=False), predict(text_det_*))
// get their own pool the first time they are used.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pipeline_pool.h"

namespace ocrforge::python {

class Engine {
 public:
  // The pool of this flag set, created (models loaded) on first use.
  // Throws UsageError for a bad flag value, Error for a missing model.
  std::shared_ptr<PipelinePool> pool(const std::vector<std::string>& flags);
  size_t pools() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<PipelinePool>> pools_;
};

}  // namespace ocrforge::python
