#include "ocrforge/dataprep/region_crops.h"

#include <filesystem>
#include <map>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/dataprep/label_lines.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/vision/det_label_json.h"
#include "ocrforge/vision/region_crop.h"

namespace ocrforge {

namespace fs = std::filesystem;

namespace {

// Writes one region's crop; false when the region is too thin to crop.
// Throws when the crop cannot be written (the caller counts it and goes on).
bool write_region_crop(const cv::Mat& page, std::vector<std::array<float, 2>> pts, float scale,
                       const fs::path& file, const InputFiles& inputs) {
  for (auto& q : pts) q = {q[0] / scale, q[1] / scale};  // file pixels -> decoded pixels
  if (const std::string input = inputs.find(file.string()); !input.empty())
    throw Error("its crop '" + file.string() + "' would replace the input image '" + input + "' (choose another --out)");
  const cv::Mat crop = crop_label_region(page, pts);
  if (crop.empty()) return false;
  std::vector<uchar> jpg;
  if (!cv::imencode(".jpg", crop, jpg)) throw Error("cannot encode crop '" + file.string() + "'");
  write_file_atomic(file.string(), std::string(jpg.begin(), jpg.end()), /*durable*/ false);
  return true;
}

}  // namespace

RegionCropReport crop_label_regions(const RegionCropSpec& spec, std::ostream& warnings) {
  if (spec.label.empty() || spec.out.empty())
    throw UsageError("--label (a detection label file) and --out (a folder) are required");
  // Labels usually sit beside the images.
  const std::string data_dir = spec.data_dir.empty() ? fs::path(spec.label).parent_path().string() : spec.data_dir;
  const std::vector<std::string> lines = read_label_lines(spec.label, "--label");
  RegionCropReport n;
  n.rec_gt_path = (fs::path(spec.out) / "rec_gt.txt").string();
  refuse_overwriting_input(n.rec_gt_path, "--out", spec.label, "the --label file");
  // Crops must not replace an image the label file lists (cropping a
  // folder's own crops again, with --out the --data_dir).
  InputFiles inputs;
  for (const auto& line : lines) {
    std::string path, json;
    if (split_det_line(line, '\t', &path, &json)) inputs.add((fs::path(data_dir) / path).string());
  }

  fs::create_directories(fs::path(spec.out) / "crop_img");
  StagedFile rec_gt(n.rec_gt_path);
  std::map<std::string, int> stem_uses;  // a.jpg and a.png must not overwrite each other's crops
  for (size_t no = 0; no < lines.size(); ++no) {
    std::string path, json;
    DetJsonParse parsed;
    if (!split_det_line(lines[no], '\t', &path, &json) || !(parsed = parse_det_json(json)).ok) {
      if (++n.bad_lines <= 5)
        warnings << "data crop: " << printable(spec.label) << ": line " << no + 1 << " skipped: not path<TAB>JSON\n";
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
      warnings << "data crop: " << printable(image_path) << ": " << printable(e.what()) << "\n";
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
      const std::string name = "crop_img/" + stem + "_crop_" + std::to_string(k) + ".jpg";
      try {  // one bad region fails alone, named; the others are still written
        if (!write_region_crop(img.bgr, r.points, img.scale, fs::path(spec.out) / name, inputs)) {
          ++n.degenerate;
          continue;
        }
      } catch (const std::exception& e) {
        ++n.failed_regions;
        warnings << "data crop: " << printable(spec.label) << ": line " << no + 1 << ": region " << k << " of '"
                 << printable(path) << "' skipped: " << printable(e.what()) << "\n";
        continue;
      }
      rec_gt.append(name + "\t" + r.transcription + "\n");
      ++n.crops;
    }
  }
  rec_gt.commit();
  if (n.crops == 0 && !n.any_failed())
    throw Error("no crop written: '" + spec.label + "' has no readable region (check the file and --data_dir)");
  return n;
}

}  // namespace ocrforge
