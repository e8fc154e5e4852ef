// Label files, line by line: PaddleOCR's recognition lines (path \t text),
// detection lines (path \t JSON of points and transcriptions) and the JSON
// reader under them.
#include "../fuzz_target.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/vision/det_label_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ocrforge;
  const std::string text = fuzz::bytes_of(data, size);
  size_t start = 0, line_no = 0;
  while (start <= text.size() && line_no < 64) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    ++line_no;
    fuzz::refusals_allowed([&] { (void)parse_rec_label_line(line, "fuzz.txt", line_no); });
    fuzz::refusals_allowed([&] { (void)parse_det_label_line(line, "fuzz.txt", line_no); });
    fuzz::refusals_allowed([&] { (void)parse_rec_label_line(line, "fuzz.txt", line_no, ' '); });
    start = end + 1;
  }
  fuzz::refusals_allowed([&] { (void)parse_det_json(text); });
  return 0;
}
