#include "document_flags.h"

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/document/page_layout.h"

namespace fs = std::filesystem;

namespace ocrforge {

void declare_document_flags(FlagSet& f) {
  f.add("output_format", "",
        "document files to write per input, comma-separated (Tesseract's names): txt, hocr, alto (.xml), tsv, "
        "pdf (searchable: page image + invisible text; a PDF input keeps its pages and gains the text)");
  f.add("pdf_dpi", "300",
        "resolution PDF pages are rendered at (0: a scanned page's own image, taken out unrendered when it can be, "
        "else rendered at its resolution; 300 for pages that are no scan)");
  f.add("pages", "", "pages of each PDF / multi-page TIFF to read, e.g. 1-3,7 or 5- (default: all)");
  f.add("page_num", "0", "PaddleOCR's page_num: read only the first N (selected) pages of each document; 0 = all");
  f.add("max_pages", "1000", "refuse a document with more pages to read than this (0 = no cap)");
  f.add("image_dpi", "0", "resolution of image inputs for the pdf / hocr outputs (0: the file's own, else 300)");
  f.add_bool("textonly_pdf", false, "pdf output without the page image: only the invisible text (Tesseract's textonly_pdf)");
}

DocumentFlags document_flags(const FlagSet& flags, const ImageReadParams& read) {
  DocumentFlags d;
  d.formats = parse_output_formats(flags.get("output_format"));
  d.textonly_pdf = flags.get_bool("textonly_pdf");
  d.read.read = read;
  d.read.pages = PageSelection::parse(flags.get("pages"));
  d.read.page_num = flags.get_int("page_num");
  d.read.max_pages = flags.get_int("max_pages");
  d.read.pdf_dpi = flags.get_double("pdf_dpi");
  d.read.image_dpi = flags.get_double("image_dpi");
  if (d.read.page_num < 0) throw UsageError("--page_num must be >= 0 (0 = all pages), got " + flags.get("page_num"));
  if (d.read.max_pages < 0) throw UsageError("--max_pages must be >= 0 (0 = no cap), got " + flags.get("max_pages"));
  if (!(d.read.pdf_dpi == 0 || (d.read.pdf_dpi >= 10 && d.read.pdf_dpi <= 2400)))
    throw UsageError("--pdf_dpi must be 0 (each page's scan resolution) or in [10, 2400], got " + flags.get("pdf_dpi"));
  if (!(d.read.image_dpi == 0 || (d.read.image_dpi >= 10 && d.read.image_dpi <= 2400)))
    throw UsageError("--image_dpi must be 0 (the file's own) or in [10, 2400], got " + flags.get("image_dpi"));
  return d;
}

void name_pages(OcrOutputs& outputs, const std::vector<InputItem>& items, const std::vector<std::string>& files) {
  const auto stems = output_stems(files);
  for (const auto& it : items) {
    if (it.single) continue;
    PageOutputName n;
    const std::string index = std::to_string(it.page);
    n.result_name = path_filename(it.file) + "_" + index;
    n.stem = stems.at(it.file) + "_" + index;
    n.vis_file = n.stem + ".png";
    n.input_path = it.file;
    n.page_index = it.page;
    outputs.set_page_name(it.key, n);
  }
}

size_t add_document_page(DocumentOutputs& documents, const DocumentInputs& inputs, const std::string& key,
                         const cv::Mat& bgr, const OcrResult& result, const std::map<std::string, std::string>& stems) {
  const InputItem& it = inputs.item(key);
  const double dpi = inputs.dpi_of(key);
  PageInfo info;
  info.image_name = path_filename(it.file);
  info.index = it.page;
  info.size = result.image_size;
  info.dpi_x = info.dpi_y = dpi;
  PageSource src;
  src.file = it.file;
  src.stem = stems.at(it.file);
  src.is_pdf = it.kind == InputItem::Kind::pdf_page;
  src.pdf_page = it.page;
  src.single_image = it.kind == InputItem::Kind::image;
  src.bgr = &bgr;
  try {
    documents.add_page(build_page(result, info), src);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ocrforge ocr: error: document output of '%s': %s\n", it.file.c_str(), e.what());
    return 1;
  }
}

void steady_memory_for_pages(const std::vector<InputItem>& items) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
  bool pages = false;
  for (const auto& it : items) pages = pages || it.kind != InputItem::Kind::image;
  if (!pages || std::getenv("MALLOC_MMAP_THRESHOLD_") || std::getenv("GLIBC_TUNABLES")) return;
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
#else
  (void)items;
#endif
}

size_t finish_documents(DocumentOutputs& documents) {
  try {
    documents.finish();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ocrforge ocr: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace ocrforge
