// The server's request readers: PaddleX's /ocr body (bounded JSON, every
// field's type and range) and PaddleHub's images[] body, then the Base64 of
// the file they carry.
#include "../fuzz_target.h"
#include "ocrforge/serve/base64.h"
#include "ocrforge/serve/paddlehub_api.h"
#include "ocrforge/serve/paddlex_api.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ocrforge;
  const std::string body = fuzz::bytes_of(data, size);
  fuzz::refusals_allowed([&] {
    const PaddlexRequest r = parse_paddlex_request(body, RunParams{});
    if (!r.file_is_url) (void)base64_decode(r.file);
  });
  fuzz::refusals_allowed([&] { (void)parse_paddlehub_request(body, 4); });
  return 0;
}
