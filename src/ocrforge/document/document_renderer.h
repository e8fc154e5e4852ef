// The document files of `--output_format`, as renderers behind one
// interface (Tesseract's begin / add page / end renderer model): each format
// is one class in one file, registered by one line in document_renderer.cpp
// with its name, extension and help; DocumentOutputs, the CLI's flag text and
// the Python and server front ends only see the registry.
#pragma once
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/core/flags.h"
#include "ocrforge/document/page_layout.h"

namespace ocrforge {

// What a page came from, for the outputs that keep the input (the PDF).
struct PageSource {
  std::string file;        // the input file
  std::string stem;        // output base name for this input ("scan" -> scan.hocr, scan.pdf)
  bool is_pdf = false;     // a PDF input: its pages are kept, only text is added
  int pdf_page = -1;       // for a PDF input: the page's index in it
  bool single_image = false;  // `file` is this one page's image (JPEG/PNG can pass into the PDF unchanged)
  const cv::Mat* bgr = nullptr;  // the decoded page (pixels for the PDF when the file cannot pass)
};

// Options some renderers read (each ignores the others).
struct RenderOptions {
  bool textonly_pdf = false;  // pdf: pages without the image (Tesseract's textonly_pdf)
  int alto_version = 4;       // alto: 4 (valid against alto-4-4.xsd) or 3 (Tesseract 5's flavour)
};

// One output file of one input document. The file is written under a temp
// name and only appears, whole, at end(); destroyed before end(), it leaves
// nothing. Methods throw Error naming the file when it cannot be written.
class DocumentRenderer {
 public:
  virtual ~DocumentRenderer() = default;
  // `number`: the page's 1-based position among the pages written to this file.
  virtual void add_page(const DocPage& page, const PageSource& src, int number) = 0;
  // Completes and commits the file; returns its path.
  virtual std::string end() = 0;
};

struct RendererKind {
  std::string name;       // as given to --output_format
  std::string extension;  // of the file written ("<stem><extension>")
  std::string help;       // one phrase for --help
  // Begins the file `path` for the document whose first page is `first`.
  std::function<std::unique_ptr<DocumentRenderer>(const std::string& path, const PageSource& first,
                                                  const RenderOptions& options)>
      begin;
};

// Every format, in --help's order.
const std::vector<RendererKind>& renderer_kinds();
// The kind called `name`, or nullptr.
const RendererKind* find_renderer(const std::string& name);
// "txt (...), hocr (...), ...": the formats for help texts.
std::string renderer_help();

// "txt,hocr,alto,tsv,pdf,json" (any subset, any order) -> the set; "" ->
// empty. Throws UsageError naming --output_format for an unknown name.
std::set<std::string> parse_output_formats(const std::string& spec);

// The output flags every front end that writes document files reads
// (--output_format, --textonly_pdf, --alto_version); UsageError names the
// flag of a bad value.
void declare_render_flags(FlagSet& flags);
struct RenderFlags {
  std::set<std::string> formats;  // --output_format
  RenderOptions options;
};
RenderFlags render_flags_from(const FlagSet& flags);

// The renderers of each format, one file per kind (text_renderers.cpp, pdf_renderer.cpp).
std::unique_ptr<DocumentRenderer> begin_txt(const std::string& path, const PageSource&, const RenderOptions&);
std::unique_ptr<DocumentRenderer> begin_hocr(const std::string& path, const PageSource&, const RenderOptions&);
std::unique_ptr<DocumentRenderer> begin_alto(const std::string& path, const PageSource&, const RenderOptions&);
std::unique_ptr<DocumentRenderer> begin_tsv(const std::string& path, const PageSource&, const RenderOptions&);
std::unique_ptr<DocumentRenderer> begin_json(const std::string& path, const PageSource&, const RenderOptions&);
std::unique_ptr<DocumentRenderer> begin_pdf(const std::string& path, const PageSource&, const RenderOptions&);

}  // namespace ocrforge
