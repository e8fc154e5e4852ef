// The per-image loop shared by `ocr` and `infer`: one bad image never costs
// the others. Whatever reading or processing one image throws (ocrforge
// errors, OpenCV exceptions, filesystem errors, bad_alloc) is reported with
// the file named and counted; only a RunAborted (an output shared by every
// image can no longer be written) ends the loop.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "ocrforge/infer/ocr_flags.h"
#include "ocrforge/core/control_chars.h"
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

// Decoder libraries print to stderr themselves (libjpeg's "Premature end of
// JPEG file", OpenCV's "[ WARN:0@0.1] ... imread_"): raw lines that name no
// file. While one image is decoded, fd 2 goes to a temp file; what was
// printed is then reported on one line with the file named. The CLI decodes
// on one thread, so redirecting the descriptor for that moment is safe here
// (it would not be in library code).
class DecoderMessages {
 public:
  DecoderMessages() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = file_ ? ::dup(STDERR_FILENO) : -1;
    if (saved_ >= 0) ::dup2(::fileno(file_), STDERR_FILENO);
  }
  ~DecoderMessages() { take(); }
  // Restores stderr and returns what was printed, lines joined by "; ".
  std::string take() {
    std::string text;
    if (saved_ < 0) return text;
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
    std::rewind(file_);
    char buf[512];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), file_)) > 0 && text.size() < 4096) text.append(buf, n);
    std::fclose(file_);
    file_ = nullptr;
    std::string joined;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      if (end > start) joined += (joined.empty() ? "" : "; ") + text.substr(start, end - start);
      start = end + 1;
    }
    return joined;
  }

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

// What the decoder library printed and what the reader itself noted (a
// file that stops early), as one "; "-joined note.
inline std::string joined_note(const std::string& printed, const std::string& noted) {
  if (printed.empty()) return noted;
  return noted.empty() ? printed : printed + "; " + noted;
}

// `what` with the image named once: reading errors name it already; an
// output error names the output file, so the image is added.
inline std::string naming_image(const std::string& path, const std::string& what) {
  return what.find(path) != std::string::npos ? what : "image '" + path + "': " + what;
}

// Decodes one input by its name (`ocr` reads document pages through one).
using ImageReaderFn = std::function<LoadedImage(const std::string& path)>;

// Runs fn(path, image) on each image, decoded by `reader`; returns how many
// failed. `fn` prints through the given ProgressBar-safe order: the bar is
// cleared before fn runs its output, so log lines never overwrite it.
template <typename Fn>
size_t for_each_image(const char* command, const std::vector<std::string>& images, const ImageReaderFn& reader,
                      Fn fn) {
  size_t failed = 0;
  ProgressBar bar(images.size());
  for (size_t i = 0; i < images.size(); ++i) {
    const std::string& path = images[i];
    bar.update(i, path_filename(path));
    std::string error, decoder;
    try {
      LoadedImage img;
      {
        DecoderMessages capture;
        try {
          img = reader(path);
        } catch (...) {
          decoder = capture.take();
          throw;
        }
        decoder = joined_note(capture.take(), img.warning);
      }
      bar.clear();
      if (!decoder.empty())
        std::fprintf(stderr, "ocrforge %s: warning: image '%s': %s (decoded what could be read)\n", command,
                     printable(path).c_str(), printable(decoder).c_str());
      decoder.clear();
      fn(path, img);
    } catch (const RunAborted&) {
      bar.finish();
      throw;
    } catch (const Error& e) {
      error = naming_image(path, e.what());
    } catch (const std::bad_alloc&) {
      error = "image '" + path + "': out of memory while processing it (try a smaller --max_image_pixels)";
    } catch (const std::exception& e) {
      // OpenCV, filesystem or ONNX Runtime exceptions do not know the file.
      error = "image '" + path + "': " + e.what();
    }
    if (!error.empty()) {
      ++failed;
      bar.clear();
      if (!decoder.empty()) error += " (" + decoder + ")";
      std::fprintf(stderr, "ocrforge %s: error: %s (skipped)\n", command, printable(error).c_str());
    }
  }
  bar.finish();
  return failed;
}

// The same over image files read with read_image.
template <typename Fn>
size_t for_each_image(const char* command, const std::vector<std::string>& images, const ImageReadParams& read,
                      Fn fn) {
  return for_each_image(command, images,
                        ImageReaderFn([&read](const std::string& path) {
                          return read_image(path, read.max_side, read.max_pixels);
                        }),
                        fn);
}

}  // namespace ocrforge
