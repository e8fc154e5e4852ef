// Typed parameters of the synthetic-data generator (`ocrforge synth rec|det`),
// with the defaults the CLI shows. Ranges are closed [lo, hi], sampled
// uniformly per sample; probabilities are in [0, 1]. Defaults are moderate on
// purpose: labels must stay legible (docs/synth.md has the quality figures).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ocrforge {

struct Range {
  double lo = 0, hi = 0;
};

// Where text comes from and how it may look.
struct SynthTextParams {
  std::string dict_path;     // "" = printable ASCII (PaddleOCR's en_dict.txt)
  std::string corpus_path;   // "" = built-in generator (words + numbers, dates, prices, codes)
  std::string words_path = "/usr/share/dict/words";  // word list of the built-in generator
  bool use_space_char = true;  // spaces may appear inside texts (multi-word lines)
  int min_chars = 1;
  int max_chars = 25;          // PaddleOCR's max_text_length
  double cjk_ratio = 0.5;      // share of random CJK strings when the dict and a font allow them
  double upper_prob = 0.1;     // ALL CAPS words in the built-in generator
  double title_prob = 0.25;    // Capitalised words
};

// Background mixture weights (need not sum to 1); image = crops of pictures
// from bg_dir, ignored when bg_dir is "".
struct SynthBackgroundParams {
  double flat = 0.4, gradient = 0.3, noise = 0.3, image = 0.5;
  std::string bg_dir;
  Range image_wash{0.3, 0.6};  // blend of a picture crop toward its mean colour, for legibility
};

struct SynthColourParams {
  double min_contrast = 90;  // |luma(text) - luma(background)|, 0..255
  double dark_text_prob = 0.7;
  double colour_prob = 0.3;  // tinted (non-grey) text and background
  Range opacity{0.85, 1.0};  // ink opacity
};

// Augmentations. Geometry acts on each text line (rec: the crop; det: the
// line before placement); the photometric ones on the whole output image.
struct SynthAugmentParams {
  double max_rotate_deg = 2.0;  // rec crops; det lines use SynthDetParams' angles
  double max_shear = 0.15;      // horizontal skew, x += shear * y (straight lines stay straight)
  double max_perspective = 0.06;  // corner jitter, fraction of the line height
  double blur_prob = 0.2;
  Range blur_sigma{0.3, 0.9};
  double noise_prob = 0.3;
  Range noise_sigma{2.0, 8.0};
  Range jpeg_quality{70, 95};   // JPEG output only
  double underline_prob = 0.05;
  double border_prob = 0.03;    // a thin frame around the line, like a table cell
};

// Options common to both generators.
struct SynthCommonParams {
  std::string out_dir;
  long num = 0;
  uint64_t seed = 1024;          // PaddleOCR's Global.seed
  int workers = 0;               // 0 = all cores
  std::vector<std::string> fonts;  // files or folders; empty = DejaVu + Liberation on this machine
  std::string image_ext = "jpg";   // jpg | png
  SynthTextParams text;
  SynthBackgroundParams background;
  SynthColourParams colour;
  SynthAugmentParams augment;
};

struct SynthRecParams {
  SynthCommonParams common;
  int height = 48;                  // output crop height (PaddleOCR's rec_image_shape height)
  Range text_height{0.62, 0.80};    // line-box height / crop height
  Range margin_x{0.1, 0.5};         // left / right margin, in line-box heights
};

struct SynthDetParams {
  SynthCommonParams common;
  Range width{640, 960};
  Range height{480, 800};
  Range lines{3, 10};            // text lines tried per image (some may not fit)
  Range words_per_line{1, 5};
  Range font_px{18, 60};         // font size of readable lines, pixels
  double small_text_prob = 0.08; // a tiny line (Range small_px) labelled "###"
  Range small_px{5, 9};
  double scene_prob = 0.5;       // scene style (free placement, large angles) vs document
  double scene_max_angle = 25;   // degrees
  double doc_max_angle = 3;
  double perspective_prob = 0.3; // whole-image perspective
  double perspective = 0.06;     // corner jitter, fraction of the image size
  int min_text_size = 8;         // lines lower than this (pixels) are "###"
};

}  // namespace ocrforge
