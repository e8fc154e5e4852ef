#include "ocrforge/vision/reading_order.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ocrforge {

namespace {

struct Item {
  float x0, y0, x1, y1;  // axis-aligned extent
  float h;               // line height (across the text direction)
  float cy() const { return (y0 + y1) / 2; }
};

float median(std::vector<float> v) {
  if (v.empty()) return 0.f;
  const size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(m), v.end());
  return v[m];
}

Item item_of(const Quad& q) {
  Item it{q[0].x, q[0].y, q[0].x, q[0].y, 0.f};
  for (const auto& p : q) {
    it.x0 = std::min(it.x0, p.x);
    it.y0 = std::min(it.y0, p.y);
    it.x1 = std::max(it.x1, p.x);
    it.y1 = std::max(it.y1, p.y);
  }
  const auto len = [](const cv::Point2f& a, const cv::Point2f& b) { return std::hypot(a.x - b.x, a.y - b.y); };
  const float w = (len(q[0], q[1]) + len(q[3], q[2])) / 2, h = (len(q[0], q[3]) + len(q[1], q[2])) / 2;
  it.h = std::max(1.f, std::min(w, h));  // a vertical line's height is its width
  return it;
}

// A gap of white space along one axis: items below `at` lie before it.
struct Gap {
  float at = 0.f, size = 0.f;
};

// Gaps between the intervals [lo, hi) of `set` along an axis, in order.
template <typename Lo, typename Hi>
std::vector<Gap> gaps_along(const std::vector<size_t>& set, Lo lo, Hi hi) {
  std::vector<std::pair<float, float>> spans;
  for (size_t i : set) spans.emplace_back(lo(i), hi(i));
  std::sort(spans.begin(), spans.end());
  std::vector<Gap> gaps;
  float reach = spans.empty() ? 0.f : spans[0].second;
  for (size_t k = 1; k < spans.size(); ++k) {
    if (spans[k].first > reach) gaps.push_back({(reach + spans[k].first) / 2, spans[k].first - reach});
    reach = std::max(reach, spans[k].second);
  }
  return gaps;
}

class Segmenter {
 public:
  Segmenter(std::vector<Item> items, const ReadingOrderParams& p) : items_(std::move(items)), p_(p) {
    std::vector<float> hs;
    for (const auto& it : items_) hs.push_back(it.h);
    line_h_ = std::max(1.f, median(hs));
  }

  void segment(const std::vector<size_t>& set, std::vector<LayoutBlock>& out) const {
    if (set.size() <= 1) {
      if (!set.empty()) out.push_back(block_of(set));
      return;
    }
    // Vertical extents shrink by a sixth of their height on each side, so a
    // slightly skewed page still shows the white space between its lines.
    const auto bands = gaps_along(
        set, [&](size_t i) { return items_[i].y0 + items_[i].h / 6; },
        [&](size_t i) { return std::max(items_[i].y0 + items_[i].h / 6, items_[i].y1 - items_[i].h / 6); });
    // The shrinking added a third of a line height to every gap: take it off.
    float widest_band = 0.f;
    for (Gap& g : bands_real(bands)) widest_band = std::max(widest_band, g.size);
    const Gap gutter = best_gutter(set);
    if (gutter.size > 0.f && gutter.size >= widest_band) {
      std::vector<size_t> left, right;
      for (size_t i : set) (items_[i].x1 <= gutter.at ? left : right).push_back(i);
      segment(left, out);
      segment(right, out);
      return;
    }
    std::vector<float> cuts;
    for (const Gap& g : bands_real(bands))
      if (g.size > p_.band_gap * line_h_) cuts.push_back(g.at);
    if (cuts.empty()) {
      out.push_back(block_of(set));
      return;
    }
    std::vector<std::vector<size_t>> parts(cuts.size() + 1);
    for (size_t i : set) {
      const float c = items_[i].cy();
      parts[static_cast<size_t>(std::upper_bound(cuts.begin(), cuts.end(), c) - cuts.begin())].push_back(i);
    }
    for (const auto& part : parts) segment(part, out);
  }

 private:
  std::vector<Gap> bands_real(std::vector<Gap> gaps) const {
    for (Gap& g : gaps) g.size = std::max(0.f, g.size - line_h_ / 3);
    return gaps;
  }

  // The widest vertical gap of `set` that separates two text columns; size 0
  // when there is none.
  Gap best_gutter(const std::vector<size_t>& set) const {
    Gap best;
    for (const Gap& g : gaps_along(
             set, [&](size_t i) { return items_[i].x0; }, [&](size_t i) { return items_[i].x1; })) {
      if (g.size < p_.gutter * line_h_ || g.size <= best.size) continue;
      std::vector<size_t> left, right;
      for (size_t i : set) (items_[i].x1 <= g.at ? left : right).push_back(i);
      if (is_column(left) && is_column(right)) best = g;
    }
    return best;
  }

  bool is_column(const std::vector<size_t>& side) const {
    if (side.size() < 2) return false;
    float x0 = items_[side[0]].x0, x1 = items_[side[0]].x1;
    for (size_t i : side) {
      x0 = std::min(x0, items_[i].x0);
      x1 = std::max(x1, items_[i].x1);
    }
    const float width = x1 - x0;
    if (width < p_.column_min_width * line_h_) return false;
    // Boxes on one row count together: a column's line may be cut in pieces.
    size_t filled = 0;
    const auto rows = rows_of(side);
    for (const auto& row : rows) {
      float covered = 0.f;
      for (size_t i : row) covered += items_[i].x1 - items_[i].x0;
      if (covered >= p_.column_fill * width) ++filled;
    }
    return filled * 2 >= rows.size();
  }

  // Rows: boxes sorted by centre height, a box joining the current row when
  // its centre lies within the row's vertical extent shrunk by a quarter
  // line; each row then left to right; rows top to bottom.
  std::vector<LayoutRow> rows_of(const std::vector<size_t>& set) const {
    std::vector<size_t> order = set;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return items_[a].cy() != items_[b].cy() ? items_[a].cy() < items_[b].cy() : items_[a].x0 < items_[b].x0;
    });
    std::vector<LayoutRow> rows;
    float top = 0.f, bottom = 0.f;
    for (size_t i : order) {
      const Item& it = items_[i];
      const float margin = std::min(it.h, bottom - top) / 4;
      if (!rows.empty() && it.cy() >= top + margin && it.cy() <= bottom - margin) {
        rows.back().push_back(i);
        top = std::min(top, it.y0);
        bottom = std::max(bottom, it.y1);
        continue;
      }
      rows.push_back({i});
      top = it.y0;
      bottom = it.y1;
    }
    for (auto& row : rows)
      std::sort(row.begin(), row.end(), [&](size_t a, size_t b) { return items_[a].x0 < items_[b].x0; });
    return rows;
  }

  // A block: its rows, split into paragraphs where the white space between
  // two rows is well above the block's usual spacing.
  LayoutBlock block_of(const std::vector<size_t>& set) const {
    const auto rows = rows_of(set);
    std::vector<float> tops, bottoms, gaps;
    for (const auto& row : rows) {
      float t = items_[row[0]].y0, b = items_[row[0]].y1;
      for (size_t i : row) {
        t = std::min(t, items_[i].y0);
        b = std::max(b, items_[i].y1);
      }
      tops.push_back(t);
      bottoms.push_back(b);
    }
    for (size_t k = 1; k < rows.size(); ++k) gaps.push_back(tops[k] - bottoms[k - 1]);
    const float usual = std::max(0.f, median(gaps));
    const float limit = std::max(line_h_ / 2, p_.paragraph_gap * usual);
    LayoutBlock block;
    for (size_t k = 0; k < rows.size(); ++k) {
      if (k == 0 || tops[k] - bottoms[k - 1] > limit) block.paragraphs.emplace_back();
      block.paragraphs.back().rows.push_back(rows[k]);
    }
    return block;
  }

  std::vector<Item> items_;
  ReadingOrderParams p_;
  float line_h_ = 1.f;
};

}  // namespace

std::vector<LayoutBlock> reading_order(const std::vector<Quad>& boxes, const ReadingOrderParams& params) {
  std::vector<Item> items;
  items.reserve(boxes.size());
  for (const auto& q : boxes) items.push_back(item_of(q));
  std::vector<size_t> all(boxes.size());
  std::iota(all.begin(), all.end(), size_t{0});
  std::vector<LayoutBlock> blocks;
  Segmenter(std::move(items), params).segment(all, blocks);
  return blocks;
}

std::vector<size_t> reading_sequence(const std::vector<LayoutBlock>& blocks) {
  std::vector<size_t> seq;
  for (const auto& b : blocks)
    for (const auto& p : b.paragraphs)
      for (const auto& r : p.rows) seq.insert(seq.end(), r.begin(), r.end());
  return seq;
}

}  // namespace ocrforge
