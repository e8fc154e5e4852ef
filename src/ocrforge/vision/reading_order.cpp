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

// The page's skew: the median angle of the lines' top edges (lines wider
// than tall; photographed receipts are often a few degrees askew). Rows and
// white space are looked for on the page turned back by it.
float page_skew(const std::vector<Quad>& boxes) {
  std::vector<float> angles;
  for (const auto& q : boxes) {
    const float dx = q[1].x - q[0].x, dy = q[1].y - q[0].y;
    const float h = std::hypot(q[3].x - q[0].x, q[3].y - q[0].y);
    if (std::hypot(dx, dy) > 2 * h && dx > 0) angles.push_back(std::atan2(dy, dx));
  }
  const float a = median(angles);
  return std::abs(a) < 0.35f ? a : 0.f;  // beyond 20 degrees: not a skew to undo
}

Item item_of(Quad q, float skew) {
  const float c = std::cos(-skew), s = std::sin(-skew);
  for (auto& p : q) p = cv::Point2f(c * p.x - s * p.y, s * p.x + c * p.y);
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
      if (are_columns(left, right)) best = g;
    }
    return best;
  }

  // Two sides of a gap are columns read one after the other when both are
  // wide enough to hold running text and either both are filled with it
  // (typeset columns, whose lines may share a baseline grid) or their rows
  // do not pair up across the gap (two independent texts). A table or a
  // list of keys and values pairs its rows: it is read row by row.
  bool are_columns(const std::vector<size_t>& left, const std::vector<size_t>& right) const {
    const Side l = side_of(left), r = side_of(right);
    if (l.rows.size() < 3 || r.rows.size() < 3) return false;
    if (l.width < p_.column_min_width * line_h_ || r.width < p_.column_min_width * line_h_) return false;
    if (l.filled * 2 >= l.rows.size() && r.filled * 2 >= r.rows.size()) return true;
    const Side& fewer = l.rows.size() <= r.rows.size() ? l : r;
    const Side& other = &fewer == &l ? r : l;
    // Rows pair when their middles are within a quarter line of each other:
    // a table's cells share their line, while two independent texts meet
    // only by chance (about one row in three at ordinary line spacing).
    size_t paired = 0;
    for (const auto& [top, bottom] : fewer.extents)
      for (const auto& [t, b] : other.extents)
        if (std::abs((top + bottom) - (t + b)) / 2 < 0.25f * std::min(bottom - top, b - t)) {
          ++paired;
          break;
        }
    return paired < p_.column_pairing * fewer.rows.size();
  }

  struct Side {
    std::vector<LayoutRow> rows;
    std::vector<std::pair<float, float>> extents;  // each row's top and bottom
    float width = 0.f;
    size_t filled = 0;  // rows whose boxes cover column_fill of the width
  };

  Side side_of(const std::vector<size_t>& set) const {
    Side s;
    float x0 = items_[set[0]].x0, x1 = items_[set[0]].x1;
    for (size_t i : set) {
      x0 = std::min(x0, items_[i].x0);
      x1 = std::max(x1, items_[i].x1);
    }
    s.width = x1 - x0;
    s.rows = rows_of(set);
    for (const auto& row : s.rows) {
      float covered = 0.f, top = items_[row[0]].y0, bottom = items_[row[0]].y1;
      for (size_t i : row) {
        covered += items_[i].x1 - items_[i].x0;
        top = std::min(top, items_[i].y0);
        bottom = std::max(bottom, items_[i].y1);
      }
      if (covered >= p_.column_fill * s.width) ++s.filled;
      s.extents.emplace_back(top, bottom);
    }
    return s;
  }

  // Rows: boxes taken by centre height; a box joins a row whose mean centre
  // is within half a line height of its own and none of whose boxes it
  // overlaps horizontally (boxes stacked at one x are on different lines),
  // else starts one. Each row left to right; rows top to bottom.
  std::vector<LayoutRow> rows_of(const std::vector<size_t>& set) const {
    std::vector<size_t> order = set;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return items_[a].cy() != items_[b].cy() ? items_[a].cy() < items_[b].cy() : items_[a].x0 < items_[b].x0;
    });
    struct Row {
      LayoutRow members;
      float cy_sum = 0.f, h = 0.f;
      float cy() const { return cy_sum / static_cast<float>(members.size()); }
    };
    std::vector<Row> rows;
    for (size_t i : order) {
      const Item& it = items_[i];
      Row* home = nullptr;
      // Only the last few rows can be near: the boxes come top to bottom.
      for (size_t r = rows.size(); r-- > 0 && r + 4 >= rows.size();) {
        Row& row = rows[r];
        if (std::abs(it.cy() - row.cy()) > std::min(it.h, row.h) / 2) continue;
        bool stacked = false;
        for (size_t m : row.members) {
          const float overlap = std::min(it.x1, items_[m].x1) - std::max(it.x0, items_[m].x0);
          if (overlap > 0.3f * std::min(it.x1 - it.x0, items_[m].x1 - items_[m].x0)) stacked = true;
        }
        if (!stacked) {
          home = &row;
          break;
        }
      }
      if (!home) {
        rows.emplace_back();
        home = &rows.back();
        home->h = it.h;
      }
      home->members.push_back(i);
      home->cy_sum += it.cy();
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.cy() < b.cy(); });
    std::vector<LayoutRow> out;
    for (auto& row : rows) {
      std::sort(row.members.begin(), row.members.end(),
                [&](size_t a, size_t b) { return items_[a].x0 < items_[b].x0; });
      out.push_back(std::move(row.members));
    }
    return out;
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
  const float skew = page_skew(boxes);
  for (const auto& q : boxes) items.push_back(item_of(q, skew));
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
