// The contract every fuzz target here keeps: `LLVMFuzzerTestOneInput` feeds
// one input to one reader of untrusted bytes and returns 0. A reader may
// refuse the input with ocrforge::Error (that is its job); anything else
// that escapes (std::bad_alloc: an allocation the input controls; any other
// exception; a crash; a hang) is a finding. The same target files build as
// libFuzzer targets (`make fuzz`, clang) and, under gcc, with
// fuzz_driver.cpp: seeds plus deterministic mutations, run by `make test`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "ocrforge/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace ocrforge::fuzz {

// Pixel budget the image, PDF and TIFF targets decode with: large enough for
// every seed, small enough that many inputs run per second.
constexpr int64_t kMaxPixels = 4'000'000;

inline std::string bytes_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Runs `f`, treating ocrforge::Error as the reader's proper refusal.
template <class F>
int refusals_allowed(F&& f) {
  try {
    f();
  } catch (const Error&) {
  }
  return 0;
}

// A path that reads as `bytes`, for readers that take a file name (qpdf,
// libtiff): an anonymous in-memory file, closed by the destructor.
class MemoryFile {
 public:
  explicit MemoryFile(const std::string& bytes);
  ~MemoryFile();
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace ocrforge::fuzz
