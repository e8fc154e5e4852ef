// PaddleOCR's inference flags (tools/infer/utility.py), shared by `ocr` and
// `infer det|cls|rec` as PaddleOCR shares one parser between its scripts.
#pragma once
#include "ocrforge/core/flags.h"
#include "ocrforge/infer/params.h"

namespace ocrforge {

void declare_ocr_flags(FlagSet& flags);
// Converts parsed flags to typed parameters once; throws UsageError naming
// the flag for bad or unsupported values.
OcrParams ocr_params_from_flags(const FlagSet& flags);

}  // namespace ocrforge
