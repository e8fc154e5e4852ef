// Model sets by language, PaddleOCR's `lang` (`ocrforge ocr --lang en`).
// "ch" (the default) is the shipped PP-OCRv4 set; "en" keeps its detector and
// direction classifier and swaps in the English/Latin document recognizer
// fine-tuned from it (models/en/rec, docs/shipped-models.md) with the word list
// of dictionary-aware decoding (models/en/words.txt, RecParams::lexicon_path)
// and the detector's box threshold for documents (0.5).
// The folders sit side by side: <models>/PP-OCRv4 (default_model_root()) and <models>/en.
#pragma once
#include <string>
#include <vector>

#include "ocrforge/infer/params.h"

namespace ocrforge {

// The languages with a model set, the default first: {"ch", "en"}.
std::vector<std::string> available_langs();

// Default parameters for `lang` with the models under `models_dir` (the folder
// holding PP-OCRv4/ and en/). A recognizer folder written by `ocrforge export`
// brings its dictionary and input shape (export_folder.h). Error when `lang`
// has no model set (the message lists the available ones) or when one of its
// model files is missing (the message names the file and how to get it).
OcrParams ocr_params_for_lang(const std::string& lang, const std::string& models_dir);

// The same with the default model folder: the parent of default_model_root().
OcrParams ocr_params_for_lang(const std::string& lang);

}  // namespace ocrforge
