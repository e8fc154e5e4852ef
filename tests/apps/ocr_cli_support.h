// Helpers of the `ocrforge ocr` end-to-end tests (ocr_cli_test.cpp,
// ocr_cli_untrusted_input_test.cpp).
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace ocrforge::test {

// `ocrforge ocr --cpu_threads 2 <flags>`, run in `scratch`.
inline CommandResult ocr(const std::string& flags, const std::string& scratch) {
  return run_command(binary() + " ocr --cpu_threads 2 " + flags, scratch);
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace ocrforge::test
