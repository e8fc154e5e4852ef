// Batch reading for ocrforge.dask (batch.h). A work unit is one input file,
// or a range of a PDF's selected pages; its files are named and written as
// `ocrforge ocr` names and writes them (apps/ocrforge/ocr_outputs.cpp and
// document_flags.cpp), through the same library functions, so a batch run's
// per-input files equal the CLI's for the same flags. Every file is written
// atomically (temp name, rename): a worker killed mid-unit leaves no half
// file, and the retry of the unit elsewhere writes the same names again.
#include "batch.h"

#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <pybind11/stl.h>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/core/text.h"
#include "ocrforge/document/document_inputs.h"
#include "ocrforge/document/document_outputs.h"
#include "ocrforge/document/page_layout.h"
#include "ocrforge/infer/ocr_flags.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/infer/result_files.h"
#include "ocrforge/vision/draw_ocr.h"
#include "input_errors.h"
#include "pipeline_pool.h"
#include "staged_pages.h"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace ocrforge::python {

namespace {

// ------------------------------------------------------------------ flags

// `ocrforge ocr`'s flags: the library's, plus the four cmd_ocr.cpp and
// document_flags.cpp add themselves (same names, defaults and meanings).
void declare_batch_flags(FlagSet& f) {
  declare_ocr_flags(f);
  declare_document_read_flags(f);
  declare_render_flags(f);
  f.add_bool("pipelined", true, "accepted as `ocrforge ocr` takes it; a batch worker reads one page at a time");
}

struct BatchSettings {
  std::set<std::string> formats;  // --output_format
  RenderOptions render;
  DocumentReadParams docs;
  bool visualize = true;
  std::string font_path;
};

// Parses `args` into `f` as `ocrforge ocr` would; refuses what a batch
// cannot do. UsageError names the flag. Arguments that are no flag go to
// `positional` (the inputs, on ocrforge-batch's command line); without it
// they are refused.
BatchSettings parse_batch_flags(const std::vector<std::string>& args, FlagSet& f,
                                std::vector<std::string>* positional = nullptr) {
  declare_batch_flags(f);
  const std::vector<std::string> extra = f.parse(args);
  if (positional) *positional = extra;
  else if (!extra.empty()) throw UsageError("unexpected argument '" + extra[0] + "' (flags are written --name=value)");
  // Files shared by every input would be written by every worker at once.
  if (!f.get("save_label").empty())
    throw UsageError("--save_label is not supported by batch reading (one file for all inputs); every input's "
                     "<name>_res.json holds its lines");
  if (f.get_bool("save_crop_res")) throw UsageError("--save_crop_res is not supported by batch reading yet");
  if (f.get_bool("benchmark"))
    throw UsageError("--benchmark is not supported by batch reading; its summary gives pages/s");
  BatchSettings s;
  const RenderFlags r = render_flags_from(f);
  s.formats = r.formats;
  s.render = r.options;
  s.docs = document_read_params_from_flags(f);
  s.docs.read = image_read_params_from_flags(f);
  // As cmd_ocr.cpp: with --output_format the documents are the result, and
  // only an explicit --visualize draws the pictures.
  s.visualize = s.formats.empty() || f.was_set("visualize") ? f.get_bool("visualize") : false;
  s.font_path = f.get("vis_font_path");
  return s;
}

// ------------------------------------------------------------------ names

// As OcrOutputs (ocr_outputs.cpp): OpenCV writes by extension; anything it
// cannot encode is saved as .jpg.
std::string vis_name(const std::string& image_path, const std::string& stem) {
  std::string name = path_filename(image_path);
  const std::string ext = to_lower(fs::path(name).extension().string());
  for (const char* ok : {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
    if (ext == ok) return name;
  return stem + ".jpg";
}

struct PageNames {
  std::string result_name;  // system_results.txt's name ("a.jpg", "scan.pdf_2")
  std::string stem;         // of <stem>_res.json
  std::string vis_file;
};

// An image, or the one page of a single-page document, is named as an image;
// a document's pages as PaddleOCR names them (document_flags.cpp, name_pages).
PageNames page_names(const InputItem& it, const std::string& file, const std::string& stem) {
  PageNames n;
  if (it.single) {
    n.result_name = file;
    n.stem = stem;
    n.vis_file = vis_name(file, stem);
    require_line_safe(path_filename(file), "image name", "system_results.txt");
  } else {
    n.result_name = path_filename(file) + "_" + std::to_string(it.page);
    n.stem = stem + "_" + std::to_string(it.page);
    n.vis_file = n.stem + ".png";
    require_line_safe(n.result_name, "image name", "system_results.txt");
  }
  return n;
}

// ------------------------------------------------------------------ the reader

struct UnitOutcome {
  size_t items = 0;                                          // selected pages of the file
  int pages = 0;                                             // pages read and written
  std::vector<std::string> lines;                            // system_results.txt lines, page order
  std::vector<std::pair<std::string, std::string>> failed;   // page key, why
  std::string document_error;                                // an --output_format file failed
  double decode_ms = 0, ocr_ms = 0, write_ms = 0;
};

struct PageRows {
  int page = 0;
  std::string error;                                         // "" when read
  std::vector<std::tuple<Quad, std::string, float>> lines;   // box, text, score
};

class BatchReader {
 public:
  explicit BatchReader(const std::vector<std::string>& args) {
    FlagSet f("ocr");
    s_ = parse_batch_flags(args, f);
    // Where inputs come from and outputs go is decided per unit (ocrforge.dask).
    for (const char* own : {"image_dir", "draw_img_save_dir"})
      if (f.was_set(own)) throw UsageError(std::string("--") + own + " is given per unit, not to the reader");
    OcrParams params = ocr_params_from_flags(f);
    params.word_boxes = !s_.formats.empty();  // as cmd_ocr.cpp
    if (s_.visualize) s_.font_path = checked_font_path(s_.font_path, "ocrforge batch");
    steady_memory();
    Stopwatch sw;
    pool_ = std::make_shared<PipelinePool>(params, s_.docs);
    load_ms_ = sw.elapsed_ms();
  }

  double load_ms() const { return load_ms_; }
  bool writes_documents() const { return !s_.formats.empty(); }

  // Reads pages [first, first + count) of `file` (count < 0: to the end) and
  // writes their files into `out_dir`, named from `stem`. The --output_format
  // files are written here when `stage_path` is empty (the unit is the whole
  // file); otherwise the pages are staged there for assemble().
  UnitOutcome run_unit(const std::string& file, const std::string& out_dir, const std::string& stem, int first,
                       int count, const std::string& stage_path) {
    UnitOutcome u;
    DocumentInputs inputs(s_.docs);
    const std::vector<InputItem> items = expand(inputs, file);
    u.items = items.size();
    const size_t begin = std::min(items.size(), static_cast<size_t>(std::max(first, 0)));
    const size_t end = count < 0 ? items.size() : std::min(items.size(), begin + static_cast<size_t>(count));
    make_dir(out_dir);
    const bool documents_here = writes_documents() && stage_path.empty();
    DocumentOutputs documents({documents_here ? s_.formats : std::set<std::string>{}, out_dir, s_.render});
    std::string staged = staged_header();
    const OcrParams& params = pool_->params();
    for (size_t i = begin; i < end; ++i) {
      const InputItem& it = items[i];
      try {
        Stopwatch sw;
        const LoadedImage img = inputs.decode(it.key);
        u.decode_ms += sw.elapsed_ms();
        sw.reset();
        OcrResult r;
        {
          auto lease = pool_->acquire();
          r = lease->run(img.bgr, img.scale);
        }
        u.ocr_ms += sw.elapsed_ms();
        sw.reset();
        // The page's own files first, as OcrOutputs::write: its line in
        // system_results.txt only once they exist.
        const PageNames n = page_names(it, file, stem);
        write_file_atomic((fs::path(out_dir) / (n.stem + "_res.json")).string(),
                          it.single ? result_json(file, r, params) : result_json(file, r, params, it.page), false);
        if (s_.visualize) write_visualisation((fs::path(out_dir) / n.vis_file).string(), img.bgr, r);
        u.lines.push_back(system_results_line(n.result_name, r));
        ++u.pages;
        if (writes_documents()) {
          PageInfo info;
          info.image_name = path_filename(it.file);
          info.index = it.page;
          info.size = r.image_size;
          info.dpi_x = info.dpi_y = inputs.dpi_of(it.key);
          if (!documents_here) {
            stage_page(staged, it, info, r);
          } else if (u.document_error.empty()) {
            try {
              documents.add_page(build_page(r, info), page_source(it, stem, &img.bgr));
            } catch (const std::exception& e) {  // as add_document_page: the document is dropped whole
              u.document_error = "document output of '" + file + "': " + e.what();
            }
          }
        }
        u.write_ms += sw.elapsed_ms();
      } catch (const std::exception& e) {  // as for_each_image: one bad page never costs the others
        u.failed.emplace_back(it.key, e.what());
      }
    }
    if (documents_here && u.document_error.empty()) {
      try {
        documents.finish();
      } catch (const std::exception& e) {
        u.document_error = e.what();
      }
    }
    if (!stage_path.empty() && writes_documents()) {
      make_dir(fs::path(stage_path).parent_path().string());
      write_file_atomic(stage_path, staged, false);
    }
    return u;
  }

  // The --output_format files of a split PDF from its units' staged pages
  // (in page order); returns the files written.
  std::vector<std::string> assemble(const std::string& file, const std::string& out_dir, const std::string& stem,
                                    const std::vector<std::string>& stage_paths) {
    make_dir(out_dir);
    DocumentOutputs documents({s_.formats, out_dir, s_.render});
    for (const std::string& path : stage_paths)
      for (const StagedPage& p : read_staged_pages(path, file)) {
        // A PDF's pages are kept by the pdf output (only text is added), so no pixels are needed here.
        documents.add_page(build_page(p.result, p.info), page_source(p.item, stem, nullptr));
      }
    documents.finish();
    return documents.written();
  }

  // Pages [first, first + count) of `file` as rows, nothing written (a Dask bag).
  std::vector<PageRows> read_rows(const std::string& file, int first, int count) {
    DocumentInputs inputs(s_.docs);
    const std::vector<InputItem> items = expand(inputs, file);
    const size_t begin = std::min(items.size(), static_cast<size_t>(std::max(first, 0)));
    const size_t end = count < 0 ? items.size() : std::min(items.size(), begin + static_cast<size_t>(count));
    std::vector<PageRows> out;
    for (size_t i = begin; i < end; ++i) {
      PageRows rows;
      rows.page = items[i].page;
      try {
        const LoadedImage img = inputs.decode(items[i].key);
        auto lease = pool_->acquire();
        const OcrResult r = lease->run(img.bgr, img.scale);
        for (const OcrLine& l : r.lines) rows.lines.emplace_back(l.box, l.text, l.score);
      } catch (const std::exception& e) {
        rows.error = e.what();
      }
      out.push_back(std::move(rows));
    }
    return out;
  }

 private:
  // A file that cannot be opened (missing, broken, encrypted, over
  // --max_pages) is the input's fault: BadInput (ValueError), which the
  // Python side records as failed at once; other errors may pass (a full
  // disk, a lost mount) and are retried.
  static std::vector<InputItem> expand(DocumentInputs& inputs, const std::string& file) {
    try {
      return inputs.expand_file(file);
    } catch (const Error& e) {
      throw BadInput(e.what());
    }
  }

  static void make_dir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) throw Error("cannot create folder '" + dir + "': " + ec.message());
  }

  static PageSource page_source(const InputItem& it, const std::string& stem, const cv::Mat* bgr) {
    PageSource src;
    src.file = it.file;
    src.stem = stem;
    src.is_pdf = it.kind == InputItem::Kind::pdf_page;
    src.pdf_page = it.page;
    src.single_image = it.kind == InputItem::Kind::image;
    src.bgr = bgr;
    return src;
  }


  // As document_flags.cpp's steady_memory_for_pages: page images are tens of
  // MiB, and glibc's dynamic mmap threshold would otherwise grow the heap
  // with every page a long-lived worker reads.
  static void steady_memory() {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    if (!std::getenv("MALLOC_MMAP_THRESHOLD_") && !std::getenv("GLIBC_TUNABLES")) mallopt(M_MMAP_THRESHOLD, 4 << 20);
#endif
  }

  // As OcrOutputs::write: drawn on the decoded image, encoded in memory, written atomically.
  void write_visualisation(const std::string& path, const cv::Mat& bgr, const OcrResult& result) const {
    const cv::Mat vis = result_visualisation(bgr, result, s_.font_path);
    std::vector<uchar> buf;
    bool ok = false;
    try {
      ok = cv::imencode(fs::path(path).extension().string(), vis, buf);
    } catch (const cv::Exception& e) {
      throw Error("cannot encode visualisation '" + path + "': " + e.what());
    }
    if (!ok) throw Error("cannot encode visualisation '" + path + "'");
    write_file_atomic(path, std::string(buf.begin(), buf.end()), false);
  }

  BatchSettings s_;
  std::shared_ptr<PipelinePool> pool_;
  double load_ms_ = 0;
};

py::list points(const Quad& q) {
  py::list out;
  for (const auto& p : q) out.append(py::make_tuple(double(p.x), double(p.y)));
  return out;
}

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<BatchReader, std::shared_ptr<BatchReader>>(
      m, "BatchReader", "One Dask worker's reader (ocrforge.dask): the pipeline, loaded once, and the writers.")
      .def(py::init([](const std::vector<std::string>& flags) {
             py::gil_scoped_release nogil;
             return std::make_shared<BatchReader>(flags);
           }),
           py::arg("flags"), "Loads the models for these `ocrforge ocr` flags.")
      .def_property_readonly("load_ms", &BatchReader::load_ms, "Milliseconds the models took to load.")
      .def(
          "run_unit",
          [](BatchReader& r, const std::string& file, const std::string& out_dir, const std::string& stem, int first,
             int count, const std::string& stage_path) {
            UnitOutcome u;
            {
              py::gil_scoped_release nogil;
              u = r.run_unit(file, out_dir, stem, first, count, stage_path);
            }
            py::dict d;
            d["items"] = u.items;
            d["pages"] = u.pages;
            d["lines"] = u.lines;
            d["failed"] = u.failed;
            d["document_error"] = u.document_error;
            d["decode_ms"] = u.decode_ms;
            d["ocr_ms"] = u.ocr_ms;
            d["write_ms"] = u.write_ms;
            return d;
          },
          py::arg("file"), py::arg("out_dir"), py::arg("stem"), py::arg("first") = 0, py::arg("count") = -1,
          py::arg("stage_path") = "",
          "Reads pages [first, first + count) of `file` and writes their files into out_dir; a dict with the "
          "system_results.txt lines, the pages that failed and the times.")
      .def(
          "assemble",
          [](BatchReader& r, const std::string& file, const std::string& out_dir, const std::string& stem,
             const std::vector<std::string>& stage_paths) {
            py::gil_scoped_release nogil;
            return r.assemble(file, out_dir, stem, stage_paths);
          },
          py::arg("file"), py::arg("out_dir"), py::arg("stem"), py::arg("stage_paths"),
          "Writes the --output_format files of a split PDF from its units' staged pages.")
      .def(
          "read_rows",
          [](BatchReader& r, const std::string& file, int first, int count) {
            std::vector<PageRows> pages;
            {
              py::gil_scoped_release nogil;
              pages = r.read_rows(file, first, count);
            }
            py::list out;
            for (const PageRows& p : pages) {
              py::list lines;
              for (const auto& [box, text, score] : p.lines)
                lines.append(py::make_tuple(points(box), py::str(text), double(score)));
              out.append(py::make_tuple(p.page, p.error.empty() ? py::object(py::none()) : py::str(p.error), lines));
            }
            return out;
          },
          py::arg("file"), py::arg("first") = 0, py::arg("count") = -1,
          "[(page, error or None, [(box, text, score), ...]), ...] for pages [first, first + count); nothing written.");

  m.def(
      "batch_flags",
      [](const std::vector<std::string>& args) {
        FlagSet f("ocr");
        std::vector<std::string> positional;
        const BatchSettings s = parse_batch_flags(args, f, &positional);
        if (f.help_requested()) return py::dict(py::arg("help") = f.help_text());
        py::dict given;
        for (const auto& [name, value] : f.values())
          if (f.was_set(name)) given[py::str(name)] = value;
        py::dict d;
        d["flags"] = given;
        d["formats"] = std::vector<std::string>(s.formats.begin(), s.formats.end());
        d["visualize"] = s.visualize;
        d["positional"] = positional;
        return d;
      },
      py::arg("flags"),
      "Reads an `ocrforge ocr` command line for batch reading without loading models: {'flags': the flags given, "
      "as name -> value, 'positional': the other arguments, 'formats': --output_format, 'visualize': whether "
      "pictures are drawn} ({'help': text} for --help); ValueError naming a bad flag.");
  m.def(
      "output_stems",
      [](const std::vector<std::string>& files) { return output_stems(files); },
      py::arg("files"), "Output base name per input of one output folder, as `ocrforge ocr` names them.");
  m.def(
      "document_pages",
      [](const std::vector<std::string>& args, const std::string& file) {
        FlagSet f("ocr");
        const BatchSettings s = parse_batch_flags(args, f);
        py::gil_scoped_release nogil;
        DocumentInputs inputs(s.docs);
        std::vector<int> pages;
        for (const InputItem& it : inputs.expand_file(file)) pages.push_back(it.page);
        return pages;
      },
      py::arg("flags"), py::arg("file"),
      "The pages (0-based) of a PDF or TIFF that these flags select (--pages, --page_num, --max_pages); "
      "RuntimeError naming the file when it cannot be read.");
}

}  // namespace ocrforge::python
