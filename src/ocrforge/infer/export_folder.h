// A folder written by `ocrforge export` holds inference.onnx and
// inference.yml (train/export/inference_yml.h). For a recognizer the yml
// carries the dictionary itself and the input height, so
// `--rec_model_dir OUT` needs no --rec_char_dict_path / --rec_image_shape;
// for a detector it carries the DB post-processing the model was trained and
// evaluated with. Plain folders (no inference.yml) and bare .onnx files work
// as before.
#pragma once
#include <functional>
#include <string>

#include "ocrforge/infer/params.h"

namespace ocrforge {

// When rec.model_dir is a folder with an inference.yml of a rec model, takes
// its dictionary (unless `dict_given`: an explicit --rec_char_dict_path
// wins), its use_space_char with it, and its input height and width (unless
// `shape_given`). Error naming the file when it cannot be parsed, is not a
// rec model's, or has no character_dict.
void apply_rec_export_folder(RecParams& rec, bool dict_given, bool shape_given);

// When det.model_dir is a folder with an inference.yml of a det model, takes
// its PostProcess values (thresh, box_thresh, unclip_ratio, max_candidates,
// use_dilation, score_mode, box_type), each unless `flag_given(key)` says its
// command-line flag was given (explicit flags win). The input resize stays
// with --det_limit_side_len / --det_limit_type, as in PaddleOCR's
// predict_det: an image-size policy, not a property of the model. Error
// naming the file when it cannot be parsed, is not a det model's, or holds
// a value out of range.
void apply_det_export_folder(DetParams& det, const std::function<bool(const std::string& key)>& flag_given);

}  // namespace ocrforge
