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
  declare_render_flags(f);
  declare_document_read_flags(f);
}

DocumentFlags document_flags(const FlagSet& flags, const ImageReadParams& read) {
  DocumentFlags d;
  const RenderFlags r = render_flags_from(flags);
  d.formats = r.formats;
  d.render = r.options;
  d.read = document_read_params_from_flags(flags);
  d.read.read = read;
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
