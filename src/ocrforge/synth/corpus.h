// Where synthetic texts come from. Either a user corpus (one text per line)
// or the built-in generator: words from a word list (Debian's wamerican by
// default) alone or as short phrases, plus numbers, dates, prices and codes
// with punctuation; and, when the alphabet has drawable CJK ideographs,
// random ideograph strings for cjk_ratio of the samples. Every text returned
// uses only the alphabet's characters and has min_chars..max_chars characters.
#pragma once
#include <string>
#include <vector>

#include "ocrforge/synth/alphabet.h"
#include "ocrforge/synth/params.h"
#include "ocrforge/synth/random.h"

namespace ocrforge {

class TextSource {
 public:
  // Reads the corpus or word list and keeps what the alphabet allows: corpus
  // lines are cut at characters outside the alphabet, words with such
  // characters (and possessives "'s") are dropped. Throws Error when the file
  // cannot be read or nothing usable is left.
  TextSource(const SynthTextParams& p, const Alphabet& alphabet);

  // One text, drawn with `rng`. `max_words` bounds phrase length.
  std::u32string next(SampleRng& rng, int max_words) const;

  size_t corpus_size() const { return lines_.size(); }
  size_t word_count() const { return words_.size(); }

 private:
  enum Kind { Word, Phrase, Number, Date, Price, Code, Punct, Corpus, Cjk, kKinds };
  std::u32string draw(Kind kind, SampleRng& rng, int max_words) const;
  std::u32string draw_corpus(SampleRng& rng) const;
  std::u32string draw_cjk(SampleRng& rng) const;
  std::u32string random_word(SampleRng& rng) const;
  bool acceptable(const std::u32string& t) const;

  SynthTextParams p_;
  const Alphabet* alphabet_;
  std::vector<std::u32string> lines_;  // user corpus (segments)
  std::vector<std::u32string> words_;  // built-in word list
  std::vector<double> weights_;        // per Kind, 0 when the kind cannot produce usable text
};

// Templates of the built-in generator (text_templates.cpp); the result may
// contain characters outside the alphabet (the caller filters).
std::string make_number(SampleRng& rng);
std::string make_date(SampleRng& rng);
std::string make_price(SampleRng& rng);
std::string make_code(SampleRng& rng, const std::string& word);
std::string make_punct(SampleRng& rng, const std::string& word, const std::string& word2);
// lower / Title / UPPER per the probabilities (ASCII letters only).
std::string apply_case(SampleRng& rng, std::string word, double upper_prob, double title_prob);

}  // namespace ocrforge
