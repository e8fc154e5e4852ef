// ocrforge._ocrforge: the C++ half of the Python package (python/ocrforge).
// It exposes pipeline pools (engine.h) and image helpers; the PaddleOCR
// classes, keyword handling and result objects are Python. The GIL is
// released while images are decoded and the models run, so Python threads
// calling one PaddleOCR object overlap. PDFs and TIFFs are read through
// ocrforge::document (document_input.h). Links ocrforge::infer and
// ocrforge::document only (never LibTorch).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "batch.h"
#include "document_input.h"
#include "engine.h"
#include "image_input.h"
#include "input_errors.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/lang_models.h"
#include "ocrforge/infer/ocr_param_table.h"
#include "ocrforge/vision/box_order.h"
#include "ocrforge/vision/draw_ocr.h"
#include "ocrforge/vision/rec_resize.h"
#include "ocrforge/version.h"
#include "py_arrays.h"

namespace py = pybind11;
using namespace ocrforge;
using namespace ocrforge::python;

namespace {

// One page of a Document (Document.page(i)): what ocr() / detect() /
// decode() take for a page of a PDF or TIFF.
struct DocumentPage {
  std::shared_ptr<Document> doc;
  size_t index = 0;
};

// The image argument of ocr() / detect(): a path (str), encoded bytes, a
// NumPy array or a DocumentPage. Arrays are viewed here, with the GIL; the
// rest of the work (decoding, colour conversion) happens in run() without it.
class ImageArg {
 public:
  ImageArg(const py::object& image, const Preprocess& pre) : pre_(pre) {
    if (py::isinstance<DocumentPage>(image)) {
      page_ = image.cast<DocumentPage>();
      kind_ = Kind::Page;
    } else if (py::isinstance<py::str>(image)) {
      path_ = image.cast<std::string>();
      kind_ = Kind::Path;
    } else if (py::isinstance<py::bytes>(image)) {
      char* data = nullptr;
      py::ssize_t size = 0;
      // bytes are immutable and `image` outlives this call: read in place.
      if (PyBytes_AsStringAndSize(image.ptr(), &data, &size) != 0) throw py::error_already_set();
      bytes_ = std::string_view(data, static_cast<size_t>(size));
      kind_ = Kind::Bytes;
    } else if (py::isinstance<py::array>(image)) {
      bool view = false;
      array_ = mat_from_array(image.cast<py::array>(), &view);
      kind_ = Kind::Array;
    } else {
      throw BadInput("image: expected a path (str), encoded image bytes or a NumPy uint8 array, got " +
                     std::string(py::str(py::type::of(image).attr("__name__"))));
    }
  }

  // Without the GIL.
  InputImage decode(const ImageReadParams& read) const {
    switch (kind_) {
      case Kind::Page: return page_.doc->decode(page_.index, pre_);
      case Kind::Path: return decode_file(path_, read, pre_);
      case Kind::Bytes: return decode_bytes(bytes_, read, pre_);
      case Kind::Array: {
        // An array is in memory already, but what is made of it (a BGR
        // copy, the detector's input) is not: the same budget as a file.
        const int64_t pixels = static_cast<int64_t>(array_.rows) * array_.cols;
        if (read.max_pixels > 0 && pixels > read.max_pixels)
          throw BadInput("image array is " + std::to_string(array_.cols) + " x " + std::to_string(array_.rows) +
                         " = " + std::to_string(pixels) + " pixels, over max_image_pixels=" +
                         std::to_string(read.max_pixels) + "; shrink it or raise the cap");
        InputImage out;
        out.bgr = apply_preprocess(to_bgr(array_, pre_.alpha_rgb, "image array"), pre_);
        return out;
      }
    }
    return {};
  }

 private:
  enum class Kind { Path, Bytes, Array, Page };
  Kind kind_ = Kind::Path;
  Preprocess pre_;
  DocumentPage page_;
  std::string path_;
  std::string_view bytes_;
  cv::Mat array_;
};

Preprocess make_preprocess(const std::array<int, 3>& alpha_rgb, bool invert, bool binarize) {
  for (int v : alpha_rgb)
    if (v < 0 || v > 255) throw BadInput("alpha_color: expected three integers in [0, 255] (R, G, B)");
  return Preprocess{alpha_rgb, invert, binarize};
}

py::list points_list(const std::vector<cv::Point2f>& pts) {
  py::list out;
  for (const auto& p : pts) {
    py::list xy;
    xy.append(double(p.x));
    xy.append(double(p.y));
    out.append(xy);
  }
  return out;
}

py::dict image_info(const InputImage& in, bool keep_image) {
  py::dict d;
  d["scale"] = in.scale;
  d["image"] = keep_image ? py::object(array_from_mat(in.bgr)) : py::object(py::none());
  return d;
}

// Every detected line in reading order (OcrResult::detected): the caller
// filters by score, as PaddleOCR's drop_score / text_rec_score_thresh do.
py::dict result_dict(const OcrResult& r, const InputImage& in, bool keep_image) {
  py::dict d = image_info(in, keep_image);
  py::list lines;
  for (const OcrLine& l : r.detected) {
    py::object crop = l.crop.empty() ? py::object(py::none()) : py::object(array_from_mat(l.crop));
    lines.append(py::make_tuple(points_list(l.polygon), double(l.det_score), py::str(l.text), double(l.score),
                                py::str(l.cls_label), double(l.cls_score), crop));
  }
  d["lines"] = lines;
  d["size"] = py::make_tuple(r.image_size.width, r.image_size.height);
  d["det_ms"] = r.det_ms;
  d["cls_ms"] = r.cls_ms;
  d["rec_ms"] = r.rec_ms;
  d["total_ms"] = r.total_ms;
  return d;
}

// A float parameter as the value the user wrote (0.6, not 0.6000000238).
double decimal(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.7g", static_cast<double>(v));
  return std::strtod(buf, nullptr);
}

const char* limit_type_name(DetLimitType t) { return t == DetLimitType::Max ? "max" : "min"; }

py::dict params_dict(const PipelinePool& pool) {
  const OcrParams& p = pool.params();
  py::dict d;
  d["limit_side_len"] = p.det.resize.limit_side_len;
  d["limit_type"] = limit_type_name(p.det.resize.limit_type);
  d["max_side_limit"] = p.det.resize.max_side_limit;
  d["thresh"] = decimal(p.det.post.thresh);
  d["box_thresh"] = decimal(p.det.post.box_thresh);
  d["unclip_ratio"] = decimal(p.det.post.unclip_ratio);
  d["use_dilation"] = p.det.post.use_dilation;
  d["score_mode"] = p.det.post.score_mode == DbScoreMode::Fast ? "fast" : "slow";
  d["box_type"] = p.det.post.box_type == DetBoxType::Quad ? "quad" : "poly";
  d["use_angle_cls"] = p.use_angle_cls;
  d["drop_score"] = decimal(p.drop_score);
  d["cls_thresh"] = decimal(p.cls.thresh);
  d["label_list"] = p.cls.label_list;
  d["rec_image_shape"] = py::make_tuple(3, p.rec.image_h, p.rec.image_w);
  d["cpu_threads"] = p.runtime.cpu_threads;
  d["precision"] = p.runtime.precision;
  d["use_gpu"] = p.runtime.use_gpu;
  d["det_model"] = p.det.model_dir;
  d["rec_model"] = p.rec.model_dir;
  d["cls_model"] = p.cls.model_dir;
  d["rec_char_dict_path"] = p.rec.char_dict_path;
  return d;
}

}  // namespace

PYBIND11_MODULE(_ocrforge, m) {
  m.doc() = "C++ half of the ocrforge package: pipeline pools over ocrforge::infer (see ocrforge.PaddleOCR)";
  m.attr("__version__") = OCRFORGE_VERSION;

  // ocrforge errors as the Python exceptions a Python user expects; the
  // message is the C++ one. Anything else: pybind11's defaults (std::exception
  // -> RuntimeError, bad_alloc -> MemoryError).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputNotFound& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    } catch (const InputIsFolder& e) {
      PyErr_SetString(PyExc_IsADirectoryError, e.what());
    } catch (const InputUnreadable& e) {
      PyErr_SetString(e.error_number() == EACCES || e.error_number() == EPERM ? PyExc_PermissionError : PyExc_OSError,
                      e.what());
    } catch (const NotSupportedYet& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const BadInput& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  py::class_<PipelinePool, std::shared_ptr<PipelinePool>>(m, "Pool",
                                                         "Pipelines of one parameter set, leased one per call.")
      .def_property_readonly("params", &params_dict, "The parameters as resolved from the flags.")
      .def_property_readonly("instances", &PipelinePool::instances,
                             "Pipelines loaded so far (the most calls that ran at the same time).")
      .def(
          "ocr",
          [](PipelinePool& pool, const py::object& image, std::array<int, 3> alpha_rgb, bool invert, bool binarize,
             bool keep_crops, bool keep_image) {
            const ImageArg arg(image, make_preprocess(alpha_rgb, invert, binarize));
            InputImage in;
            OcrResult r;
            {
              py::gil_scoped_release nogil;
              in = arg.decode(pool.read_params());
              auto lease = pool.acquire();
              r = lease->run(in.bgr, in.scale, keep_crops);
            }
            return result_dict(r, in, keep_image);
          },
          py::arg("image"), py::arg("alpha_color") = std::array<int, 3>{255, 255, 255}, py::arg("inv") = false,
          py::arg("bin") = false, py::arg("keep_crops") = false, py::arg("keep_image") = false,
          "Detection, direction classifier (when the pool has it) and recognition of one image; every detected "
          "line in reading order.")
      .def(
          "decode",
          [](PipelinePool& pool, const py::object& image, std::array<int, 3> alpha_rgb, bool invert, bool binarize) {
            const ImageArg arg(image, make_preprocess(alpha_rgb, invert, binarize));
            InputImage in;
            {
              py::gil_scoped_release nogil;
              in = arg.decode(pool.read_params());
            }
            return array_from_mat(in.bgr);
          },
          py::arg("image"), py::arg("alpha_color") = std::array<int, 3>{255, 255, 255}, py::arg("inv") = false,
          py::arg("bin") = false, "The image as the pipeline would read it (BGR uint8), preprocessing applied.")
      .def(
          "detect",
          [](PipelinePool& pool, const py::object& image, std::array<int, 3> alpha_rgb, bool invert, bool binarize) {
            const ImageArg arg(image, make_preprocess(alpha_rgb, invert, binarize));
            InputImage in;
            std::vector<TextBox> boxes;
            {
              py::gil_scoped_release nogil;
              in = arg.decode(pool.read_params());
              auto lease = pool.acquire();
              boxes = lease->detector().detect(in.bgr);
            }
            py::list out;
            for (TextBox& b : boxes) {
              for (auto& p : b.polygon) p *= in.scale;
              out.append(py::make_tuple(points_list(b.polygon), double(b.score)));
            }
            return out;
          },
          py::arg("image"), py::arg("alpha_color") = std::array<int, 3>{255, 255, 255}, py::arg("inv") = false,
          py::arg("bin") = false, "Detection only, boxes in the detector's order (PaddleOCR's ocr(rec=False)).")
      .def(
          "recognize",
          [](PipelinePool& pool, const std::vector<py::array>& images, bool classify, bool recognize) {
            std::vector<cv::Mat> crops;
            for (const auto& a : images) {
              bool view = false;
              crops.push_back(mat_from_array(a, &view));
            }
            std::vector<ClsResult> cls;
            std::vector<RecText> texts;
            {
              py::gil_scoped_release nogil;
              for (auto& c : crops) c = to_bgr(c, {255, 255, 255}, "image array").clone();
              auto lease = pool.acquire();
              if (classify) {
                if (!lease->classifier()) throw UsageError("the direction classifier is not loaded (use_angle_cls=False)");
                cls = lease->classifier()->classify(crops);
              }
              if (recognize) {
                for (auto& c : crops) c = cap_rec_width(c, pool.params().rec.image_h);
                texts = lease->recognizer().recognize(crops);
              }
            }
            py::list cls_out, rec_out;
            for (const auto& c : cls) cls_out.append(py::make_tuple(py::str(c.label), double(c.score)));
            for (const auto& t : texts) rec_out.append(py::make_tuple(py::str(t.text), double(t.score)));
            return py::make_tuple(cls_out, rec_out);
          },
          py::arg("images"), py::arg("classify"), py::arg("recognize"),
          "Whole images as text lines (PaddleOCR's ocr(det=False)): classifier and/or recogniser.")
      .def(
          "open_document",
          [](PipelinePool& pool, const py::object& image, const std::string& name) -> py::object {
            std::shared_ptr<Document> doc;
            if (py::isinstance<py::str>(image)) {
              const std::string path = image.cast<std::string>();
              py::gil_scoped_release nogil;
              doc = Document::open_file(path, pool.document_params());
            } else if (py::isinstance<py::bytes>(image)) {
              char* data = nullptr;
              py::ssize_t size = 0;
              if (PyBytes_AsStringAndSize(image.ptr(), &data, &size) != 0) throw py::error_already_set();
              const std::string_view bytes(data, static_cast<size_t>(size));  // `image` outlives the call
              py::gil_scoped_release nogil;
              doc = Document::open_bytes(bytes, name.empty() ? "bytes" : name, pool.document_params());
            }
            if (!doc) return py::none();
            return py::cast(doc);
          },
          py::arg("image"), py::arg("name") = "",
          "A PDF or TIFF (a path or bytes) as a Document of its selected pages (page_num, pages, max_pages, "
          "pdf_dpi of this pool's flags), nothing decoded yet; None for anything else (an image, an array).")
      .def(
          "_bench_native",
          [](PipelinePool& pool, const std::vector<std::string>& paths) {
            // The same work as ocr(path) per image, driven from C++ with no
            // Python per image: the peer of bench/python_overhead.py.
            std::vector<double> ms;
            py::gil_scoped_release nogil;
            auto lease = pool.acquire();
            for (const auto& path : paths) {
              Stopwatch sw;
              const InputImage in = decode_file(path, pool.read_params(), Preprocess{});
              const OcrResult r = lease->run(in.bgr, in.scale);
              ms.push_back(sw.elapsed_ms());
              (void)r;
            }
            return ms;
          },
          py::arg("paths"), "Milliseconds per image of decode + pipeline run in a C++ loop (benchmarks).");

  py::class_<Engine, std::shared_ptr<Engine>>(m, "Engine", "The pipeline pools of one PaddleOCR object.")
      .def(py::init<>())
      .def(
          "pool",
          [](Engine& e, const std::vector<std::string>& flags) {
            py::gil_scoped_release nogil;
            return e.pool(flags);
          },
          py::arg("flags"),
          "The pool for these `ocrforge ocr` flags; the first call for a flag set loads its models.")
      .def_property_readonly("pools", &Engine::pools);

  m.def(
      "array_is_view",
      [](const py::array& a) {
        bool view = false;
        mat_from_array(a, &view);
        return view;
      },
      py::arg("array"), "Whether ocr() reads this array in place (True) or copies it first (False).");
  py::class_<Document, std::shared_ptr<Document>>(
      m, "Document", "A PDF or multi-page TIFF opened by Pool.open_document: its selected pages, decoded one at a "
                     "time when a call reads Document.page(i).")
      .def("__len__", &Document::pages)
      .def_property_readonly("kind", [](const Document& d) { return d.kind() == Document::Kind::pdf ? "pdf" : "tiff"; })
      .def_property_readonly("name", &Document::name)
      .def_property_readonly("single_page", &Document::single_page, "The file has one page.")
      .def("page_index", &Document::page_index, py::arg("i"), "Page number in the file (0-based) of selected page i.")
      .def(
          "page",
          [](const std::shared_ptr<Document>& d, size_t i) {
            d->page_index(i);  // range check
            return DocumentPage{d, i};
          },
          py::arg("i"), "Selected page i, as Pool.ocr / detect / decode take it.");
  py::class_<DocumentPage>(m, "DocumentPage", "One page of a Document (keeps the Document open).")
      .def_property_readonly("index", [](const DocumentPage& p) { return p.doc->page_index(p.index); });

  m.def(
      "list_images",
      [](const std::string& path, const std::vector<std::string>& also) { return list_images(path, also); },
      py::arg("path"), py::arg("also") = std::vector<std::string>{},
      "The images of a folder (and files with the extensions `also`, e.g. ['.pdf']), sorted by name (a file: "
      "itself), as `ocrforge ocr --image_dir` lists them.");
  m.def(
      "ocr_param_table",
      [] {
        // The library's one table of OCR parameters (ocr_param_table.h): the
        // keywords layer maps each flag and 3.x keyword from it.
        static const char* kinds[] = {"int", "float", "bool", "str"};
        std::vector<py::dict> out;
        for (const auto& s : ocr_param_table()) {
          py::dict d;
          d["flag"] = s.flag;
          d["keyword3"] = s.keyword3;
          d["request_field"] = s.request_field;
          d["kind"] = kinds[static_cast<int>(s.kind)];
          d["default"] = s.get(default_ocr_params());
          out.push_back(d);
        }
        return out;
      },
      "The OCR parameters with their flag, PaddleOCR 3.x keyword, PaddleX request field, kind and default.");
  m.def("available_langs", &available_langs, "The languages with a model set, the default first (lang_models.h).");
  m.def(
      "lang_models",
      [](const std::string& lang, const std::string& models_dir) {
        const OcrParams p = ocr_params_for_lang(lang, models_dir);
        py::dict d;
        d["det_model_dir"] = p.det.model_dir;
        d["rec_model_dir"] = p.rec.model_dir;
        d["cls_model_dir"] = p.cls.model_dir;
        d["rec_char_dict_path"] = p.rec.char_dict_path;
        d["rec_lexicon"] = p.rec.lexicon_path;  // "" when the set has no word list
        d["det_db_box_thresh"] = std::to_string(p.det.post.box_thresh);
        return d;
      },
      py::arg("lang"), py::arg("models_dir"),
      "The model files of `lang` under `models_dir` (the folder holding PP-OCRv4/ and en/); RuntimeError naming "
      "the missing file or listing the available languages.");
  m.def(
      "imwrite",
      [](const std::string& path, const py::array& image) {
        bool view = false;
        const cv::Mat m = mat_from_array(image, &view);
        bool ok = false;
        {
          py::gil_scoped_release nogil;
          ok = cv::imwrite(path, m);
        }
        if (!ok) throw Error("cannot write image '" + path + "' (folder missing, not writable, or unknown extension)");
      },
      py::arg("path"), py::arg("image"), "Writes a BGR uint8 array (format from the extension).");
  m.def(
      "draw_ocr_box_txt",
      [](const py::array& image, const std::vector<std::vector<std::pair<double, double>>>& polys,
         const std::vector<std::string>& texts, const std::string& font_path) {
        bool view = false;
        const cv::Mat m = to_bgr(mat_from_array(image, &view), {255, 255, 255}, "image array");
        std::vector<Quad> quads;
        for (const auto& poly : polys) {
          std::vector<cv::Point2f> pts;
          for (const auto& [x, y] : poly) pts.emplace_back(static_cast<float>(x), static_cast<float>(y));
          if (pts.size() < 4) throw BadInput("draw_ocr_box_txt: a box needs at least 4 points");
          Quad q;
          if (pts.size() == 4) {
            std::copy(pts.begin(), pts.end(), q.begin());
          } else {
            cv::Point2f corners[4];
            cv::minAreaRect(pts).points(corners);
            q = order_points_clockwise({corners[0], corners[1], corners[2], corners[3]});
          }
          quads.push_back(q);
        }
        cv::Mat out;
        {
          py::gil_scoped_release nogil;
          out = draw_ocr_box_txt(m, quads, texts, font_path);
        }
        return array_from_mat(out);
      },
      py::arg("image"), py::arg("polys"), py::arg("texts"), py::arg("font_path") = "",
      "PaddleOCR's draw_ocr_box_txt: the image with boxes left, the texts right (BGR, 2W x H).");
  m.def("default_font_path", &default_font_path, "The font the visualisation uses by default (\"\": none found).");
  // Batch reading on Dask (ocrforge.dask): batch.cpp.
  bind_batch(m);
}
