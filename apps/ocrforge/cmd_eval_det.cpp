// `ocrforge eval-det --gt det_gt.txt --pred det_results.txt`: scores any
// detector's output against a PaddleOCR detection label file with the
// training metric (vision/det_metric.h: IoU > 0.5, one-to-one, "###" ignored)
// and prints precision / recall / hmean.
//
// Both files are `name<TAB>JSON` lines (det_label_json.h lists the accepted
// JSON forms: labels, system_results.txt, det_results.txt). A prediction
// line is matched to a ground-truth line by its path as written, else by
// file name (labels say "imgs/img_1.jpg", ocrforge's result files "img_1.jpg").
// Ground-truth images without a prediction line count as images with no
// detections; prediction lines for images not in the ground truth are
// reported and left out.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "commands.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/vision/det_label_json.h"
#include "ocrforge/vision/det_metric.h"

namespace ocrforge {

namespace {

const char* kAbout =
    "usage: ocrforge eval-det --gt det_gt.txt --pred det_results.txt|system_results.txt\n"
    "Prints precision, recall and hmean of the predicted boxes against the labels\n"
    "(PaddleOCR's DetMetric: IoU > 0.5, one-to-one, '###' regions ignored).\n\n";

struct Entry {
  std::string name;
  std::vector<DetRegion> regions;
};

struct FileRead {
  std::vector<Entry> entries;
  long bad_lines = 0, few_points = 0;
};

// Reads `name<TAB>JSON` lines; bad lines are reported (first 5) and skipped.
FileRead read_file(const std::string& path, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "' (" + flag + "): missing or no permission");
  FileRead r;
  std::string line, name, rest;
  for (size_t no = 1; std::getline(in, line); ++no) {
    if (line.empty() || line == "\r") continue;
    DetJsonParse parsed;
    std::string why;
    if (!split_det_line(line, '\t', &name, &rest)) why = "no tab between image name and JSON";
    else if (!(parsed = parse_det_json(rest)).ok) why = parsed.error;
    for (size_t k = 0; why.empty() && k < parsed.regions.size(); ++k)
      if (parsed.regions[k].points.size() > kMaxMetricPolygonPoints)
        why = "region " + std::to_string(k) + " has " + std::to_string(parsed.regions[k].points.size()) +
              " points, over the " + std::to_string(kMaxMetricPolygonPoints) + " a text polygon may have";
    if (!why.empty()) {
      if (++r.bad_lines <= 5)
        std::cerr << "eval-det: " << printable(path) << ":" << no << ": skipped: " << printable(why) << "\n";
      continue;
    }
    r.few_points += parsed.few_points;
    r.entries.push_back({name, std::move(parsed.regions)});
  }
  return r;
}

std::string file_name(const std::string& p) { return std::filesystem::path(p).filename().string(); }

std::vector<cv::Point2f> points(const DetRegion& r) {
  std::vector<cv::Point2f> out;
  for (const auto& p : r.points) out.emplace_back(p[0], p[1]);
  return out;
}

}  // namespace

int cmd_eval_det(const Args& args) {
  FlagSet flags("eval-det");
  flags.add("gt", "", "ground-truth label file (path<TAB>[{\"transcription\", \"points\"}, ...])");
  flags.add("pred", "", "predictions: det_results.txt or system_results.txt (name<TAB>JSON)");
  const auto positional = flags.parse(args);
  if (flags.help_requested()) {
    std::cout << kAbout << flags.help_text();
    return 0;
  }
  if (!positional.empty()) throw UsageError("unexpected argument '" + positional[0] + "'; use --gt and --pred");
  if (flags.get("gt").empty() || flags.get("pred").empty())
    throw UsageError("both --gt (the label file) and --pred (det_results.txt or system_results.txt) are required");

  const FileRead gt = read_file(flags.get("gt"), "--gt");
  const FileRead pred = read_file(flags.get("pred"), "--pred");
  if (gt.entries.empty()) throw Error("'" + flags.get("gt") + "' (--gt) holds no usable label line");

  // Ground-truth lookup by path as written and by file name (ambiguous names remembered).
  std::map<std::string, size_t> by_path, by_name;
  std::map<std::string, std::string> ambiguous;
  for (size_t i = 0; i < gt.entries.size(); ++i) {
    const std::string& p = gt.entries[i].name;
    if (!by_path.emplace(p, i).second) throw Error("'" + p + "' is listed twice in '" + flags.get("gt") + "' (--gt)");
    const auto [it, fresh] = by_name.emplace(file_name(p), i);
    if (!fresh) ambiguous[file_name(p)] = gt.entries[it->second].name + "' and '" + p;
  }
  std::vector<const Entry*> pred_of(gt.entries.size(), nullptr);
  long unknown = 0;
  for (const auto& e : pred.entries) {
    size_t index = gt.entries.size();  // none
    if (const auto it = by_path.find(e.name); it != by_path.end()) {
      index = it->second;
    } else {
      const std::string n = file_name(e.name);
      if (ambiguous.count(n))
        throw Error("prediction '" + e.name + "' matches '" + ambiguous[n] +
                    "' in --gt by file name; write the same paths in both files");
      if (const auto jt = by_name.find(n); jt != by_name.end()) index = jt->second;
    }
    if (index == gt.entries.size()) {
      if (++unknown <= 5) std::cerr << "eval-det: '" << printable(e.name) << "' (--pred) is not in --gt: left out\n";
      continue;
    }
    if (pred_of[index]) throw Error("two lines of --pred match '" + gt.entries[index].name + "'");
    pred_of[index] = &e;
  }
  if (!pred.entries.empty() && unknown == static_cast<long>(pred.entries.size()))
    throw Error("no image of --pred is in --gt: the names differ (matched by path, then by file name)");

  DetMetric metric;
  long without_pred = 0;
  for (size_t i = 0; i < gt.entries.size(); ++i) {
    std::vector<DetGtPolygon> g;
    for (const auto& r : gt.entries[i].regions) g.push_back({points(r), r.ignore()});
    std::vector<std::vector<cv::Point2f>> d;
    if (pred_of[i])
      for (const auto& r : pred_of[i]->regions) d.push_back(points(r));
    else
      ++without_pred;
    metric.add(g, d);
  }
  const auto& t = metric.totals();
  std::printf("precision: %.6f\nrecall: %.6f\nhmean: %.6f\n", metric.precision(), metric.recall(), metric.hmean());
  std::printf("images: %zu (without predictions: %ld), gt regions cared for: %ld, detections cared for: %ld, matched: %ld\n",
              gt.entries.size(), without_pred, t.gt_care, t.det_care, t.matched);
  if (gt.bad_lines + pred.bad_lines + gt.few_points + pred.few_points + unknown > 0)
    std::fprintf(stderr,
                 "eval-det: skipped %ld bad --gt lines, %ld bad --pred lines, %ld regions with < 3 points, "
                 "%ld --pred images not in --gt\n",
                 gt.bad_lines, pred.bad_lines, gt.few_points + pred.few_points, unknown);
  return 0;
}

}  // namespace ocrforge
