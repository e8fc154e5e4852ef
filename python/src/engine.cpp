#include "engine.h"

#include "ocrforge/core/error.h"

namespace ocrforge::python {

std::shared_ptr<PipelinePool> Engine::pool(const std::vector<std::string>& flags) {
  std::string key;
  for (const auto& f : flags) key += f + '\n';
  // Held while a new pool loads its models: a second thread asking for the
  // same parameters waits for that pool instead of loading its own.
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = pools_.find(key); it != pools_.end()) return it->second;
  FlagSet parsed("ocr");
  declare_ocr_flags(parsed);
  declare_document_read_flags(parsed);
  const std::vector<std::string> extra = parsed.parse(flags);
  if (!extra.empty()) throw UsageError("unexpected argument '" + extra[0] + "'");
  auto pool = std::make_shared<PipelinePool>(ocr_params_from_flags(parsed), document_read_params_from_flags(parsed));
  pools_.emplace(key, pool);
  return pool;
}

size_t Engine::pools() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pools_.size();
}

}  // namespace ocrforge::python
