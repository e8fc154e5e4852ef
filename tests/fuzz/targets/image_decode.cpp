// An image's bytes as every front end reads them: the header as the decoder
// reads it (image_header.h), then the checked decode (pixel budget,
// formats, truncated JPEGs).
#include "../fuzz_target.h"
#include "ocrforge/infer/image_header.h"
#include "ocrforge/infer/image_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ocrforge;
  (void)read_image_header(reinterpret_cast<const char*>(data), size);
  const std::string bytes = fuzz::bytes_of(data, size);
  fuzz::refusals_allowed([&] {
    const LoadedImage img = decode_image(bytes, "fuzz input", 4000, fuzz::kMaxPixels);
    if (static_cast<int64_t>(img.bgr.total()) > fuzz::kMaxPixels) throw std::logic_error("decoded past the budget");
  });
  return 0;
}
