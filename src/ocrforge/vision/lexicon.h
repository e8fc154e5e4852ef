// A word list for dictionary-aware recognition (ctc_lexicon.h): one word per
// line, as Debian's word lists are (/usr/share/dict/american-english from
// `wamerican`, `wbritish`, ... or any list a user writes). Lookups ignore
// the case of ASCII letters; a word's own spelling ("Germany", "iPhone") is
// kept, so corrections can restore it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ocrforge {

class Lexicon {
 public:
  // Reads `path`; throws Error naming the file and `setting` (the flag it
  // came from) when it is missing or holds no word. Lines with a space or
  // a tab are skipped (a list of words, not phrases), as are possessives
  // ("word's": Debian's lists carry one per noun, and the recogniser reads
  // the apostrophe as its own character anyway).
  static Lexicon load(const std::string& path, const std::string& setting = "--rec_lexicon");
  static Lexicon from_words(const std::vector<std::string>& words, std::string source = "");

  size_t size() const { return forms_.size(); }
  const std::string& source() const { return source_; }

  // True when `word` is written as the list has it: its own spelling, or a
  // lower-case entry capitalised ("The") or in capitals ("THE").
  bool accepts(const std::string& word) const;

  // The entries whose case-folded spelling is at most one edit (insert,
  // delete, substitute, or swap of two neighbours) from `word`'s, the word
  // itself included when it differs only in case. Each entry once, in list
  // order; an entry listed in two spellings ("polish", "Polish") gives both.
  std::vector<std::string> near(const std::string& word) const;

 private:
  std::string source_;
  std::vector<std::string> forms_;   // as listed
  std::vector<std::string> folded_;  // ASCII-lower-cased, same order
  // The symmetric-deletion index of one edit, sorted: for a folded entry and
  // each of its single-character deletions, the top 40 bits of its hash with
  // the entry's index in the low 24 (one word, so the sort is quick; a
  // hash collision only adds a candidate that the exact check then drops).
  std::vector<uint64_t> index_;
  // The entries whose folded spelling or one of its deletions hashes like `key`'s top bits.
  template <class F>
  void for_each_entry(uint64_t key_hash, F&& f) const;
};

// ASCII letters in capitals, every other byte kept (core/text.h's to_lower
// is the other way).
std::string in_capitals(std::string word);

}  // namespace ocrforge
