// The per-image loop of `ocrforge ocr` over OcrStream (decode, detection and
// recognition of consecutive images overlapping), with the guarantees of
// for_each_image (image_loop.h): one bad image never costs the others, each
// failure is reported naming the file, decoder library messages are caught
// and reported with their file, a RunAborted ends the run, and output comes
// in input order.
#pragma once
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "image_loop.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/infer/ocr_stream.h"

namespace ocrforge {

class StreamedImageLoop {
 public:
  explicit StreamedImageLoop(const ImageReadParams& read) : read_(read) {}
  // Decodes each input with `reader` instead of read_image.
  StreamedImageLoop(const ImageReadParams& read, ImageReaderFn reader) : read_(read), reader_(std::move(reader)) {}

  // The StreamParams::decode to construct the stream with (on the stream's
  // decoding thread). While one file decodes, fd 2 goes to a temp file
  // (DecoderMessages); the lock keeps the sink from printing meanwhile, so
  // only the decoder's own lines are caught.
  LoadedImage decode(const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex_);
    DecoderMessages capture;
    try {
      LoadedImage img = reader_ ? reader_(path) : read_image(path, read_.max_side, read_.max_pixels);
      notes_[path] = joined_note(capture.take(), img.warning);
      return img;
    } catch (...) {
      notes_[path] = capture.take();
      throw;
    }
  }

  // Runs `stream` over `images`, calling fn(path, result) for each image
  // that was read and processed; returns how many failed.
  template <typename Fn>
  size_t run(const char* command, const std::vector<std::string>& images, OcrStream& stream, Fn fn) {
    size_t failed = 0;
    ProgressBar bar(images.size());
    try {
      stream.run(images, [&](StreamResult&& r) {
        std::lock_guard<std::mutex> lock(mutex_);
        bar.update(r.index, path_filename(r.path));
        const std::string decoder = take_note(r.path);
        std::string error = r.error;
        if (r.ok) {
          bar.clear();
          if (!decoder.empty())
            std::fprintf(stderr, "ocrforge %s: warning: image '%s': %s (decoded what could be read)\n", command,
                         printable(r.path).c_str(), printable(decoder).c_str());
          try {
            fn(r.path, r);
          } catch (const RunAborted&) {
            throw;
          } catch (const std::bad_alloc&) {
            error = "image '" + r.path + "': out of memory while writing its results";
          } catch (const std::exception& e) {
            error = naming_image(r.path, e.what());
          }
        } else if (!decoder.empty()) {
          error += " (" + decoder + ")";
        }
        if (!error.empty()) {
          ++failed;
          bar.clear();
          std::fprintf(stderr, "ocrforge %s: error: %s (skipped)\n", command, printable(error).c_str());
        }
      });
    } catch (...) {
      bar.finish();
      throw;
    }
    bar.finish();
    return failed;
  }

 private:
  std::string take_note(const std::string& path) {
    auto it = notes_.find(path);
    if (it == notes_.end()) return "";
    std::string note = std::move(it->second);
    notes_.erase(it);
    return note;
  }

  ImageReadParams read_;
  ImageReaderFn reader_;
  std::mutex mutex_;
  std::map<std::string, std::string> notes_;  // decoder messages per file, until its result arrives
};

}  // namespace ocrforge
