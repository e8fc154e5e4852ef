// `ocrforge data crop|split|cls`: the label-file chores of fine-tuning, as a
// thin front on the dataprep library (what each writes: dataprep/region_crops.h,
// dataprep/cls_pairs.h; the split: core/label_split.h, written next to FILE as
// <stem>_train.txt / <stem>_eval.txt unless named).
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/label_split.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/dataprep/cls_pairs.h"
#include "ocrforge/dataprep/label_lines.h"
#include "ocrforge/dataprep/region_crops.h"

namespace ocrforge {

namespace fs = std::filesystem;

namespace {

const char* kAbout =
    "usage: ocrforge data crop --label det_gt.txt [--data_dir DIR] --out OUT\n"
    "       ocrforge data split --label FILE [--ratio 0.9] [--seed 1024] [--train_out F] [--eval_out F]\n"
    "       ocrforge data cls --label rec_gt.txt [--data_dir DIR] --out OUT\n"
    "crop: recognition crops + OUT/rec_gt.txt from a detection label file ('###' skipped)\n"
    "split: train / eval label files from one label file (a seeded shuffle; line order kept)\n"
    "cls: direction-classifier crops + OUT/cls_gt.txt (each upright crop as '0' and turned as '180')\n\n";

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

int data_cls(FlagSet& flags) {
  const ClsPairReport n = make_cls_pairs({flags.get("label"), flags.get("data_dir"), flags.get("out")}, std::cerr);
  std::cout << "cls: " << n.written << " images -> " << 2 * n.written << " samples (0 and 180) -> " << n.cls_gt_path
            << "\nskipped: " << n.bad_lines << " bad lines, " << n.failed << " unreadable images\n";
  return n.failed > 0 ? 1 : 0;
}

}  // namespace

int cmd_data(const Args& args) {
  FlagSet flags("data");
  flags.add("label", "", "crop: detection label file; split: any label file; cls: recognition label file");
  flags.add("data_dir", "", "crop, cls: folder the label paths are relative to (default: the label file's folder)");
  flags.add("out", "", "crop: output folder (crop_img/ and rec_gt.txt); cls: (cls_img/ and cls_gt.txt)");
  flags.add("ratio", "0.9", "split: share of lines for training, in (0, 1)");
  flags.add("seed", "1024", "split: seed of the shuffle (same seed, same split)");
  flags.add("train_out", "", "split: train file (default <label stem>_train.txt)");
  flags.add("eval_out", "", "split: eval file (default <label stem>_eval.txt)");
  const auto positional = flags.parse(args);
  if (flags.help_requested()) {
    std::cout << kAbout << flags.help_text();
    return 0;
  }
  if (positional.size() != 1 || (positional[0] != "crop" && positional[0] != "split" && positional[0] != "cls"))
    throw UsageError("expected 'data crop', 'data split' or 'data cls' (see --help)");
  if (positional[0] == "crop") return data_crop(flags);
  if (positional[0] == "cls") return data_cls(flags);
  return data_split(flags);
}

}  // namespace ocrforge
