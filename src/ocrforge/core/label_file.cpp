#include "ocrforge/core/label_file.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/json_bounded.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

std::string where(const std::string& file, size_t line_no) {
  return "label file '" + file + "' line " + std::to_string(line_no);
}

// Splits at the first delimiter; a line without one is not a label line.
void split_line(std::string line, const std::string& file, size_t line_no, char delimiter,
                std::string* path, std::string* rest) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  strip_utf8_bom(&line);
  const size_t pos = line.find(delimiter);
  if (pos == std::string::npos)
    throw Error(where(file, line_no) + ": no delimiter " +
                (delimiter == '\t' ? std::string("(tab)") : "'" + std::string(1, delimiter) + "'") +
                " between image path and label");
  *path = line.substr(0, pos);
  *rest = line.substr(pos + 1);
  if (path->empty()) throw Error(where(file, line_no) + ": empty image path");
}

float to_float(const nlohmann::json& v, const std::string& ctx) {
  if (!v.is_number()) throw Error(ctx + ": a point coordinate is not a number");
  return v.get<float>();
}

template <typename T, typename Parse>
std::vector<T> read_lines(const std::string& file, Parse parse) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("label file '" + file + "' cannot be read (missing or no permission)");
  std::vector<T> out;
  std::string line;
  size_t no = 0;
  while (std::getline(in, line)) {
    ++no;
    if (line.empty() || line == "\r") continue;
    out.push_back(parse(line, no));
  }
  return out;
}

}  // namespace

RecLabel parse_rec_label_line(const std::string& line, const std::string& file, size_t line_no,
                              char delimiter) {
  RecLabel r;
  split_line(line, file, line_no, delimiter, &r.path, &r.text);
  return r;
}

DetLabel parse_det_label_line(const std::string& line, const std::string& file, size_t line_no,
                              char delimiter) {
  DetLabel d;
  std::string rest;
  split_line(line, file, line_no, delimiter, &d.path, &rest);
  const std::string ctx = where(file, line_no);
  nlohmann::json j;
  try {
    j = parse_json_bounded(rest);
  } catch (const JsonTooDeepError& e) {
    throw Error(ctx + ": the label is not a list of regions (" + e.what() + ")");
  } catch (const nlohmann::json::exception& e) {
    throw Error(ctx + ": the label is not valid JSON (" + e.what() + ")");
  }
  if (!j.is_array()) throw Error(ctx + ": the label must be a JSON list of {\"transcription\", \"points\"}");
  for (const auto& item : j) {
    if (!item.is_object() || !item.contains("points"))
      throw Error(ctx + ": every region needs \"points\"");
    DetRegion reg;
    if (item.contains("transcription")) {
      const auto& t = item["transcription"];
      if (!t.is_string()) throw Error(ctx + ": \"transcription\" must be a string");
      reg.transcription = t.get<std::string>();
    }
    const auto& pts = item["points"];
    if (!pts.is_array() || pts.size() < 3) throw Error(ctx + ": \"points\" must list at least 3 [x, y] pairs");
    for (const auto& p : pts) {
      if (!p.is_array() || p.size() != 2) throw Error(ctx + ": each point must be [x, y]");
      reg.points.push_back({to_float(p[0], ctx), to_float(p[1], ctx)});
    }
    d.regions.push_back(std::move(reg));
  }
  return d;
}

std::vector<RecLabel> read_rec_labels(const std::string& file, char delimiter) {
  return read_lines<RecLabel>(file, [&](const std::string& line, size_t no) {
    return parse_rec_label_line(line, file, no, delimiter);
  });
}

std::vector<DetLabel> read_det_labels(const std::string& file, char delimiter) {
  return read_lines<DetLabel>(file, [&](const std::string& line, size_t no) {
    return parse_det_label_line(line, file, no, delimiter);
  });
}

std::string label_file_dir(const std::string& file) {
  const size_t slash = file.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return file.substr(0, slash);
}

}  // namespace ocrforge
