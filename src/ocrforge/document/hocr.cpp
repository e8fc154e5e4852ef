#include "ocrforge/document/hocr.h"

#include <cmath>
#include <cstdio>

#include "ocrforge/document/xml_text.h"
#include "ocrforge/version.h"

namespace ocrforge {

namespace {

std::string bbox(const PixelBox& b) {
  return "bbox " + std::to_string(b.x0) + " " + std::to_string(b.y0) + " " + std::to_string(b.x1) + " " +
         std::to_string(b.y1);
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

}  // namespace

std::string hocr_begin() {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\"\n"
         "    \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n"
         "<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\" lang=\"en\">\n"
         " <head>\n"
         "  <title></title>\n"
         "  <meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n"
         "  <meta name=\"ocr-system\" content=\"ocrforge " OCRFORGE_VERSION "\"/>\n"
         "  <meta name=\"ocr-capabilities\" content=\"ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf\"/>\n"
         " </head>\n"
         " <body>\n";
}

std::string hocr_page(const DocPage& page, int number) {
  const std::string p = std::to_string(number);
  const PageInfo& info = page.info;
  std::string s = "  <div class=\"ocr_page\" id=\"page_" + p + "\" title=\"image &quot;" +
                  xml_escape(info.image_name) + "&quot;; " + bbox({0, 0, info.size.width, info.size.height}) +
                  "; ppageno " + std::to_string(info.index) + "; scan_res " +
                  std::to_string(static_cast<int>(std::lround(info.dpi_x))) + " " +
                  std::to_string(static_cast<int>(std::lround(info.dpi_y))) + "\">\n";
  int b = 0, par = 0, ln = 0, wd = 0;
  for (const auto& block : page.blocks) {
    s += "   <div class=\"ocr_carea\" id=\"block_" + p + "_" + std::to_string(++b) + "\" title=\"" + bbox(block.box) +
         "\">\n";
    for (const auto& para : block.paragraphs) {
      s += "    <p class=\"ocr_par\" id=\"par_" + p + "_" + std::to_string(++par) + "\" title=\"" + bbox(para.box) +
           "\">\n";
      for (const auto& line : para.lines) {
        s += "     <span class=\"ocr_line\" id=\"line_" + p + "_" + std::to_string(++ln) + "\" title=\"" +
             bbox(line.box) + "; baseline " + fixed(line.baseline_slope, 3) + " " +
             std::to_string(line.baseline_offset) + "; x_size " + std::to_string(line.box.height()) + "\">";
        for (size_t i = 0; i < line.words.size(); ++i) {
          const DocWord& w = line.words[i];
          s += "\n      <span class=\"ocrx_word\" id=\"word_" + p + "_" + std::to_string(++wd) + "\" title=\"" +
               bbox(w.box) + "; x_wconf " + std::to_string(static_cast<int>(std::lround(w.conf))) + "\">" +
               xml_escape(w.text) + "</span>";
          if (i + 1 < line.words.size()) s += " ";
        }
        s += "\n     </span>\n";
      }
      s += "    </p>\n";
    }
    s += "   </div>\n";
  }
  s += "  </div>\n";
  return s;
}

std::string hocr_end() { return " </body>\n</html>\n"; }

}  // namespace ocrforge
