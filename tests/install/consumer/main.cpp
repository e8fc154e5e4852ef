// Reads one image with the installed library and prints the lines.
#include <iostream>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/ocr_pipeline.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: consumer <model_root> <image>\n";
    return 2;
  }
  ocrforge::OcrParams p;
  const std::string root = argv[1];
  p.det.model_dir = root + "/det";
  p.rec.model_dir = root + "/rec";
  p.rec.char_dict_path = root + "/ppocr_keys_v1.txt";
  p.runtime.cpu_threads = 2;
  try {
    ocrforge::OcrPipeline ocr(p);
    ocrforge::LoadedImage img = ocrforge::read_image(argv[2]);
    for (const auto& line : ocr.run(img.bgr, img.scale).lines) std::cout << line.text << "\n";
  } catch (const ocrforge::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
