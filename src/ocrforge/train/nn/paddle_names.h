// Where a module's state-dict names differ from PaddleOCR's for the same
// tensors. A module that implements this gives, relative to itself, which
// of its name prefixes PaddleOCR spells otherwise; pdparams_weights.h
// applies the pairs at whatever depth the module sits (a distillation
// member's "Student.neck." as well as a plain model's "neck."), when
// reading and when writing .pdparams files.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ocrforge {

class PaddleNames {
 public:
  virtual ~PaddleNames() = default;
  // (ocrforge prefix, PaddleOCR prefix) pairs, e.g. {"neck.", "head.ctc_encoder."};
  // the first pair whose prefix a name starts with applies.
  virtual std::vector<std::pair<std::string, std::string>> paddle_prefixes() const = 0;
};

}  // namespace ocrforge
