// One detection sample: a document- or scene-like picture with several text
// lines at varied sizes and angles, and one tight 4-point polygon per line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/synth/params.h"
#include "ocrforge/synth/render_rec.h"

namespace ocrforge {

struct DetLine {
  std::string text;                 // the line's text (UTF-8)
  std::vector<cv::Point2f> quad;    // ink corners, clockwise from the text's top-left, image pixels
  bool ignore = false;              // too small to read: labelled "###"
  size_t font = 0;
};

struct SynthDetSample {
  cv::Mat image;  // BGR 8-bit
  std::vector<DetLine> lines;
  int jpeg_quality = 90;
};

// Sample `index` of the set: a pure function of (params, sources, index).
// The quads are the rendered ink rectangles mapped through the same
// rotation and perspective as the pixels, so they are tight around the text.
SynthDetSample render_det_sample(const SynthDetParams& p, const SynthSources& src, FontRenderers& fonts,
                            uint64_t index);

}  // namespace ocrforge
