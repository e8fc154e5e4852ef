#include "ocrforge/synth/synth.h"

#include <filesystem>
#include <vector>

#include "ocrforge/core/error.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/synth/label_writer.h"
#include "ocrforge/synth/parallel.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

// Knob names are the CLI flag names, so errors read the same from the API;
// they are usage errors (exit 2), as docs/synth.md says.
void check_prob(double v, const char* name) {
  if (!(v >= 0 && v <= 1)) throw UsageError(std::string("--") + name + " must be a probability in [0, 1]");
}
void check_range(const Range& r, double min, double max, const char* name) {
  if (!(r.lo <= r.hi && r.lo >= min && r.hi <= max))
    throw UsageError(std::string("--") + name + " must be lo,hi with " + std::to_string(min) + " <= lo <= hi <= " +
                std::to_string(max));
}

void validate_common(const SynthCommonParams& c) {
  if (c.num < 1) throw UsageError("--num must be at least 1");
  if (c.workers < 0) throw UsageError("--workers must be >= 0 (0 = all cores)");
  if (c.image_ext != "jpg" && c.image_ext != "png") throw UsageError("--image_ext must be jpg or png");
  check_prob(c.text.cjk_ratio, "cjk_ratio");
  check_prob(c.text.upper_prob, "upper_prob");
  check_prob(c.text.title_prob, "title_prob");
  const auto& b = c.background;
  if (b.flat < 0 || b.gradient < 0 || b.noise < 0 || b.image < 0 || b.flat + b.gradient + b.noise <= 0)
    throw UsageError("--bg_weights must be non-negative, with flat + gradient + noise > 0");
  check_range(b.image_wash, 0, 1, "bg_wash");
  if (!(c.colour.min_contrast >= 0 && c.colour.min_contrast <= 200)) throw UsageError("--min_contrast must be in [0, 200]");
  check_prob(c.colour.dark_text_prob, "dark_text_prob");
  check_prob(c.colour.colour_prob, "colour_prob");
  check_range(c.colour.opacity, 0.1, 1, "opacity");
  const auto& a = c.augment;
  if (!(a.max_rotate_deg >= 0 && a.max_rotate_deg <= 45)) throw UsageError("--max_rotate must be in [0, 45] degrees");
  if (!(a.max_shear >= 0 && a.max_shear <= 1)) throw UsageError("--max_shear must be in [0, 1]");
  if (!(a.max_perspective >= 0 && a.max_perspective <= 0.3)) throw UsageError("--max_perspective must be in [0, 0.3]");
  for (auto [v, n] : {std::pair{a.blur_prob, "blur_prob"}, {a.noise_prob, "noise_prob"},
                      {a.underline_prob, "underline_prob"}, {a.border_prob, "border_prob"}})
    check_prob(v, n);
  check_range(a.blur_sigma, 0, 10, "blur_sigma");
  check_range(a.noise_sigma, 0, 100, "noise_sigma");
  check_range(a.jpeg_quality, 1, 100, "jpeg_quality");
}

std::vector<char32_t> coverage_probe(const std::vector<char32_t>& dict) {
  std::vector<char32_t> cps = dict;
  cps.push_back(U' ');
  return cps;
}

}  // namespace

void validate(const SynthRecParams& p) {
  validate_common(p.common);
  if (p.height < 8 || p.height > 512) throw UsageError("--height must be in [8, 512]");
  check_range(p.text_height, 0.2, 1.0, "text_height");
  check_range(p.margin_x, 0, 5, "margin_x");
}

void validate(const SynthDetParams& p) {
  validate_common(p.common);
  check_range(p.width, 64, 8192, "width");
  check_range(p.height, 64, 8192, "height");
  check_range(p.lines, 0, 200, "lines");
  check_range(p.words_per_line, 1, 20, "words_per_line");
  check_range(p.font_px, 4, 1000, "font_px");
  check_range(p.small_px, 2, 1000, "small_px");
  check_prob(p.small_text_prob, "small_text_prob");
  check_prob(p.scene_prob, "scene_prob");
  check_prob(p.perspective_prob, "perspective_prob");
  if (!(p.scene_max_angle >= 0 && p.scene_max_angle <= 90)) throw UsageError("--scene_max_angle must be in [0, 90]");
  if (!(p.doc_max_angle >= 0 && p.doc_max_angle <= 90)) throw UsageError("--doc_max_angle must be in [0, 90]");
  if (!(p.perspective >= 0 && p.perspective <= 0.3)) throw UsageError("--perspective must be in [0, 0.3]");
  if (p.min_text_size < 0) throw UsageError("--min_text_size must be >= 0");
}

// The label file must not replace a file synth reads (--corpus out/rec_gt.txt).
static void refuse_label_over_inputs(const SynthCommonParams& c, const std::string& label_name) {
  const std::string label = (fs::path(c.out_dir) / label_name).string();
  for (const auto& [input, what] : {std::pair{c.text.corpus_path, "the --corpus file"},
                                    {c.text.dict_path, "the --dict file"}, {c.text.words_path, "the --words file"}})
    if (!input.empty()) refuse_overwriting_input(label, "--out", input, what);
}

SynthInputs::SynthInputs(const SynthCommonParams& p) {
  const std::vector<char32_t> dict = Alphabet::dictionary_chars(p.text.dict_path);
  fonts_ = FontSet::load(p.fonts, coverage_probe(dict));
  alphabet_ = std::make_unique<Alphabet>(dict, fonts_, p.text.use_space_char, p.text.dict_path);
  text_ = std::make_unique<TextSource>(p.text, *alphabet_);
  backgrounds_ = std::make_unique<Backgrounds>(p.background, p.colour);
}

SynthReport synth_rec(const SynthRecParams& p) {
  validate(p);
  const SynthCommonParams& c = p.common;
  refuse_label_over_inputs(c, "rec_gt.txt");
  SynthInputs inputs(c);  // inputs first: bad input leaves the output folder alone
  prepare_output_dir(c.out_dir);
  SynthReport r;
  r.workers = effective_workers(c.workers, c.num);
  r.fonts = inputs.fonts().size();
  r.skipped_backgrounds = inputs.skipped_backgrounds();
  std::vector<std::string> labels(static_cast<size_t>(c.num));
  std::vector<FontRenderers> renderers(static_cast<size_t>(r.workers), FontRenderers(inputs.fonts()));
  const SynthSources src = inputs.sources();
  Stopwatch clock;
  run_parallel(c.num, r.workers, [&](long i, int worker) {
    SynthRecSample s = render_rec_sample(p, src, renderers[static_cast<size_t>(worker)], static_cast<uint64_t>(i));
    const std::string rel = sample_relative_path(i, c.image_ext);
    write_sample_image((fs::path(c.out_dir) / rel).string(), s.image, s.jpeg_quality);
    labels[static_cast<size_t>(i)] = rec_label_line(rel, s.text);
  });
  r.label_file = (fs::path(c.out_dir) / "rec_gt.txt").string();
  write_label_file(r.label_file, labels);
  r.samples = c.num;
  r.seconds = clock.elapsed_ms() / 1000.0;
  return r;
}

SynthReport synth_det(const SynthDetParams& p) {
  validate(p);
  const SynthCommonParams& c = p.common;
  refuse_label_over_inputs(c, "det_gt.txt");
  SynthInputs inputs(c);
  prepare_output_dir(c.out_dir);
  SynthReport r;
  r.workers = effective_workers(c.workers, c.num);
  r.fonts = inputs.fonts().size();
  r.skipped_backgrounds = inputs.skipped_backgrounds();
  std::vector<std::string> labels(static_cast<size_t>(c.num));
  std::vector<long> regions(static_cast<size_t>(c.num)), ignored(static_cast<size_t>(c.num));
  std::vector<FontRenderers> renderers(static_cast<size_t>(r.workers), FontRenderers(inputs.fonts()));
  const SynthSources src = inputs.sources();
  Stopwatch clock;
  run_parallel(c.num, r.workers, [&](long i, int worker) {
    SynthDetSample s = render_det_sample(p, src, renderers[static_cast<size_t>(worker)], static_cast<uint64_t>(i));
    const std::string rel = sample_relative_path(i, c.image_ext);
    write_sample_image((fs::path(c.out_dir) / rel).string(), s.image, s.jpeg_quality);
    labels[static_cast<size_t>(i)] = det_label_line(rel, s.lines, s.image.size());
    regions[static_cast<size_t>(i)] = static_cast<long>(s.lines.size());
    for (const auto& l : s.lines) ignored[static_cast<size_t>(i)] += l.ignore ? 1 : 0;
  });
  r.label_file = (fs::path(c.out_dir) / "det_gt.txt").string();
  write_label_file(r.label_file, labels);
  r.samples = c.num;
  for (size_t i = 0; i < regions.size(); ++i) r.regions += regions[i], r.ignored += ignored[i];
  r.seconds = clock.elapsed_ms() / 1000.0;
  return r;
}

}  // namespace ocrforge
