// Pipelines for one parameter set, shared by the threads of one Python
// PaddleOCR object. An OcrPipeline is not thread-safe (its predictors keep
// per-call statistics), so each call leases one for its whole run: an idle
// one when there is one, otherwise a new one (its models loaded again).
// The pool therefore grows to the largest number of calls that ran at the
// same time and keeps those pipelines for later calls.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "ocrforge/document/document_inputs.h"
#include "ocrforge/infer/ocr_flags.h"
#include "ocrforge/infer/ocr_pipeline.h"

namespace ocrforge::python {

class PipelinePool {
 public:
  // Loads the first pipeline now, so that a missing or unfit model fails
  // here (the PaddleOCR constructor) and not at the first image.
  // `docs`: how PDFs and TIFFs are read (its .read: how images are).
  PipelinePool(const OcrParams& params, const DocumentReadParams& docs);

  // Exclusive use of one pipeline until destroyed.
  class Lease {
   public:
    Lease(PipelinePool& pool, std::unique_ptr<OcrPipeline> p) : pool_(pool), p_(std::move(p)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { pool_.give_back(std::move(p_)); }
    OcrPipeline& operator*() { return *p_; }
    OcrPipeline* operator->() { return p_.get(); }

   private:
    PipelinePool& pool_;
    std::unique_ptr<OcrPipeline> p_;
  };

  Lease acquire();
  size_t instances() const;
  const OcrParams& params() const { return params_; }
  const ImageReadParams& read_params() const { return docs_.read; }
  const DocumentReadParams& document_params() const { return docs_; }

 private:
  void give_back(std::unique_ptr<OcrPipeline> p);

  OcrParams params_;
  DocumentReadParams docs_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<OcrPipeline>> idle_;
  size_t instances_ = 0;
};

}  // namespace ocrforge::python
