#include "ocrforge/tipc/tipc_config.h"

#include <fstream>
#include <sstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// "=====train_params=====" -> "train_params"; "" when not a header.
std::string header_name(const std::string& line) {
  if (line.size() < 3 || line[0] != '=') return "";
  const size_t a = line.find_first_not_of('=');
  const size_t b = line.find_last_not_of('=');
  if (a == std::string::npos || b < a) return "";
  return trim(line.substr(a, b - a + 1));
}

}  // namespace

const TipcEntry* TipcSection::find(const std::string& key) const {
  const int i = index_of(key);
  return i < 0 ? nullptr : &entries[static_cast<size_t>(i)];
}

int TipcSection::index_of(const std::string& key) const {
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].key == key) return static_cast<int>(i);
  return -1;
}

TipcConfig TipcConfig::parse(const std::string& text, const std::string& source) {
  TipcConfig c;
  c.source_ = source;
  std::istringstream in(text);
  std::string raw;
  int n = 0;
  while (std::getline(in, raw)) {
    ++n;
    const std::string line = trim(raw);
    if (line.empty() || line.rfind("##", 0) == 0) continue;
    if (const std::string name = header_name(line); !name.empty()) {
      c.sections_.push_back(TipcSection{name, {}});
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0)
      throw Error(source + ":" + std::to_string(n) + ": '" + line +
                  "' is not a TIPC line (expected key:value, a =====section===== header or ##)");
    if (c.sections_.empty())
      throw Error(source + ":" + std::to_string(n) + ": '" + line + "' comes before the first =====section=====");
    c.sections_.back().entries.push_back(TipcEntry{trim(line.substr(0, colon)), trim(line.substr(colon + 1)), n});
  }
  if (c.sections_.empty()) throw Error(source + ": no =====train_params===== or other TIPC section in the file");
  return c;
}

TipcConfig TipcConfig::load(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("TIPC config '" + path + "' cannot be read (does it exist?)");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse(ss.str(), path);
}

const TipcSection* TipcConfig::section(const std::string& name) const {
  for (const auto& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

const TipcSection& TipcConfig::require(const std::string& name) const {
  if (const TipcSection* s = section(name)) return *s;
  throw Error(source_ + ": no =====" + name + "===== section");
}

bool tipc_null(const std::string& value) { return value.empty() || value == "null"; }

std::vector<std::string> tipc_list(const std::string& value) {
  std::vector<std::string> out;
  if (value.empty()) return out;
  for (const std::string& item : split(value, '|')) out.push_back(trim(item));
  return out;
}

std::string tipc_for_mode(const std::string& value, const std::string& mode) {
  bool selector = false;
  for (const std::string& part : tipc_list(value)) {
    const size_t eq = part.find('=');
    // "lite_train_lite_infer=3": a mode selector; "Global.x=1" never names a mode.
    if (eq == std::string::npos || part.find('.') < eq) continue;
    selector = true;
    if (part.substr(0, eq) == mode) return part.substr(eq + 1);
  }
  return selector ? "" : value;
}

}  // namespace ocrforge
