// Reading order and layout of a page's text lines: which lines form a block
// (a column segment), which blocks come first, how a block's lines form rows
// (boxes side by side on one visual line) and paragraphs.
//
// Everything is measured on the page turned back by its skew (the median
// angle of its lines), so a receipt photographed askew still has rows.
// The page is cut recursively (an XY-cut): wide horizontal bands of white
// space split it into bands read top to bottom, and a vertical gutter with a
// column of running text on each side splits it into columns read left to
// right, whichever white space is wider first. A vertical gap is only a
// gutter between columns when both sides are wide enough for running text
// and they are either both filled with it or their rows do not pair up
// across the gap: the gap between a receipt's item names and their prices,
// or a form's keys and values, is not one, so such pages read row by row as
// the labels of receipts and forms do.
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
  // The two sides of a gutter are columns when each has three rows or more
  // and is at least column_min_width line heights wide, and either at least
  // half the rows of each span column_fill of its width, or fewer than
  // column_pairing of the rows of one side share a line with a row of the
  // other (a table pairs its rows across the gap).
  float column_min_width = 12.f;
  float column_fill = 0.5f;
  float column_pairing = 0.6f;
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
