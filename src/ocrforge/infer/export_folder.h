// A folder written by `ocrforge export` holds inference.onnx and
// inference.yml (train/export/inference_yml.h). For a recognizer the yml
// carries the dictionary itself and the input height, so
// `--rec_model_dir OUT` needs no --rec_char_dict_path / --rec_image_shape.
// Plain folders (no inference.yml) and bare .onnx files work as before.
#pragma once
#include <string>

#include "ocrforge/infer/params.h"

namespace ocrforge {

// When rec.model_dir is a folder with an inference.yml of a rec model, takes
// its dictionary (unless `dict_given`: an explicit --rec_char_dict_path
// wins), its use_space_char with it, and its input height and width (unless
// `shape_given`). Error naming the file when it cannot be parsed, is not a
// rec model's, or has no character_dict.
void apply_rec_export_folder(RecParams& rec, bool dict_given, bool shape_given);

}  // namespace ocrforge
