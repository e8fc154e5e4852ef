// OCR over many image files with the stages of different images overlapping:
// one thread decodes, one detects (+ direction classifier), one recognises,
// joined by bounded queues, so image k+1 is decoded and detected while image
// k is recognised. Results reach the caller in input order, and an image that
// cannot be read or processed fails alone.
//
//   ocrforge::OcrStream stream(ocrforge::default_ocr_params());
//   stream.run(paths, [](ocrforge::StreamResult&& r) {
//     if (!r.ok) std::cerr << r.error << "\n";
//     else for (const auto& line : r.result.lines) std::cout << line.text << "\n";
//   });
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/infer/params.h"

namespace ocrforge {

struct StreamParams {
  size_t queue_depth = 2;  // images waiting between two stages (bounds memory)
  // Bytes of decoded images the stages hold at once, from decoding until the
  // sink has taken the result; the decoder waits for room. One image always
  // goes through, however large. Without it, queue_depth alone lets about ten
  // images be in flight: a gigabyte of 35-megapixel scans. 0: no limit.
  size_t image_bytes_in_flight = size_t{256} << 20;
  // ORT intra-op threads of the detector (+ classifier) and of the recogniser;
  // 0: params.runtime.cpu_threads. The two stages run at the same time, so on
  // a small machine their sum should not exceed the cores.
  int det_threads = 0;
  int rec_threads = 0;
  bool keep_crops = false;  // fill OcrLine::crop
  // Decodes one file on the decoding thread; empty: read_image(path,
  // params.det.resize.max_side_limit). A caller that also limits pixels or
  // captures decoder messages passes its own. An exception fails that image.
  std::function<LoadedImage(const std::string& path)> decode;
};

struct StreamResult {
  size_t index = 0;   // position in the input list
  std::string path;
  bool ok = false;
  std::string error;  // when !ok: what failed, naming the file ("image '<path>': ...")
  LoadedImage image;  // the decoded image (empty when decoding failed)
  OcrResult result;   // coordinates in file pixels (image.scale applied)
};

class OcrStream {
 public:
  // Loads the models (as OcrPipeline); throws Error on a missing or unfit model.
  explicit OcrStream(const OcrParams& params, StreamParams options = {});
  ~OcrStream();
  OcrStream(const OcrStream&) = delete;
  OcrStream& operator=(const OcrStream&) = delete;

  // Processes `paths`; calls `sink` once per path, in input order, on the
  // calling thread. An exception thrown by `sink` stops the stages and is
  // rethrown after every thread has ended.
  void run(const std::vector<std::string>& paths, const std::function<void(StreamResult&&)>& sink);

  const OcrParams& params() const { return params_; }
  TextDetector& detector() { return *det_; }
  TextRecognizer& recognizer() { return *rec_; }
  TextClassifier* classifier() { return cls_.get(); }

 private:
  OcrParams params_;
  StreamParams options_;
  std::unique_ptr<TextDetector> det_;
  std::unique_ptr<TextClassifier> cls_;
  std::unique_ptr<TextRecognizer> rec_;
};

}  // namespace ocrforge
