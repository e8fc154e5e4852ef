// `ocrforge data crop|split|cls`: the label-file chores of fine-tuning.
//
//   data crop  --label det_gt.txt [--data_dir DIR] --out OUT
//     Every readable region of a detection label file becomes a recognition
//     crop, OUT/crop_img/<image stem>_crop_<k>.jpg, listed in OUT/rec_gt.txt as
//     "crop_img/<name><TAB>transcription" (PPOCRLabel's "export recognition
//     result" layout; train with data_dir OUT). Regions are straightened as
//     the OCR pipeline straightens detections (vision/region_crop.h). Skipped
//     and counted: "###" / "*" regions, empty transcriptions, transcriptions
//     with a tab or line break (they cannot be a rec label), regions thinner
//     than 2 pixels. An image that cannot be read fails alone; the command
//     then exits 1 after writing everything else.
//
//   data split --label FILE [--ratio 0.9] [--seed 1024] [--train_out F] [--eval_out F]
//     A seeded split of FILE's lines (core/label_split.h), written next to
//     FILE as <stem>_train.txt / <stem>_eval.txt unless named.
//
//   data cls --label rec_gt.txt [--data_dir DIR] --out OUT
//     Direction-classifier data from upright text crops: every image of a
//     recognition label file is written upright and turned by 180 degrees,
//     OUT/cls_img/<n>_<stem>_0.png and _180.png, listed in OUT/cls_gt.txt as
//     "cls_img/<name><TAB>0" / "<TAB>180" (the rec text is not needed). Both
//     copies are encoded the same way (lossless PNG), so compression
//     artefacts cannot tell the classes apart. Unreadable images fail alone.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "commands.h"
#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/label_split.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/vision/det_label_json.h"
#include "ocrforge/vision/region_crop.h"

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

std::vector<std::string> read_lines(const std::string& path, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "' (" + flag + "): missing or no permission");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    strip_utf8_bom(&line);
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

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

  const LabelSplit split = split_label_lines(read_lines(label, "--label"), ratio, static_cast<uint64_t>(seed));
  write_file_atomic(train_out, join_lines(split.train));
  write_file_atomic(eval_out, join_lines(split.eval));
  std::cout << "train: " << split.train.size() << " lines -> " << train_out << "\neval: " << split.eval.size()
            << " lines -> " << eval_out << "\n";
  return 0;
}

// What `data crop` skipped, by reason (printed at the end).
struct CropCounts {
  long crops = 0, images = 0, failed_images = 0, bad_lines = 0, ignored = 0, empty_text = 0, bad_text = 0,
       degenerate = 0, few_points = 0, failed_regions = 0;
};

int data_crop(FlagSet& flags) {
  const std::string label = flags.get("label"), out = flags.get("out");
  if (label.empty() || out.empty()) throw UsageError("--label (a detection label file) and --out (a folder) are required");
  std::string data_dir = flags.get("data_dir");
  if (data_dir.empty()) data_dir = fs::path(label).parent_path().string();  // labels usually sit beside the images
  const std::vector<std::string> lines = read_lines(label, "--label");
  const std::string rec_gt_path = (fs::path(out) / "rec_gt.txt").string();
  refuse_overwriting_input(rec_gt_path, "--out", label, "the --label file");
  // Crops must not replace an image the label file lists (cropping a
  // folder's own crops again, with --out the --data_dir).
  InputFiles inputs;
  for (const auto& line : lines) {
    std::string path, json;
    if (split_det_line(line, '\t', &path, &json)) inputs.add((fs::path(data_dir) / path).string());
  }

  fs::create_directories(fs::path(out) / "crop_img");
  StagedFile rec_gt(rec_gt_path);
  CropCounts n;
  std::map<std::string, int> stem_uses;  // a.jpg and a.png must not overwrite each other's crops
  for (size_t no = 0; no < lines.size(); ++no) {
    std::string path, json;
    DetJsonParse parsed;
    if (!split_det_line(lines[no], '\t', &path, &json) || !(parsed = parse_det_json(json)).ok) {
      if (++n.bad_lines <= 5) std::cerr << "data crop: " << printable(label) << ": line " << no + 1 << " skipped: not path<TAB>JSON\n";
      continue;
    }
    n.few_points += parsed.few_points;
    const std::string image_path = (fs::path(data_dir) / path).string();
    LoadedImage img;
    try {
      require_line_safe(path, "image path", "rec_gt.txt");  // its crops' names go into lines
      img = read_image(image_path);
    } catch (const std::exception& e) {
      ++n.failed_images;
      std::cerr << "data crop: " << printable(image_path) << ": " << printable(e.what()) << "\n";
      continue;
    }
    ++n.images;
    std::string stem = fs::path(path).stem().string();
    if (const int uses = stem_uses[stem]++; uses > 0) stem += "_" + std::to_string(uses);
    for (size_t k = 0; k < parsed.regions.size(); ++k) {
      const DetRegion& r = parsed.regions[k];
      if (r.ignore()) { ++n.ignored; continue; }
      if (r.transcription.empty()) { ++n.empty_text; continue; }
      if (r.transcription.find_first_of("\t\r\n") != std::string::npos) { ++n.bad_text; continue; }
      auto pts = r.points;
      for (auto& q : pts) q = {q[0] / img.scale, q[1] / img.scale};  // file pixels -> decoded pixels
      const std::string name = "crop_img/" + stem + "_crop_" + std::to_string(k) + ".jpg";
      // One bad region fails alone, named; the others are still written.
      try {
        if (const std::string input = inputs.find((fs::path(out) / name).string()); !input.empty())
          throw Error("its crop '" + (fs::path(out) / name).string() + "' would replace the input image '" + input +
                      "' (choose another --out)");
        const cv::Mat crop = crop_label_region(img.bgr, pts);
        if (crop.empty()) { ++n.degenerate; continue; }
        std::vector<uchar> jpg;
        if (!cv::imencode(".jpg", crop, jpg)) throw Error("cannot encode crop '" + name + "'");
        write_file_atomic((fs::path(out) / name).string(), std::string(jpg.begin(), jpg.end()), /*durable*/ false);
      } catch (const std::exception& e) {
        ++n.failed_regions;
        std::cerr << "data crop: " << printable(label) << ": line " << no + 1 << ": region " << k << " of '"
                  << printable(path) << "' skipped: " << printable(e.what()) << "\n";
        continue;
      }
      rec_gt.append(name + "\t" + r.transcription + "\n");
      ++n.crops;
    }
  }
  rec_gt.commit();
  std::cout << "crops: " << n.crops << " from " << n.images << " images -> " << rec_gt.path() << "\n"
            << "skipped: " << n.ignored << " ignored ('###'), " << n.empty_text << " empty text, " << n.bad_text
            << " text with tab / line break, " << n.degenerate << " thinner than 2 px, " << n.few_points
            << " with < 3 points, " << n.bad_lines << " bad lines, " << n.failed_images << " unreadable images, "
            << n.failed_regions << " failed regions\n";
  if (n.crops == 0 && n.failed_images == 0 && n.failed_regions == 0)
    throw Error("no crop written: '" + label + "' has no readable region (check the file and --data_dir)");
  return n.failed_images + n.failed_regions > 0 ? 1 : 0;
}

int data_cls(FlagSet& flags) {
  const std::string label = flags.get("label"), out = flags.get("out");
  if (label.empty() || out.empty())
    throw UsageError("--label (a recognition label file of upright crops) and --out (a folder) are required");
  std::string data_dir = flags.get("data_dir");
  if (data_dir.empty()) data_dir = fs::path(label).parent_path().string();
  const std::vector<std::string> lines = read_lines(label, "--label");
  const std::string cls_gt_path = (fs::path(out) / "cls_gt.txt").string();
  refuse_overwriting_input(cls_gt_path, "--out", label, "the --label file");
  InputFiles inputs;
  for (const auto& line : lines)
    if (const size_t tab = line.find('\t'); tab != 0 && tab != std::string::npos)
      inputs.add((fs::path(data_dir) / line.substr(0, tab)).string());
  fs::create_directories(fs::path(out) / "cls_img");
  StagedFile cls_gt(cls_gt_path);
  long written = 0, failed = 0, bad_lines = 0;
  for (size_t no = 0; no < lines.size(); ++no) {
    const size_t tab = lines[no].find('\t');
    if (tab == 0 || tab == std::string::npos) {
      if (++bad_lines <= 5) std::cerr << "data cls: " << printable(label) << ": line " << no + 1 << " skipped: not path<TAB>text\n";
      continue;
    }
    const std::string path = lines[no].substr(0, tab);
    const std::string image_path = (fs::path(data_dir) / path).string();
    LoadedImage img;
    try {
      require_line_safe(path, "image path", "cls_gt.txt");
      img = read_image(image_path);
    } catch (const std::exception& e) {
      ++failed;
      std::cerr << "data cls: " << printable(image_path) << ": " << printable(e.what()) << "\n";
      continue;
    }
    cv::Mat turned;
    cv::rotate(img.bgr, turned, cv::ROTATE_180);
    const std::string base = "cls_img/" + std::to_string(no + 1) + "_" + fs::path(path).stem().string();
    for (const auto& [suffix, picture] : {std::make_pair(std::string("0"), img.bgr), std::make_pair(std::string("180"), turned)}) {
      const std::string name = base + "_" + suffix + ".png";
      if (const std::string input = inputs.find((fs::path(out) / name).string()); !input.empty())
        throw UsageError("--out: '" + (fs::path(out) / name).string() + "' would replace the input image '" + input +
                         "' listed in --label; choose another --out");
      std::vector<uchar> png;
      if (!cv::imencode(".png", picture, png)) throw Error("cannot encode '" + name + "'");
      write_file_atomic((fs::path(out) / name).string(), std::string(png.begin(), png.end()), /*durable*/ false);
      cls_gt.append(name + "\t" + suffix + "\n");
    }
    ++written;
  }
  cls_gt.commit();
  std::cout << "cls: " << written << " images -> " << 2 * written << " samples (0 and 180) -> " << cls_gt.path()
            << "\nskipped: " << bad_lines << " bad lines, " << failed << " unreadable images\n";
  if (written == 0 && failed == 0) throw Error("no image written: '" + label + "' lists no readable image");
  return failed > 0 ? 1 : 0;
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
