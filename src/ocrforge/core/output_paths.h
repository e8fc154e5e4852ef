// The one rule of every command that writes files: never write over a file
// it reads, and never into the folder of its inputs unless asked. A
// forgotten flag must not replace a user's photo or label file (`ocr
// --save_label a.jpg`, `data crop --label out/rec_gt.txt --out out`).
// Each check throws UsageError naming the flag and the file, before
// anything is written.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ocrforge {

// True when `a` and `b` are one file: the same path once links, "." and ".."
// are resolved, or (both existing) the same inode, as a hard link is.
bool same_file(const std::string& a, const std::string& b);

// True when `inner` is `outer` or below it (paths resolved as above).
bool is_within(const std::string& inner, const std::string& outer);

// UsageError when `output` (set by `flag`) is the file `input` (`input_what`,
// e.g. "the --label file"): "--out: 'o/rec_gt.txt' is the --label file
// 'o/rec_gt.txt'; writing it would replace the input: name another".
void refuse_overwriting_input(const std::string& output, const std::string& flag, const std::string& input,
                              const std::string& input_what);

// UsageError when the folder `out_dir` (set by `flag`) is the input folder
// `input` or inside it; for an input file, when it is the file's own folder.
void refuse_output_in_input(const std::string& input, const std::string& out_dir, const std::string& flag);

// The files a command reads, to check each file it writes against them
// (by inode, so a link or another spelling of the path is caught too).
class InputFiles {
 public:
  void add(const std::string& path);
  // The input `path` is, or "" when it is none of them.
  std::string find(const std::string& path) const;

 private:
  std::map<std::pair<unsigned long long, unsigned long long>, std::string> by_id_;  // (device, inode) -> path
  std::map<std::string, std::string> by_name_;                                      // resolved path -> path
};

// Output stem per input path, for every front end that writes per-input
// files into one folder: the file's stem ("a" for "x/a.jpg"), or its whole
// file name ("a.jpg") when several inputs share the stem (compared
// case-insensitively), so "a.jpg" and "a.png" write a.jpg_res.json and
// a.png_res.json instead of overwriting one a_res.json.
std::map<std::string, std::string> output_stems(const std::vector<std::string>& inputs);

}  // namespace ocrforge
