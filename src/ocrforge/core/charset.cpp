#include "ocrforge/core/charset.h"

#include <fstream>

#include "ocrforge/core/error.h"

namespace ocrforge {

Charset Charset::from_chars(std::vector<std::string> chars, bool use_space_char) {
  Charset cs;
  cs.classes_.reserve(chars.size() + 2);
  cs.classes_.push_back("");  // blank
  for (auto& c : chars) cs.classes_.push_back(std::move(c));
  if (use_space_char) cs.classes_.push_back(" ");
  cs.appends_space_ = use_space_char;
  for (size_t i = 1; i < cs.classes_.size(); ++i) cs.index_[cs.classes_[i]] = static_cast<int>(i);  // last wins
  cs.source_ = "<memory>";
  return cs;
}

Charset Charset::builtin_lowercase() {
  std::vector<std::string> chars;
  for (const char c : std::string("0123456789abcdefghijklmnopqrstuvwxyz")) chars.emplace_back(1, c);
  Charset cs = from_chars(std::move(chars), false);
  cs.source_ = "<PaddleOCR's built-in 0-9a-z>";
  cs.lowercase_labels_ = true;
  return cs;
}

Charset Charset::load(const std::string& path, bool use_space_char, const std::string& setting) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("character dictionary '" + path + "' cannot be read: check " + setting);
  std::vector<std::string> chars;
  std::string line;
  while (std::getline(in, line)) {
    // Strip the line ending only: a line holding " " is a real character.
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    chars.push_back(line);
  }
  if (chars.empty()) throw Error("character dictionary '" + path + "' holds no characters");
  Charset cs = from_chars(std::move(chars), use_space_char);
  cs.source_ = path;
  return cs;
}

int Charset::index_of(const std::string& ch) const {
  auto it = index_.find(ch);
  return it == index_.end() ? -1 : it->second;
}

}  // namespace ocrforge
