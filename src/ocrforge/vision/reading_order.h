// Reading order and layout of a page's text lines: which lines form a block
// (a column segment), which blocks come first, how a block's lines form rows
// (boxes side by side on one visual line) and paragraphs.
//
// The page is cut recursively (an XY-cut): wide horizontal bands of white
// space split it into bands read top to bottom, and a vertical gutter with a
// column of running text on each side splits it into columns read left to
// right, whichever white space is wider first. A vertical gap is only a
// gutter when both sides hold text columns (most lines fill their side, and
// each side is several line heights wide): the gap between a receipt's item
// names and their prices, or a form's keys and values, is not one, so such
// pages read row by row as the labels of receipts and forms do.
#pragma once
#include <cstddef>
#include <vector>

#include "ocrforge/vision/text_box.h"

namespace ocrforge {

// Indices into the input boxes. A row: boxes on one visual line, left to
// right. A paragraph: rows top to bottom. A block: paragraphs in order.
using LayoutRow = std::vector<size_t>;
struct LayoutParagraph {
  std::vector<LayoutRow> rows;
};
struct LayoutBlock {
  std::vector<LayoutParagraph> paragraphs;
};

struct ReadingOrderParams {
  // White space between bands, as a multiple of the median line height,
  // above which a new block starts.
  float band_gap = 1.0f;
  // The least width of a gutter between columns (median line heights).
  float gutter = 0.8f;
  // A side of a gutter is a text column when it is at least this many line
  // heights wide and at least half of its lines span this share of its width.
  float column_min_width = 6.f;
  float column_fill = 0.5f;
  // Inside a block, a gap between rows above this multiple of the block's
  // median row gap (and above half a line height) starts a paragraph.
  float paragraph_gap = 1.8f;
};

// Every input index appears exactly once in the result. Boxes are quads in
// image pixels (any order of points is accepted: the axis-aligned extent is
// used). Empty input gives no blocks.
std::vector<LayoutBlock> reading_order(const std::vector<Quad>& boxes, const ReadingOrderParams& params = {});

// The indices of `blocks` flattened in reading order.
std::vector<size_t> reading_sequence(const std::vector<LayoutBlock>& blocks);

}  // namespace ocrforge
