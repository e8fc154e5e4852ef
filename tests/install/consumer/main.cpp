// A user's program built against an installed ocrforge through find_package
// (docs/api.md): it names no model path and sets no environment, so the
// library must find the default models the install put under
// <prefix>/share/ocrforge/models, wherever this program is run from.
//   consumer --langs            the model sets (available_langs()), one a line
//   consumer <image> default    reads <image> with default_ocr_params()
//   consumer <image> <lang>     reads <image> with ocr_params_for_lang(lang)
// Prints the det and rec model folders used, then one line of text a line.
#include <iostream>
#include <string>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/lang_models.h"
#include "ocrforge/infer/ocr_pipeline.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--langs") {
    for (const auto& l : ocrforge::available_langs()) std::cout << l << "\n";
    return 0;
  }
  if (argc != 3) {
    std::cerr << "usage: consumer --langs | consumer <image> default|<lang>\n";
    return 2;
  }
  try {
    const std::string set = argv[2];
    ocrforge::OcrParams p = set == "default" ? ocrforge::default_ocr_params() : ocrforge::ocr_params_for_lang(set);
    p.runtime.cpu_threads = 2;
    std::cout << "det_model_dir: " << p.det.model_dir << "\nrec_model_dir: " << p.rec.model_dir << "\n";
    ocrforge::OcrPipeline ocr(p);
    ocrforge::LoadedImage img = ocrforge::read_image(argv[1]);
    for (const auto& line : ocr.run(img.bgr, img.scale).lines) std::cout << line.text << "\n";
  } catch (const ocrforge::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
