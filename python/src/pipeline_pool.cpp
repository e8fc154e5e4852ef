#include "pipeline_pool.h"

namespace ocrforge::python {

PipelinePool::PipelinePool(const OcrParams& params, const DocumentReadParams& docs) : params_(params), docs_(docs) {
  idle_.push_back(std::make_unique<OcrPipeline>(params_));
  instances_ = 1;
}

PipelinePool::Lease PipelinePool::acquire() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      std::unique_ptr<OcrPipeline> p = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(p));
    }
    ++instances_;
  }
  // Loading takes long: outside the lock, so that calls finishing meanwhile
  // can give their pipelines back and others take them.
  try {
    return Lease(*this, std::make_unique<OcrPipeline>(params_));
  } catch (...) {
    std::lock_guard<std::mutex> lock(mu_);
    --instances_;
    throw;
  }
}

void PipelinePool::give_back(std::unique_ptr<OcrPipeline> p) {
  if (!p) return;
  std::lock_guard<std::mutex> lock(mu_);
  idle_.push_back(std::move(p));
}

size_t PipelinePool::instances() const {
  std::lock_guard<std::mutex> lock(mu_);
  return instances_;
}

}  // namespace ocrforge::python
