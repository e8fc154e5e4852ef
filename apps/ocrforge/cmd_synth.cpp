// `ocrforge synth rec|det`: synthetic labelled data in PaddleOCR's formats.
//   rec: <out>/images/*.jpg + <out>/rec_gt.txt (word and short-line crops)
//   det: <out>/images/*.jpg + <out>/det_gt.txt (pictures with several lines)
// Every knob of ocrforge::SynthRecParams / SynthDetParams is a flag whose
// default is read from the structs, so help text and library cannot drift.
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/text.h"
#include "ocrforge/synth/synth.h"

namespace ocrforge {

namespace {

std::string num_str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}
std::string range_str(const Range& r) { return num_str(r.lo) + "," + num_str(r.hi); }

Range get_range(const FlagSet& f, const std::string& name) {
  const std::vector<std::string> parts = split(f.get(name), ',');
  if (parts.size() == 1) {
    const double v = parse_double(parts[0], "--" + name);
    return Range{v, v};
  }
  if (parts.size() != 2) throw UsageError("--" + name + " expects lo,hi (e.g. " + f.get(name) + ")");
  return Range{parse_double(trim(parts[0]), "--" + name), parse_double(trim(parts[1]), "--" + name)};
}

// "flat=0.4,gradient=0.3,noise=0.3,image=0.5"
void get_bg_weights(const FlagSet& f, SynthBackgroundParams* b) {
  for (const std::string& item : split(f.get("bg_weights"), ',')) {
    const auto kv = split(item, '=');
    if (kv.size() != 2) throw UsageError("--bg_weights expects kind=weight pairs, e.g. flat=0.4,noise=0.3");
    const std::string k = trim(kv[0]);
    const double v = parse_double(trim(kv[1]), "--bg_weights " + k);
    if (k == "flat") b->flat = v;
    else if (k == "gradient") b->gradient = v;
    else if (k == "noise") b->noise = v;
    else if (k == "image") b->image = v;
    else throw UsageError("--bg_weights: unknown kind '" + k + "' (flat, gradient, noise, image)");
  }
}

void declare_common(FlagSet& f, const SynthCommonParams& d) {
  f.add("out", "", "output folder (created): images/ and the label file go there");
  f.add("num", "", "number of samples to generate");
  f.add("seed", std::to_string(d.seed), "random seed; same seed + inputs = same bytes");
  f.add("workers", std::to_string(d.workers), "worker threads (0 = all cores); output does not depend on it");
  f.add("fonts", "", "comma-separated font files / folders (.ttf .otf .ttc); default DejaVu + Liberation");
  f.add("dict", d.text.dict_path,
        "character dictionary (e.g. models/PP-OCRv4/ppocr_keys_v1.txt); default printable ASCII");
  f.add("corpus", d.text.corpus_path,
        "text corpus, one text per line; default: built-in words/numbers/dates/prices/codes");
  f.add("words", d.text.words_path, "word list of the built-in generator (Debian wamerican)");
  f.add_bool("use_space_char", d.text.use_space_char, "allow spaces inside texts (multi-word lines)");
  f.add("min_chars", std::to_string(d.text.min_chars), "shortest text, characters");
  f.add("max_chars", std::to_string(d.text.max_chars), "longest text, characters (PaddleOCR max_text_length)");
  f.add("cjk_ratio", num_str(d.text.cjk_ratio),
        "share of random Chinese strings when the dict has CJK and a CJK font is given");
  f.add("upper_prob", num_str(d.text.upper_prob), "ALL CAPS words (built-in generator)");
  f.add("title_prob", num_str(d.text.title_prob), "Capitalised words (built-in generator)");
  f.add("image_ext", d.image_ext, "output image format: jpg or png");
  f.add("bg_dir", d.background.bg_dir, "folder of pictures whose crops serve as backgrounds (optional)");
  const auto& b = d.background;
  f.add("bg_weights", "flat=" + num_str(b.flat) + ",gradient=" + num_str(b.gradient) + ",noise=" + num_str(b.noise) +
                          ",image=" + num_str(b.image),
        "background mixture weights (image only with --bg_dir)");
  f.add("bg_wash", range_str(b.image_wash), "blend of picture backgrounds toward their mean colour");
  f.add("min_contrast", num_str(d.colour.min_contrast), "minimum luma difference text/background (0-255)");
  f.add("dark_text_prob", num_str(d.colour.dark_text_prob), "dark text on light background (else light on dark)");
  f.add("colour_prob", num_str(d.colour.colour_prob), "tinted instead of grey text and backgrounds");
  f.add("opacity", range_str(d.colour.opacity), "ink opacity");
  const auto& a = d.augment;
  f.add("max_rotate", num_str(a.max_rotate_deg), "rec: rotation of the crop, degrees");
  f.add("max_shear", num_str(a.max_shear), "horizontal skew (x += s*y) of rec crops");
  f.add("max_perspective", num_str(a.max_perspective), "rec: corner jitter, fraction of the crop height");
  f.add("blur_prob", num_str(a.blur_prob), "Gaussian blur probability");
  f.add("blur_sigma", range_str(a.blur_sigma), "Gaussian blur sigma, pixels");
  f.add("noise_prob", num_str(a.noise_prob), "additive Gaussian noise probability");
  f.add("noise_sigma", range_str(a.noise_sigma), "noise standard deviation (0-255 scale)");
  f.add("jpeg_quality", range_str(a.jpeg_quality), "JPEG quality (JPEG artefacts)");
  f.add("underline_prob", num_str(a.underline_prob), "rec: underlined text");
  f.add("border_prob", num_str(a.border_prob), "rec: a thin frame around the text");
}

SynthCommonParams common_from(const FlagSet& f) {
  SynthCommonParams c;
  if (f.get("out").empty()) throw UsageError("--out is required (the output folder)");
  if (f.get("num").empty()) throw UsageError("--num is required (how many samples)");
  c.out_dir = f.get("out");
  c.num = f.get_int("num");
  try {
    c.seed = static_cast<uint64_t>(std::stoull(f.get("seed")));
  } catch (const std::exception&) {
    throw UsageError("--seed must be a non-negative integer, got '" + f.get("seed") + "'");
  }
  c.workers = f.get_int("workers");
  for (const std::string& s : split(f.get("fonts"), ','))
    if (!trim(s).empty()) c.fonts.push_back(trim(s));
  c.text.dict_path = f.get("dict");
  c.text.corpus_path = f.get("corpus");
  c.text.words_path = f.get("words");
  c.text.use_space_char = f.get_bool("use_space_char");
  c.text.min_chars = f.get_int("min_chars");
  c.text.max_chars = f.get_int("max_chars");
  c.text.cjk_ratio = f.get_double("cjk_ratio");
  c.text.upper_prob = f.get_double("upper_prob");
  c.text.title_prob = f.get_double("title_prob");
  c.image_ext = to_lower(f.get("image_ext"));
  c.background.bg_dir = f.get("bg_dir");
  get_bg_weights(f, &c.background);
  c.background.image_wash = get_range(f, "bg_wash");
  c.colour.min_contrast = f.get_double("min_contrast");
  c.colour.dark_text_prob = f.get_double("dark_text_prob");
  c.colour.colour_prob = f.get_double("colour_prob");
  c.colour.opacity = get_range(f, "opacity");
  auto& a = c.augment;
  a.max_rotate_deg = f.get_double("max_rotate");
  a.max_shear = f.get_double("max_shear");
  a.max_perspective = f.get_double("max_perspective");
  a.blur_prob = f.get_double("blur_prob");
  a.blur_sigma = get_range(f, "blur_sigma");
  a.noise_prob = f.get_double("noise_prob");
  a.noise_sigma = get_range(f, "noise_sigma");
  a.jpeg_quality = get_range(f, "jpeg_quality");
  a.underline_prob = f.get_double("underline_prob");
  a.border_prob = f.get_double("border_prob");
  return c;
}

void declare_rec(FlagSet& f, const SynthRecParams& d) {
  f.add("height", std::to_string(d.height), "crop height, pixels");
  f.add("text_height", range_str(d.text_height), "text line height / crop height");
  f.add("margin_x", range_str(d.margin_x), "left and right margins, in text heights");
}

void declare_det(FlagSet& f, const SynthDetParams& d) {
  f.add("width", range_str(d.width), "image width range, pixels");
  f.add("height", range_str(d.height), "image height range, pixels");
  f.add("lines", range_str(d.lines), "text lines tried per image");
  f.add("words_per_line", range_str(d.words_per_line), "words per line (built-in generator)");
  f.add("font_px", range_str(d.font_px), "font size of readable lines, pixels");
  f.add("small_text_prob", num_str(d.small_text_prob), "a line in tiny type (labelled ###)");
  f.add("small_px", range_str(d.small_px), "font size of tiny lines, pixels");
  f.add("scene_prob", num_str(d.scene_prob), "scene layout (anywhere, large angles) instead of document");
  f.add("scene_max_angle", num_str(d.scene_max_angle), "scene line angle, degrees");
  f.add("doc_max_angle", num_str(d.doc_max_angle), "document line angle, degrees");
  f.add("perspective_prob", num_str(d.perspective_prob), "whole-image perspective probability");
  f.add("perspective", num_str(d.perspective), "whole-image corner jitter, fraction of the size");
  f.add("min_text_size", std::to_string(d.min_text_size), "lines lower than this (pixels) are labelled ###");
}

const char* kAbout =
    "ocrforge synth rec|det: synthetic labelled data in PaddleOCR's formats\n"
    "  rec: word and short-line crops -> <out>/images/*, <out>/rec_gt.txt\n"
    "  det: pictures with several lines -> <out>/images/*, <out>/det_gt.txt (4-point polygons, ### = too small)\n"
    "Same seed and inputs give byte-identical output with any --workers. See docs/synth.md.\n";

void print_report(const SynthReport& r, const std::string& what) {
  for (const auto& s : r.skipped_backgrounds)
    std::fprintf(stderr, "ocrforge synth: warning: background %s (left out)\n", printable(s).c_str());
  std::fprintf(stderr, "synth %s: %ld samples", what.c_str(), r.samples);
  if (what == "det") std::fprintf(stderr, " (%ld lines, %ld labelled ###)", r.regions, r.ignored);
  std::fprintf(stderr, " in %.2f s (%.1f samples/s, %d workers, %zu fonts); labels: %s\n", r.seconds,
               r.seconds > 0 ? r.samples / r.seconds : 0.0, r.workers, r.fonts, r.label_file.c_str());
}

}  // namespace

int cmd_synth(const Args& args) {
  const std::string mode = args.empty() ? "" : args[0];
  if (mode != "rec" && mode != "det") {
    if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
      std::cout << kAbout << "`ocrforge synth rec --help` and `ocrforge synth det --help` list the flags.\n";
      return 0;
    }
    throw UsageError("expected rec or det first (e.g. ocrforge synth rec --out data/rec --num 1000)");
  }
  const Args rest(args.begin() + 1, args.end());
  FlagSet flags("synth " + mode);
  if (mode == "rec") {
    const SynthRecParams d;
    declare_common(flags, d.common);
    declare_rec(flags, d);
  } else {
    const SynthDetParams d;
    declare_common(flags, d.common);
    declare_det(flags, d);
  }
  const std::vector<std::string> pos = flags.parse(rest);
  if (flags.help_requested()) {
    std::cout << kAbout << flags.help_text();
    return 0;
  }
  if (!pos.empty())
    throw UsageError("unexpected argument '" + pos[0] + "' (several fonts are comma-separated: --fonts a.ttf,dir/)");
  if (mode == "rec") {
    SynthRecParams p;
    p.common = common_from(flags);
    p.height = flags.get_int("height");
    p.text_height = get_range(flags, "text_height");
    p.margin_x = get_range(flags, "margin_x");
    print_report(synth_rec(p), mode);
  } else {
    SynthDetParams p;
    p.common = common_from(flags);
    p.width = get_range(flags, "width");
    p.height = get_range(flags, "height");
    p.lines = get_range(flags, "lines");
    p.words_per_line = get_range(flags, "words_per_line");
    p.font_px = get_range(flags, "font_px");
    p.small_text_prob = flags.get_double("small_text_prob");
    p.small_px = get_range(flags, "small_px");
    p.scene_prob = flags.get_double("scene_prob");
    p.scene_max_angle = flags.get_double("scene_max_angle");
    p.doc_max_angle = flags.get_double("doc_max_angle");
    p.perspective_prob = flags.get_double("perspective_prob");
    p.perspective = flags.get_double("perspective");
    p.min_text_size = flags.get_int("min_text_size");
    print_report(synth_det(p), mode);
  }
  return 0;
}

}  // namespace ocrforge
