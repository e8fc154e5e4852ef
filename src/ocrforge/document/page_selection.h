// --pages: which pages of each document to read ("1-3,7", "5-": 1-based,
// ranges inclusive, an open end running to the last page).
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

class PageSelection {
 public:
  PageSelection() = default;  // every page
  // Throws UsageError naming --pages for a malformed list or page 0.
  static PageSelection parse(const std::string& spec);

  // The selected 0-based page indices of a document with `count` pages, in
  // ascending order, without duplicates; pages past the end are ignored.
  std::vector<int> pages_of(int count) const;
  bool all() const { return ranges_.empty(); }

 private:
  std::vector<std::pair<int, int>> ranges_;  // 1-based, inclusive; second 0 = to the end
};

}  // namespace ocrforge
