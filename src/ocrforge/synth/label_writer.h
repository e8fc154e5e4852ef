// Output files of the generators, in PaddleOCR's formats:
//   <out>/images/00000042.jpg     one image per sample, named by index
//   <out>/rec_gt.txt              "images/00000042.jpg<TAB>text"
//   <out>/det_gt.txt              "images/00000042.jpg<TAB>[{"transcription": "...", "points": [[x, y], ...]}]"
// Paths in label files are relative to <out> (PaddleOCR's data_dir).
#pragma once
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/synth/render_det.h"

namespace ocrforge {

// Creates <out>/images and checks that files can be written there; throws
// Error naming the folder otherwise (before any sample is drawn).
void prepare_output_dir(const std::string& out_dir);

// "images/00000042.jpg"
std::string sample_relative_path(long index, const std::string& ext);

// Encodes and writes an image (JPEG at `jpeg_quality`, or PNG by extension);
// throws Error naming the file when it cannot be written.
void write_sample_image(const std::string& path, const cv::Mat& image, int jpeg_quality);

std::string rec_label_line(const std::string& rel_path, const std::string& text);
// Points rounded to integers and clamped into the image (PaddleOCR's labels
// hold integers); "###" for ignored lines.
std::string det_label_line(const std::string& rel_path, const std::vector<DetLine>& lines, cv::Size image_size);

// Writes `lines` (each without its newline) to `path` atomically: a
// temporary file beside it, then rename, so a reader never sees half a file.
void write_label_file(const std::string& path, const std::vector<std::string>& lines);

}  // namespace ocrforge
