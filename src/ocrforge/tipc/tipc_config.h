// PaddleOCR's TIPC ("train and inference pipeline criterion") config files,
// e.g. test_tipc/configs/PP-OCRv3_mobile_rec/train_infer_python.txt:
//
//   ===========================train_params===========================
//   model_name:PP-OCRv3_mobile_rec
//   gpu_list:0|0,1
//   Global.epoch_num:lite_train_lite_infer=3|whole_train_whole_infer=50
//   null:null
//   ##
//
// Sections (`=====name=====`) hold `key:value` lines in order; `##` lines
// separate groups. PaddleOCR's shell runner reads them by line number; this
// reader keeps each section's entries in order so the planner can find
// them by key, and by position only for the slots whose key is free-form
// (the `null:null` placeholders).
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

struct TipcEntry {
  std::string key, value;  // value trimmed; "" when the line is `key:`
  int line = 0;            // 1-based, for messages
};

struct TipcSection {
  std::string name;  // e.g. "train_params"
  std::vector<TipcEntry> entries;
  // The first entry with this key, or nullptr.
  const TipcEntry* find(const std::string& key) const;
  // Index of the first entry with this key, or -1.
  int index_of(const std::string& key) const;
};

class TipcConfig {
 public:
  // Error naming `source` and the line for text that is neither a section
  // header, a separator, a blank line nor `key:value`.
  static TipcConfig parse(const std::string& text, const std::string& source);
  static TipcConfig load(const std::string& path);  // Error when unreadable

  const std::string& source() const { return source_; }
  // The section, or nullptr when the file has none of that name.
  const TipcSection* section(const std::string& name) const;
  // The section; Error naming the file when it is missing.
  const TipcSection& require(const std::string& name) const;

 private:
  std::string source_;
  std::vector<TipcSection> sections_;
};

// "null" or empty: the slot is unused.
bool tipc_null(const std::string& value);
// "a|b" -> {a, b}; "" -> {}.
std::vector<std::string> tipc_list(const std::string& value);
// "lite_train_lite_infer=3|whole_train_whole_infer=50" -> the value for
// `mode` ("" when the mode is not listed); a value without `mode=` parts is
// returned as is (it applies to every mode).
std::string tipc_for_mode(const std::string& value, const std::string& mode);

}  // namespace ocrforge
