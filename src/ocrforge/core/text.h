// Small string helpers shared by config, flag and label parsing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ocrforge {

std::string trim(const std::string& s);
std::string to_lower(std::string s);
std::vector<std::string> split(const std::string& s, char sep);
// Words separated by any run of white space (none for a blank string).
std::vector<std::string> split_whitespace(const std::string& s);
// "a, b, c" from {"a", "b", "c"} and ", ".
std::string join(const std::vector<std::string>& items, const std::string& sep);
bool starts_with(const std::string& s, const std::string& prefix);
bool ends_with(const std::string& s, const std::string& suffix);
// Removes a UTF-8 byte-order mark (EF BB BF) from the start of `line`: some
// editors write one at the start of a file, and it is never part of a path.
void strip_utf8_bom(std::string* line);

// PaddleOCR-style booleans: true/false, True/False, 1/0, yes/no, on/off.
// Throws UsageError naming `what` for anything else.
bool parse_bool(const std::string& value, const std::string& what);
int parse_int(const std::string& value, const std::string& what);
double parse_double(const std::string& value, const std::string& what);
// "3, 48, 320" or "[3,48,320]" -> {3, 48, 320}.
std::vector<int> parse_int_list(const std::string& value, const std::string& what);
// "['0', '180']" or "0,180" -> {"0", "180"}.
std::vector<std::string> parse_string_list(const std::string& value);

// UTF-8 text split into code points (each returned as its UTF-8 bytes);
// invalid bytes are returned one by one rather than dropped.
std::vector<std::string> utf8_chars(const std::string& s);

// Levenshtein distance between two code-point sequences.
size_t edit_distance(const std::vector<std::string>& a, const std::vector<std::string>& b);

// The candidate closest to `word` by edit distance ("" when none is close),
// used for "did you mean" hints on flags and config keys.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ocrforge
