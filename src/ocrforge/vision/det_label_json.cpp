// Tolerant det label / result JSON reader (det_label_json.h).
#include "ocrforge/vision/det_label_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "ocrforge/core/json_bounded.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// [[x, y], ...] with finite numbers; false for anything else.
bool read_points(const nlohmann::json& pts, std::vector<std::array<float, 2>>* out) {
  if (!pts.is_array()) return false;
  for (const auto& p : pts) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) return false;
    const float x = p[0].get<float>(), y = p[1].get<float>();
    if (!std::isfinite(x) || !std::isfinite(y)) return false;
    out->push_back({x, y});
  }
  return true;
}

}  // namespace

DetJsonParse parse_det_json(const std::string& json) {
  DetJsonParse r;
  nlohmann::json j;
  try {
    j = parse_json_bounded(json);
  } catch (const JsonTooDeepError& e) {
    r.error = std::string("not a list of regions (") + e.what() + ")";
    return r;
  } catch (const nlohmann::json::exception& e) {
    r.error = std::string("not valid JSON (") + e.what() + ")";
    return r;
  }
  if (!j.is_array()) {
    r.error = "not a JSON list of regions";
    return r;
  }
  for (const auto& item : j) {
    DetRegion reg;
    bool good = false;
    if (item.is_object()) {
      if (item.contains("transcription") && item["transcription"].is_string())
        reg.transcription = item["transcription"].get<std::string>();
      good = item.contains("points") && read_points(item["points"], &reg.points);
    } else {
      good = read_points(item, &reg.points);  // det_results.txt: the point list itself
    }
    if (!good || reg.points.size() < 3) {
      ++r.few_points;
      continue;
    }
    r.regions.push_back(std::move(reg));
  }
  r.ok = true;
  return r;
}

bool split_det_line(std::string line, char delimiter, std::string* path, std::string* rest) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  strip_utf8_bom(&line);
  const size_t pos = line.find(delimiter);
  if (pos == std::string::npos || pos == 0) return false;
  *path = line.substr(0, pos);
  *rest = line.substr(pos + 1);
  return true;
}

}  // namespace ocrforge
