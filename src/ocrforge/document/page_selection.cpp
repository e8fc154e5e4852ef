#include "ocrforge/document/page_selection.h"

#include <algorithm>
#include <cctype>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

int page_number(const std::string& s, const std::string& spec) {
  const std::string t = trim(s);
  if (t.empty() || !std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); }) || t.size() > 9)
    throw UsageError("--pages '" + spec + "': '" + t + "' is not a page number (write e.g. 1-3,7 or 5-)");
  const int n = std::stoi(t);
  if (n < 1) throw UsageError("--pages '" + spec + "': pages are numbered from 1");
  return n;
}

}  // namespace

PageSelection PageSelection::parse(const std::string& spec) {
  PageSelection sel;
  if (trim(spec).empty()) return sel;
  for (const std::string& part : split(spec, ',')) {
    const size_t dash = part.find('-');
    if (dash == std::string::npos) {
      const int n = page_number(part, spec);
      sel.ranges_.emplace_back(n, n);
      continue;
    }
    const int first = page_number(part.substr(0, dash), spec);
    const std::string rest = trim(part.substr(dash + 1));
    const int last = rest.empty() ? 0 : page_number(rest, spec);
    if (last != 0 && last < first)
      throw UsageError("--pages '" + spec + "': the range '" + trim(part) + "' runs backwards");
    sel.ranges_.emplace_back(first, last);
  }
  return sel;
}

std::vector<int> PageSelection::pages_of(int count) const {
  std::vector<int> out;
  if (ranges_.empty()) {
    for (int i = 0; i < count; ++i) out.push_back(i);
    return out;
  }
  for (const auto& [first, last] : ranges_)
    for (int p = first; p <= (last == 0 ? count : std::min(last, count)); ++p) out.push_back(p - 1);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace ocrforge
