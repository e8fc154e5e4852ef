// Synthetic OCR training data (`ocrforge synth rec|det`).
//
//   ocrforge::SynthRecParams p;
//   p.common.out_dir = "data/synth_rec";
//   p.common.num = 10000;
//   ocrforge::SynthReport r = ocrforge::synth_rec(p);   // images/ + rec_gt.txt
//
// Deterministic: the same parameters, inputs (fonts, dictionary, corpus,
// background pictures) and seed give byte-identical files on the same
// machine (same OpenCV, FreeType, libjpeg), with any number of workers.
// Inputs are checked before anything is written; errors are ocrforge::Error.
#pragma once
#include <memory>
#include <string>

#include "ocrforge/synth/alphabet.h"
#include "ocrforge/synth/background.h"
#include "ocrforge/synth/corpus.h"
#include "ocrforge/synth/fonts.h"
#include "ocrforge/synth/params.h"
#include "ocrforge/synth/render_det.h"
#include "ocrforge/synth/render_rec.h"

namespace ocrforge {

struct SynthReport {
  long samples = 0;
  long regions = 0;          // det: labelled lines (including ignored)
  long ignored = 0;          // det: lines labelled "###"
  int workers = 1;
  size_t fonts = 0;
  double seconds = 0;        // wall time of the generation (not of loading fonts)
  std::string label_file;
  // --bg_dir pictures left out, each "'path': why" (the run goes on without them).
  std::vector<std::string> skipped_backgrounds;
};

// The loaded inputs: fonts (with coverage), alphabet, text source and
// background pictures. Build once, render many samples from any thread.
class SynthInputs {
 public:
  // Throws Error on an unloadable font, an unreadable or unusable
  // dictionary / corpus / word list, or an empty background folder.
  explicit SynthInputs(const SynthCommonParams& p);
  SynthSources sources() const { return SynthSources{fonts_, *text_, *backgrounds_}; }
  const FontSet& fonts() const { return fonts_; }
  const Alphabet& alphabet() const { return *alphabet_; }
  const TextSource& text() const { return *text_; }
  const std::vector<std::string>& skipped_backgrounds() const { return backgrounds_->skipped(); }

 private:
  FontSet fonts_;
  std::unique_ptr<Alphabet> alphabet_;
  std::unique_ptr<TextSource> text_;
  std::unique_ptr<Backgrounds> backgrounds_;
};

// Checks ranges, probabilities and counts; throws UsageError naming the knob.
void validate(const SynthRecParams& p);
void validate(const SynthDetParams& p);

SynthReport synth_rec(const SynthRecParams& p);
SynthReport synth_det(const SynthDetParams& p);

}  // namespace ocrforge
