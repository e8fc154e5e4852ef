#include "ocrforge/document/tsv.h"

#include <cstdio>

namespace ocrforge {

namespace {

std::string row(int level, int page, int block, int par, int line, int word, const PixelBox& b, const std::string& conf,
                const std::string& text) {
  std::string s;
  for (int v : {level, page, block, par, line, word, b.x0, b.y0, b.width(), b.height()}) s += std::to_string(v) + "\t";
  return s + conf + "\t" + text + "\n";
}

// Tabs and line breaks inside a word would break the columns.
std::string cell(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

std::string tsv_header() {
  return "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n";
}

std::string tsv_page(const DocPage& page, int number) {
  std::string s = row(1, number, 0, 0, 0, 0, {0, 0, page.info.size.width, page.info.size.height}, "-1", "");
  int b = 0;
  for (const auto& block : page.blocks) {
    s += row(2, number, ++b, 0, 0, 0, block.box, "-1", "");
    int p = 0;
    for (const auto& para : block.paragraphs) {
      s += row(3, number, b, ++p, 0, 0, para.box, "-1", "");
      int l = 0;
      for (const auto& line : para.lines) {
        s += row(4, number, b, p, ++l, 0, line.box, "-1", "");
        int w = 0;
        for (const auto& word : line.words) {
          char conf[16];
          std::snprintf(conf, sizeof(conf), "%.6f", word.conf);
          s += row(5, number, b, p, l, ++w, word.box, conf, cell(word.text));
        }
      }
    }
  }
  return s;
}

}  // namespace ocrforge
