// The recognition dictionary (PaddleOCR's character_dict_path): one
// character per line. CTC class layout, as in PaddleOCR's CTCLabelDecode:
//   index 0            = blank
//   index 1..n         = the dictionary's lines, in file order
//   index n+1          = " " when use_space_char is true
// A character listed twice (PaddleOCR's en_dict.txt ends with a " " line, and
// use_space_char adds another) encodes to its LAST index, as PaddleOCR's
// `self.dict[char] = i` loop does, so labels match models trained there.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

namespace ocrforge {

class Charset {
 public:
  // Reads a dictionary file; throws Error naming the file and `setting` (the
  // flag or config key the path came from, so the user knows what to fix)
  // when it is missing or has no characters.
  static Charset load(const std::string& path, bool use_space_char,
                      const std::string& setting = "--rec_char_dict_path");
  // Builds from an in-memory list (tests, synthetic data).
  static Charset from_chars(std::vector<std::string> chars, bool use_space_char);
  // PaddleOCR's dictionary when Global.character_dict_path is empty: the
  // digits and a-z, no space class, and labels lower-cased before encoding.
  static Charset builtin_lowercase();

  // Number of CTC classes including blank.
  int num_classes() const { return static_cast<int>(classes_.size()); }
  // UTF-8 text of a class index; "" for blank.
  const std::string& text_of(int index) const { return classes_.at(static_cast<size_t>(index)); }
  // Class index of a character, or -1 when it is not in the dictionary.
  int index_of(const std::string& ch) const;
  const std::string& source() const { return source_; }
  // True for builtin_lowercase(): labels are lower-cased before encoding.
  bool lowercases_labels() const { return lowercase_labels_; }
  // True when use_space_char appended a space class (the last class).
  bool appends_space() const { return appends_space_; }

 private:
  std::vector<std::string> classes_;
  std::unordered_map<std::string, int> index_;
  std::string source_;
  bool lowercase_labels_ = false;
  bool appends_space_ = false;
};

}  // namespace ocrforge
