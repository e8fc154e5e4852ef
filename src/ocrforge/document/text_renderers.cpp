// The renderers that write text files: txt, hOCR, ALTO, TSV and JSON, each
// staged under a temp name (StagedFile) and committed whole at end().
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/document/alto.h"
#include "ocrforge/document/document_renderer.h"
#include "ocrforge/document/hocr.h"
#include "ocrforge/document/tsv.h"

namespace ocrforge {

namespace {

// A staged file with the text before the pages and after them.
class StagedRenderer : public DocumentRenderer {
 public:
  StagedRenderer(const std::string& path, const std::string& head, std::string tail)
      : file_(path), tail_(std::move(tail)) {
    if (!head.empty()) file_.append(head);
  }
  std::string end() override {
    if (!tail_.empty()) file_.append(tail_);
    file_.commit();
    return file_.path();
  }

 protected:
  StagedFile file_;
  std::string tail_;
};

class TxtRenderer : public StagedRenderer {
 public:
  explicit TxtRenderer(const std::string& path) : StagedRenderer(path, "", "") {}
  void add_page(const DocPage& page, const PageSource&, int) override { file_.append(page_text(page) + "\f"); }
};

class HocrRenderer : public StagedRenderer {
 public:
  explicit HocrRenderer(const std::string& path) : StagedRenderer(path, hocr_begin(), hocr_end()) {}
  void add_page(const DocPage& page, const PageSource&, int number) override {
    file_.append(hocr_page(page, number));
  }
};

class AltoRenderer : public StagedRenderer {
 public:
  AltoRenderer(const std::string& path, const std::string& source, AltoVersion version)
      : StagedRenderer(path, alto_begin(source, version), alto_end()), version_(version) {}
  void add_page(const DocPage& page, const PageSource&, int number) override {
    file_.append(alto_page(page, number, version_));
  }

 private:
  AltoVersion version_;
};

class TsvRenderer : public StagedRenderer {
 public:
  explicit TsvRenderer(const std::string& path) : StagedRenderer(path, tsv_header(), "") {}
  void add_page(const DocPage& page, const PageSource&, int number) override { file_.append(tsv_page(page, number)); }
};

nlohmann::json box_json(const PixelBox& b) { return {b.x0, b.y0, b.x1, b.y1}; }

// {"input": ..., "pages": [...]}, a page appended at a time so that a long
// document is never held whole.
class JsonRenderer : public StagedRenderer {
 public:
  JsonRenderer(const std::string& path, const std::string& input)
      : StagedRenderer(path, "{\"input\": " + nlohmann::json(input).dump(-1, ' ', false, kReplace) + ", \"pages\": [",
                       "]}\n") {}
  void add_page(const DocPage& page, const PageSource&, int number) override {
    nlohmann::json blocks = nlohmann::json::array();
    for (const auto& block : page.blocks) {
      nlohmann::json paragraphs = nlohmann::json::array();
      for (const auto& para : block.paragraphs) {
        nlohmann::json lines = nlohmann::json::array();
        for (const auto& line : para.lines) {
          nlohmann::json words = nlohmann::json::array();
          std::string text;
          for (const auto& w : line.words) {
            nlohmann::json quad = nlohmann::json::array();
            for (const auto& p : w.quad) quad.push_back({std::lround(p.x), std::lround(p.y)});
            words.push_back({{"text", w.text}, {"box", box_json(w.box)}, {"poly", quad}, {"score", w.conf / 100.f}});
            text += (text.empty() ? "" : " ") + w.text;
          }
          lines.push_back({{"text", text}, {"box", box_json(line.box)}, {"words", words}});
        }
        paragraphs.push_back({{"box", box_json(para.box)}, {"lines", lines}});
      }
      blocks.push_back({{"box", box_json(block.box)}, {"paragraphs", paragraphs}});
    }
    const nlohmann::json p = {{"page_index", page.info.index},
                              {"width", page.info.size.width},
                              {"height", page.info.size.height},
                              {"dpi", page.info.dpi_x},
                              {"text", page_text(page)},
                              {"blocks", blocks}};
    file_.append((number > 1 ? ",\n" : "\n") + p.dump(-1, ' ', false, kReplace));
  }

 private:
  // Text that is not valid UTF-8 (a file name) is written with U+FFFD rather than failing the file.
  static constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
};

}  // namespace

std::unique_ptr<DocumentRenderer> begin_txt(const std::string& path, const PageSource&, const RenderOptions&) {
  return std::make_unique<TxtRenderer>(path);
}

std::unique_ptr<DocumentRenderer> begin_hocr(const std::string& path, const PageSource&, const RenderOptions&) {
  return std::make_unique<HocrRenderer>(path);
}

std::unique_ptr<DocumentRenderer> begin_alto(const std::string& path, const PageSource& first,
                                             const RenderOptions& o) {
  if (o.alto_version != 3 && o.alto_version != 4)
    throw UsageError("--alto_version must be 3 or 4, got " + std::to_string(o.alto_version));
  return std::make_unique<AltoRenderer>(path, std::filesystem::path(first.file).filename().string(),
                                        o.alto_version == 3 ? AltoVersion::v3 : AltoVersion::v4);
}

std::unique_ptr<DocumentRenderer> begin_tsv(const std::string& path, const PageSource&, const RenderOptions&) {
  return std::make_unique<TsvRenderer>(path);
}

std::unique_ptr<DocumentRenderer> begin_json(const std::string& path, const PageSource& first, const RenderOptions&) {
  return std::make_unique<JsonRenderer>(path, first.file);
}

}  // namespace ocrforge
