// One OCR'd page as the document outputs (hOCR, ALTO, TSV, text, PDF) see
// it: blocks of paragraphs of lines of words, in reading order, with boxes
// in page-image pixels.
#pragma once
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/vision/reading_order.h"

namespace ocrforge {

// Axis-aligned box, pixels: [x0, x1) x [y0, y1).
struct PixelBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int width() const { return x1 - x0; }
  int height() const { return y1 - y0; }
};

struct DocWord {
  std::string text;
  Quad quad;        // as found (may be rotated), clockwise from the word's top-left
  PixelBox box;     // its extent, clipped to the page
  float conf = 0.f; // 0-100, Tesseract's scale
};

struct DocLine {
  std::vector<DocWord> words;  // left to right
  PixelBox box;
  // hOCR's baseline: slope (dy/dx) and offset of the baseline at the box's
  // left edge from its bottom (pixels, negative = above the bottom).
  double baseline_slope = 0.0;
  int baseline_offset = 0;
};

struct DocParagraph {
  std::vector<DocLine> lines;
  PixelBox box;
};

struct DocBlock {
  std::vector<DocParagraph> paragraphs;
  PixelBox box;
};

// Where a page came from and at what resolution it was read.
struct PageInfo {
  std::string image_name;      // hOCR's `image`, ALTO's fileName: the input file
  int index = 0;               // 0-based page number within the input file
  cv::Size size;               // page image, pixels
  double dpi_x = 300.0, dpi_y = 300.0;
};

struct DocPage {
  PageInfo info;
  std::vector<DocBlock> blocks;
};

// Lays out `result` (OcrParams::word_boxes on, so its lines carry words):
// reading_order groups the lines into blocks, paragraphs and rows, and each
// row becomes one DocLine holding the words of its lines. A line without
// words (word_boxes off) becomes one word with the line's box.
DocPage build_page(const OcrResult& result, const PageInfo& info, const ReadingOrderParams& order = {});

// The page's text in reading order: a row's words joined by spaces, one row
// per line, a blank line after each paragraph.
std::string page_text(const DocPage& page);

}  // namespace ocrforge
