#include "ocrforge/document/document_renderer.h"

#include <algorithm>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

const std::vector<RendererKind>& renderer_kinds() {
  // Tesseract's names and extensions where Tesseract has the format.
  static const std::vector<RendererKind> kinds = {
      {"txt", ".txt", "text in reading order, pages separated by form feeds", begin_txt},
      {"hocr", ".hocr", "hOCR 1.2 as Tesseract writes it", begin_hocr},
      {"alto", ".xml", "ALTO (--alto_version 4, or 3 as Tesseract 5 writes it)", begin_alto},
      {"tsv", ".tsv", "Tesseract's TSV: one row per page, block, paragraph, line and word", begin_tsv},
      {"pdf", ".pdf",
       "searchable PDF: page image + invisible text; a PDF input keeps its pages and gains the text", begin_pdf},
      {"json", ".json", "every page's blocks, paragraphs, lines and words with boxes and scores", begin_json},
  };
  return kinds;
}

const RendererKind* find_renderer(const std::string& name) {
  for (const auto& k : renderer_kinds())
    if (k.name == name) return &k;
  return nullptr;
}

std::string renderer_help() {
  std::string s;
  for (const auto& k : renderer_kinds()) s += (s.empty() ? "" : "; ") + k.name + " (" + k.help + ")";
  return s;
}

void declare_render_flags(FlagSet& f) {
  f.add("output_format", "", "document files to write per input, comma-separated (Tesseract's names): " + renderer_help());
  f.add_bool("textonly_pdf", false, "pdf output without the page image: only the invisible text (Tesseract's textonly_pdf)");
  f.add("alto_version", "4",
        "alto output: 4 (ALTO 4.4, pages numbered from 1) or 3 (ALTO 3 as Tesseract 5 writes it, pages from 0)");
}

RenderFlags render_flags_from(const FlagSet& flags) {
  RenderFlags r;
  r.formats = parse_output_formats(flags.get("output_format"));
  r.options.textonly_pdf = flags.get_bool("textonly_pdf");
  r.options.alto_version = flags.get_int("alto_version");
  if (r.options.alto_version != 3 && r.options.alto_version != 4)
    throw UsageError("--alto_version must be 3 or 4, got " + flags.get("alto_version"));
  return r;
}

std::set<std::string> parse_output_formats(const std::string& spec) {
  std::vector<std::string> names;
  for (const auto& k : renderer_kinds()) names.push_back(k.name);
  std::set<std::string> out;
  for (const std::string& part : split(spec, ',')) {
    const std::string name = to_lower(trim(part));
    if (name.empty()) continue;
    if (!find_renderer(name)) {
      const std::string hint = closest_match(name, names);
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw UsageError("--output_format: unknown format '" + name + "'" +
                       (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; the formats are " + list +
                       ", comma-separated");
    }
    out.insert(name);
  }
  return out;
}

}  // namespace ocrforge
