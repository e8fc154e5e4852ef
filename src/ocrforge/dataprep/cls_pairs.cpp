#include "ocrforge/dataprep/cls_pairs.h"

#include <filesystem>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/dataprep/label_lines.h"
#include "ocrforge/infer/image_reader.h"

namespace ocrforge {

namespace fs = std::filesystem;

ClsPairReport make_cls_pairs(const ClsPairSpec& spec, std::ostream& warnings) {
  if (spec.label.empty() || spec.out.empty())
    throw UsageError("--label (a recognition label file of upright crops) and --out (a folder) are required");
  const std::string data_dir = spec.data_dir.empty() ? fs::path(spec.label).parent_path().string() : spec.data_dir;
  const std::vector<std::string> lines = read_label_lines(spec.label, "--label");
  ClsPairReport n;
  n.cls_gt_path = (fs::path(spec.out) / "cls_gt.txt").string();
  refuse_overwriting_input(n.cls_gt_path, "--out", spec.label, "the --label file");
  InputFiles inputs;
  for (const auto& line : lines)
    if (const size_t tab = line.find('\t'); tab != 0 && tab != std::string::npos)
      inputs.add((fs::path(data_dir) / line.substr(0, tab)).string());
  fs::create_directories(fs::path(spec.out) / "cls_img");
  StagedFile cls_gt(n.cls_gt_path);
  for (size_t no = 0; no < lines.size(); ++no) {
    const size_t tab = lines[no].find('\t');
    if (tab == 0 || tab == std::string::npos) {
      if (++n.bad_lines <= 5)
        warnings << "data cls: " << printable(spec.label) << ": line " << no + 1 << " skipped: not path<TAB>text\n";
      continue;
    }
    const std::string path = lines[no].substr(0, tab);
    const std::string image_path = (fs::path(data_dir) / path).string();
    LoadedImage img;
    try {
      require_line_safe(path, "image path", "cls_gt.txt");
      img = read_image(image_path);
    } catch (const std::exception& e) {
      ++n.failed;
      warnings << "data cls: " << printable(image_path) << ": " << printable(e.what()) << "\n";
      continue;
    }
    cv::Mat turned;
    cv::rotate(img.bgr, turned, cv::ROTATE_180);
    const std::string base = "cls_img/" + std::to_string(no + 1) + "_" + fs::path(path).stem().string();
    for (const auto& [suffix, picture] : {std::make_pair(std::string("0"), img.bgr), std::make_pair(std::string("180"), turned)}) {
      const std::string name = base + "_" + suffix + ".png";
      if (const std::string input = inputs.find((fs::path(spec.out) / name).string()); !input.empty())
        throw UsageError("--out: '" + (fs::path(spec.out) / name).string() + "' would replace the input image '" + input +
                         "' listed in --label; choose another --out");
      std::vector<uchar> png;
      if (!cv::imencode(".png", picture, png)) throw Error("cannot encode '" + name + "'");
      write_file_atomic((fs::path(spec.out) / name).string(), std::string(png.begin(), png.end()), /*durable*/ false);
      cls_gt.append(name + "\t" + suffix + "\n");
    }
    ++n.written;
  }
  cls_gt.commit();
  if (n.written == 0 && n.failed == 0) throw Error("no image written: '" + spec.label + "' lists no readable image");
  return n;
}

}  // namespace ocrforge
