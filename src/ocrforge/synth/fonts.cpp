#include "ocrforge/synth/fonts.h"

#include <algorithm>
#include <filesystem>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace fs = std::filesystem;

namespace ocrforge {

std::u32string decode_utf8(const std::string& s) {
  std::u32string out;
  for (const std::string& ch : utf8_chars(s)) {
    const auto* b = reinterpret_cast<const unsigned char*>(ch.data());
    char32_t c = 0xFFFD;
    if (ch.size() == 1 && b[0] < 0x80) c = b[0];
    else if (ch.size() == 2 && (b[0] & 0xE0) == 0xC0) c = ((b[0] & 0x1Fu) << 6) | (b[1] & 0x3Fu);
    else if (ch.size() == 3 && (b[0] & 0xF0) == 0xE0)
      c = ((b[0] & 0x0Fu) << 12) | ((b[1] & 0x3Fu) << 6) | (b[2] & 0x3Fu);
    else if (ch.size() == 4 && (b[0] & 0xF8) == 0xF0)
      c = ((b[0] & 0x07u) << 18) | ((b[1] & 0x3Fu) << 12) | ((b[2] & 0x3Fu) << 6) | (b[3] & 0x3Fu);
    out.push_back(c);
  }
  return out;
}

namespace {

// RAII for the FreeType library and a face.
struct FtLibrary {
  FT_Library lib = nullptr;
  FtLibrary() {
    if (FT_Init_FreeType(&lib)) throw Error("FreeType cannot be initialised");
  }
  ~FtLibrary() { FT_Done_FreeType(lib); }
};
struct FtFace {
  FT_Face face = nullptr;
  ~FtFace() {
    if (face) FT_Done_Face(face);
  }
};

bool is_font_file(const fs::path& p) {
  const std::string ext = to_lower(p.extension().string());
  return ext == ".ttf" || ext == ".otf" || ext == ".ttc";
}

void open_face(FT_Library lib, const std::string& path, long index, FtFace* f) {
  if (FT_New_Face(lib, path.c_str(), index, &f->face) || !f->face)
    throw Error("font file '" + path + "' cannot be loaded by FreeType (not a TrueType/OpenType font, or damaged); "
                "check --fonts");
}

// The Simplified Chinese face of a collection, else 0.
int choose_face(FT_Library lib, const std::string& path) {
  FtFace probe;
  open_face(lib, path, -1, &probe);
  const long n = probe.face->num_faces;
  for (long i = 0; i < n; ++i) {
    FtFace f;
    open_face(lib, path, i, &f);
    const std::string family = f.face->family_name ? f.face->family_name : "";
    if (ends_with(family, " SC")) return static_cast<int>(i);
  }
  return 0;
}

// Largest ink extent above (ascent) and below (descent) the baseline of the
// covered probe characters at 100 px, as fractions of the font size.
void measure_extents(FT_Face face, FontInfo* info) {
  if (FT_Set_Pixel_Sizes(face, 0, 100)) return;
  double asc = 0, desc = 0;
  for (char32_t c : U"Hdkbl\u56fd") {
    if (c == 0 || !FT_Get_Char_Index(face, c) || FT_Load_Char(face, c, FT_LOAD_NO_BITMAP)) continue;
    asc = std::max(asc, face->glyph->metrics.horiBearingY / 64.0 / 100.0);
  }
  for (char32_t c : U"gjpqy\u56fd") {
    if (c == 0 || !FT_Get_Char_Index(face, c) || FT_Load_Char(face, c, FT_LOAD_NO_BITMAP)) continue;
    const FT_Glyph_Metrics& m = face->glyph->metrics;
    desc = std::max(desc, (m.height - m.horiBearingY) / 64.0 / 100.0);
  }
  if (asc > 0.2) info->ascent = asc;
  if (desc > 0.02) info->descent = desc;
}

std::vector<std::string> expand_specs(const std::vector<std::string>& specs) {
  std::vector<std::string> files;
  for (const std::string& spec : specs) {
    std::error_code ec;
    if (fs::is_directory(spec, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(spec, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file(ec) && is_font_file(it->path())) found.push_back(it->path().string());
      if (found.empty()) throw Error("font folder '" + spec + "' holds no .ttf, .otf or .ttc file (--fonts)");
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(spec, ec)) {
      files.push_back(spec);
    } else {
      throw Error("font '" + spec + "' does not exist (--fonts takes font files or folders)");
    }
  }
  return files;
}

}  // namespace

std::vector<std::string> FontSet::default_font_files() {
  std::vector<std::string> out;
  for (const char* dir : {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation2",
                          "/usr/share/fonts/truetype/liberation"}) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      // Math symbols and hairline faces make poor (barely legible) text.
      if (!is_font_file(e.path()) || name.find("Math") != std::string::npos ||
          name.find("ExtraLight") != std::string::npos)
        continue;
      found.push_back(e.path().string());
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

FontSet FontSet::load(const std::vector<std::string>& specs, const std::vector<char32_t>& codepoints) {
  std::vector<std::string> files = specs.empty() ? default_font_files() : expand_specs(specs);
  if (files.empty())
    throw Error(specs.empty() ? "no default fonts found (DejaVu or Liberation): install fonts-dejavu-core and "
                                "fonts-liberation2 (scripts/bootstrap.sh), or pass --fonts"
                              : "no font files given (--fonts)");
  FtLibrary ft;
  FontSet set;
  for (const std::string& path : files) {
    FontInfo info;
    info.path = path;
    info.face_index = to_lower(fs::path(path).extension().string()) == ".ttc" ? choose_face(ft.lib, path) : 0;
    FtFace f;
    open_face(ft.lib, path, info.face_index, &f);
    info.name = std::string(f.face->family_name ? f.face->family_name : "?") + " " +
                (f.face->style_name ? f.face->style_name : "");
    measure_extents(f.face, &info);
    std::unordered_set<char32_t> cov;
    for (char32_t c : codepoints)
      if (FT_Get_Char_Index(f.face, c) != 0) cov.insert(c);
    set.union_.insert(cov.begin(), cov.end());
    set.fonts_.push_back(std::move(info));
    set.coverage_.push_back(std::move(cov));
  }
  return set;
}

bool FontSet::covers(size_t font, const std::u32string& text) const {
  const auto& cov = coverage_.at(font);
  return std::all_of(text.begin(), text.end(), [&](char32_t c) { return cov.count(c) != 0; });
}

std::vector<size_t> FontSet::fonts_covering(const std::u32string& text) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < fonts_.size(); ++i)
    if (covers(i, text)) out.push_back(i);
  return out;
}

cv::freetype::FreeType2& FontRenderers::get(size_t font) {
  auto& r = renderers_.at(font);
  if (!r) {
    const FontInfo& info = set_->info(font);
    try {
      auto ft = cv::freetype::createFreeType2();
      ft->loadFontData(info.path, info.face_index);
      r = ft;
    } catch (const cv::Exception& e) {
      throw Error("font file '" + info.path + "' cannot be loaded by OpenCV's FreeType module: " + e.what());
    }
  }
  return *r;
}

}  // namespace ocrforge
