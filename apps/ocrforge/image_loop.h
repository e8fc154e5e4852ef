// The per-image loop shared by `ocr` and `infer`: one bad image never costs
// the others. Whatever reading or processing one image throws (ocrforge
// errors, OpenCV exceptions, filesystem errors, bad_alloc) is reported with
// the file named and counted; only a RunAborted (an output shared by every
// image can no longer be written) ends the loop.
#pragma once
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "ocr_flags.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/infer/image_reader.h"
#include "progress.h"

namespace ocrforge {

// Thrown when continuing would lose work silently (e.g. system_results.txt
// cannot be written: disk full). Ends the run with exit code 1.
class RunAborted : public Error {
 public:
  using Error::Error;
};

// Runs fn(path, image) on each image; returns how many failed.
// `fn` prints through the given ProgressBar-safe order: the bar is cleared
// before fn runs its output, so log lines never overwrite it.
template <typename Fn>
size_t for_each_image(const char* command, const std::vector<std::string>& images, const ImageReadParams& read,
                      Fn fn) {
  size_t failed = 0;
  ProgressBar bar(images.size());
  for (size_t i = 0; i < images.size(); ++i) {
    const std::string& path = images[i];
    bar.update(i, path_filename(path));
    std::string error;
    try {
      LoadedImage img = read_image(path, read.max_side, read.max_pixels);
      bar.clear();
      fn(path, img);
    } catch (const RunAborted&) {
      bar.finish();
      throw;
    } catch (const Error& e) {
      // Reading errors name the image; an output error names the output file.
      error = e.what();
      if (error.find(path) == std::string::npos) error = "image '" + path + "': " + error;
    } catch (const std::bad_alloc&) {
      error = "image '" + path + "': out of memory while processing it (try a smaller --max_image_pixels)";
    } catch (const std::exception& e) {
      // OpenCV, filesystem or ONNX Runtime exceptions do not know the file.
      error = "image '" + path + "': " + e.what();
    }
    if (!error.empty()) {
      ++failed;
      bar.clear();
      std::fprintf(stderr, "ocrforge %s: error: %s (skipped)\n", command, error.c_str());
    }
  }
  bar.finish();
  return failed;
}

}  // namespace ocrforge
