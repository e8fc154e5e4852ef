// A PaddleOCR-style YAML config as every command reads it first: the YAML
// parse, then typed reads of the keys each command looks at, and -o
// overrides.
#include "../fuzz_target.h"
#include "ocrforge/core/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ocrforge;
  const std::string text = fuzz::bytes_of(data, size);
  fuzz::refusals_allowed([&] {
    Config c = Config::from_string(text, "fuzz.yml");
    fuzz::refusals_allowed([&] { (void)c.get<std::string>("Architecture.model_type", ""); });
    fuzz::refusals_allowed([&] { (void)c.get<int>("Global.max_text_length", 25); });
    fuzz::refusals_allowed([&] { (void)c.get<double>("Optimizer.lr.learning_rate", 0.001); });
    fuzz::refusals_allowed([&] { (void)c.get<std::vector<int>>("Global.eval_batch_step", {}); });
    fuzz::refusals_allowed([&] { (void)c.get<std::vector<std::string>>("Train.dataset.label_file_list", {}); });
    fuzz::refusals_allowed([&] { c.apply_overrides({"Global.epoch_num=3", "Train.loader.batch_size_per_card=2"}); });
  });
  return 0;
}
