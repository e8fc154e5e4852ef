// `ocrforge data crop|split|cls|select`: the label-file chores of fine-tuning, as a
// thin front on the dataprep library (what each writes: dataprep/region_crops.h,
// dataprep/cls_pairs.h; the split: core/label_split.h, written next to FILE as
// <stem>_train.txt / <stem>_eval.txt unless named).
//
//   data select --uncertain N --label Label.txt --out FILE
//     Active learning: the N lines with the lowest recognition score of an
//     `ocrforge ocr --save_label Label.txt` run (its entries carry "score"),
//     written to FILE in PPOCRLabel's Label.txt layout (path<TAB>[{"transcription",
//     "points", "difficult"}], the same image paths) for a person to correct;
//     then `data crop` turns the corrected file into training crops. Ties keep
//     file order; pages without a selected line are left out.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/json_bounded.h"
#include "ocrforge/core/label_split.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/dataprep/cls_pairs.h"
#include "ocrforge/dataprep/label_lines.h"
#include "ocrforge/dataprep/region_crops.h"
#include "ocrforge/vision/det_label_json.h"

namespace ocrforge {

namespace fs = std::filesystem;

namespace {

const char* kAbout =
    "usage: ocrforge data crop --label det_gt.txt [--data_dir DIR] --out OUT\n"
    "       ocrforge data split --label FILE [--ratio 0.9] [--seed 1024] [--train_out F] [--eval_out F]\n"
    "       ocrforge data cls --label rec_gt.txt [--data_dir DIR] --out OUT\n"
    "       ocrforge data select --uncertain N --label Label.txt --out FILE\n"
    "crop: recognition crops + OUT/rec_gt.txt from a detection label file ('###' skipped)\n"
    "split: train / eval label files from one label file (a seeded shuffle; line order kept)\n"
    "cls: direction-classifier crops + OUT/cls_gt.txt (each upright crop as '0' and turned as '180')\n"
    "select: the N lowest-score lines of an `ocr --save_label` file, as a PPOCRLabel label file to correct\n\n";

int data_split(FlagSet& flags) {
  const std::string label = flags.get("label");
  if (label.empty()) throw UsageError("--label is required (the label file to split)");
  const double ratio = flags.get_double_in("ratio", 0.0, 1.0);
  const long long seed = flags.get_int64_at_least("seed", 0);
  const fs::path p(label);
  const std::string stem = (p.parent_path() / p.stem()).string();
  const std::string train_out = flags.get("train_out").empty() ? stem + "_train.txt" : flags.get("train_out");
  const std::string eval_out = flags.get("eval_out").empty() ? stem + "_eval.txt" : flags.get("eval_out");
  refuse_overwriting_input(train_out, "--train_out", label, "the --label file");
  refuse_overwriting_input(eval_out, "--eval_out", label, "the --label file");
  if (same_file(train_out, eval_out)) throw UsageError("--train_out and --eval_out name the same file");

  const LabelSplit split = split_label_lines(read_label_lines(label, "--label"), ratio, static_cast<uint64_t>(seed));
  write_file_atomic(train_out, join_label_lines(split.train));
  write_file_atomic(eval_out, join_label_lines(split.eval));
  std::cout << "train: " << split.train.size() << " lines -> " << train_out << "\neval: " << split.eval.size()
            << " lines -> " << eval_out << "\n";
  return 0;
}

int data_crop(FlagSet& flags) {
  const RegionCropReport n =
      crop_label_regions({flags.get("label"), flags.get("data_dir"), flags.get("out")}, std::cerr);
  std::cout << "crops: " << n.crops << " from " << n.images << " images -> " << n.rec_gt_path << "\n"
            << "skipped: " << n.ignored << " ignored ('###'), " << n.empty_text << " empty text, " << n.bad_text
            << " text with tab / line break, " << n.degenerate << " thinner than 2 px, " << n.few_points
            << " with < 3 points, " << n.bad_lines << " bad lines, " << n.failed_images << " unreadable images, "
            << n.failed_regions << " failed regions\n";
  return n.any_failed() ? 1 : 0;
}

// One line of an `ocr --save_label` file, a candidate for correction.
struct ScoredLine {
  double score;
  size_t page;    // index into the label file's lines
  size_t region;  // index in that line's JSON list
};

int data_select(FlagSet& flags) {
  const std::string label = flags.get("label"), out = flags.get("out");
  if (label.empty() || out.empty())
    throw UsageError("--label (an `ocrforge ocr --save_label` file) and --out (the label file to write) are required");
  const long long n = flags.get_int64_at_least("uncertain", 0);
  if (n < 1) throw UsageError("--uncertain N (N >= 1) is required: how many of the lowest-score lines to select");
  refuse_overwriting_input(out, "--out", label, "the --label file");
  const std::vector<std::string> lines = read_label_lines(label, "--label");
  std::vector<std::string> paths(lines.size());
  std::vector<nlohmann::json> pages(lines.size());
  std::vector<ScoredLine> scored;
  for (size_t no = 0; no < lines.size(); ++no) {
    std::string json;
    const std::string where = "'" + label + "' line " + std::to_string(no + 1);
    if (!split_det_line(lines[no], '\t', &paths[no], &json)) throw Error(where + " is not path<TAB>JSON");
    try {
      pages[no] = parse_json_bounded(json);
    } catch (const std::exception& e) {
      throw Error(where + ": not JSON (" + e.what() + ")");
    }
    if (!pages[no].is_array()) throw Error(where + ": the JSON is not a list of regions");
    for (size_t k = 0; k < pages[no].size(); ++k) {
      const auto& r = pages[no][k];
      if (!r.is_object() || !r.contains("score") || !r["score"].is_number())
        throw Error(where + ": region " + std::to_string(k) +
                    " has no numeric \"score\"; write the file with `ocrforge ocr --save_label` (it records each "
                    "line's recognition score)");
      scored.push_back({r["score"].get<double>(), no, k});
    }
  }
  if (scored.empty()) throw Error("'" + label + "' has no line to select");
  std::stable_sort(scored.begin(), scored.end(), [](const ScoredLine& a, const ScoredLine& b) { return a.score < b.score; });
  const size_t take = std::min(scored.size(), static_cast<size_t>(n));
  std::vector<std::vector<size_t>> chosen(lines.size());
  for (size_t i = 0; i < take; ++i) chosen[scored[i].page].push_back(scored[i].region);
  std::string text;
  size_t page_count = 0;
  for (size_t no = 0; no < lines.size(); ++no) {
    if (chosen[no].empty()) continue;
    std::sort(chosen[no].begin(), chosen[no].end());
    nlohmann::json regions = nlohmann::json::array();
    for (const size_t k : chosen[no]) {
      nlohmann::json r = pages[no][k];
      r.erase("score");  // the corrected file is a plain PPOCRLabel label
      if (!r.contains("difficult")) r["difficult"] = false;
      regions.push_back(r);
    }
    text += paths[no] + "\t" + regions.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    ++page_count;
  }
  write_file_atomic(out, text);
  std::printf("selected %zu of %zu lines (scores %.4f to %.4f) on %zu pages -> %s\n", take, scored.size(),
              scored.front().score, scored[take - 1].score, page_count, out.c_str());
  if (take < static_cast<size_t>(n))
    std::fprintf(stderr, "data select: note: --uncertain %lld asked for more lines than the %zu in '%s'\n", n,
                 scored.size(), label.c_str());
  return 0;
}

int data_cls(FlagSet& flags) {
  const ClsPairReport n = make_cls_pairs({flags.get("label"), flags.get("data_dir"), flags.get("out")}, std::cerr);
  std::cout << "cls: " << n.written << " images -> " << 2 * n.written << " samples (0 and 180) -> " << n.cls_gt_path
            << "\nskipped: " << n.bad_lines << " bad lines, " << n.failed << " unreadable images\n";
  return n.failed > 0 ? 1 : 0;
}

}  // namespace

int cmd_data(const Args& args) {
  FlagSet flags("data");
  flags.add("label", "", "crop: detection label file; split: any label file; cls: recognition label file; "
                         "select: an `ocr --save_label` file");
  flags.add("data_dir", "", "crop, cls: folder the label paths are relative to (default: the label file's folder)");
  flags.add("out", "", "crop: output folder (crop_img/ and rec_gt.txt); cls: (cls_img/ and cls_gt.txt); select: label file");
  flags.add("ratio", "0.9", "split: share of lines for training, in (0, 1)");
  flags.add("seed", "1024", "split: seed of the shuffle (same seed, same split)");
  flags.add("train_out", "", "split: train file (default <label stem>_train.txt)");
  flags.add("eval_out", "", "split: eval file (default <label stem>_eval.txt)");
  flags.add("uncertain", "0", "select: how many of the lowest-score lines to write to --out");
  const auto positional = flags.parse(args);
  if (flags.help_requested()) {
    std::cout << kAbout << flags.help_text();
    return 0;
  }
  if (positional.size() != 1 ||
      (positional[0] != "crop" && positional[0] != "split" && positional[0] != "cls" && positional[0] != "select"))
    throw UsageError("expected 'data crop', 'data split', 'data cls' or 'data select' (see --help)");
  if (positional[0] == "crop") return data_crop(flags);
  if (positional[0] == "select") return data_select(flags);
  if (positional[0] == "cls") return data_cls(flags);
  return data_split(flags);
}

}  // namespace ocrforge
