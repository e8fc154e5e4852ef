// PaddleOCR's inference flags (tools/infer/utility.py), shared by `ocr` and
// `infer det|cls|rec` as PaddleOCR shares one parser between its scripts.
#pragma once
#include <cstdint>

#include "ocrforge/core/flags.h"
#include "ocrforge/infer/params.h"

namespace ocrforge {

void declare_ocr_flags(FlagSet& flags);
// How images are read (see read_image): the JPEG reduction follows
// --det_max_side_limit; --max_image_pixels caps decoded pixels (0 = no cap).
struct ImageReadParams {
  int max_side = 4000;
  int64_t max_pixels = 0;
};
ImageReadParams image_read_params_from_flags(const FlagSet& flags);

// Converts parsed flags to typed parameters once; throws UsageError naming
// the flag for bad or unsupported values (every numeric flag is range
// checked: sizes >= 1, thresholds and scores in [0, 1], the unclip ratio > 0).
OcrParams ocr_params_from_flags(const FlagSet& flags);

}  // namespace ocrforge
