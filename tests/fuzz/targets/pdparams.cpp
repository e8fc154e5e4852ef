// A .pdparams file: the safe unpickler and the state-dict reader on top
// (slices joined, dtypes and shapes checked, bytes bounded by the file).
#include "../fuzz_target.h"
#include "ocrforge/core/pdparams.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ocrforge;
  const std::string bytes = fuzz::bytes_of(data, size);
  fuzz::refusals_allowed([&] {
    size_t total = 0;
    for (const auto& [name, t] : parse_pdparams(bytes, "fuzz.pdparams")) total += t.data.size();
    if (total > 2 * bytes.size() + 4096) throw std::logic_error("tensors larger than the file");
  });
  return 0;
}
