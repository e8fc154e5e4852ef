// One recognition sample: a word or short line cropped like a detector crop
// (text 62-80% of the height, a few pixels of margin), at a fixed height.
#pragma once
#include <cstdint>
#include <string>

#include <opencv2/core.hpp>

#include "ocrforge/synth/background.h"
#include "ocrforge/synth/corpus.h"
#include "ocrforge/synth/fonts.h"
#include "ocrforge/synth/params.h"

namespace ocrforge {

struct SynthRecSample {
  cv::Mat image;        // BGR 8-bit, height = SynthRecParams::height
  std::string text;     // the label (UTF-8), only alphabet characters
  size_t font = 0;      // index into the FontSet
  int jpeg_quality = 90;
};

// Everything a sample needs that is shared, read-only, between workers.
struct SynthSources {
  const FontSet& fonts;
  const TextSource& text;
  const Backgrounds& backgrounds;
};

// Sample `index` of the set: a pure function of (params, sources, index);
// `fonts` is the calling worker's renderer cache.
SynthRecSample render_rec_sample(const SynthRecParams& p, const SynthSources& src, FontRenderers& fonts,
                            uint64_t index);

}  // namespace ocrforge
