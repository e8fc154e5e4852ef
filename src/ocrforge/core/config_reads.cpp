#include "ocrforge/core/config_reads.h"

#include <utility>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {
namespace {

thread_local const ConfigReadScope* active_scope = nullptr;
thread_local std::vector<std::pair<std::string, std::string>> rebases;

// "Train.dataset.transforms[0].DecodeImage" -> "Train.dataset.transforms.DecodeImage"
std::string canonical(const std::string& path) {
  std::string out;
  out.reserve(path.size());
  int depth = 0;
  for (char c : path) {
    if (c == '[') ++depth;
    else if (c == ']' && depth > 0) --depth;
    else if (depth == 0) out += c;
  }
  return out;
}

// `path` under the innermost rebase whose `from` it starts with.
std::string rebased(const std::string& path) {
  for (auto it = rebases.rbegin(); it != rebases.rend(); ++it) {
    const std::string& from = it->first;
    if (path.compare(0, from.size(), from) != 0) continue;
    if (path.size() == from.size() || path[from.size()] == '.' || path[from.size()] == '[')
      return it->second + path.substr(from.size());
  }
  return path;
}

std::string parent_of(const std::string& canon) {
  const size_t dot = canon.rfind('.');
  return dot == std::string::npos ? "" : canon.substr(0, dot);
}

std::string last_of(const std::string& canon) {
  const size_t dot = canon.rfind('.');
  return dot == std::string::npos ? canon : canon.substr(dot + 1);
}

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s.empty() ? "none" : s;
}

}  // namespace

std::string config_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

void ConfigReads::note(const std::string& path) {
  // Every ancestor is read too (a reader reached the key through it), and
  // each is a known child of its parent, for suggestions.
  for (std::string c = canonical(rebased(path)); !c.empty();) {
    const std::string parent = parent_of(c), name = last_of(c);
    auto& kids = children_[parent];
    bool listed = false;
    for (const auto& k : kids) listed = listed || k == name;
    if (!listed) kids.push_back(name);
    if (!read_.insert(c).second) break;  // its ancestors are recorded already
    c = parent;
  }
}

void ConfigReads::note_whole(const std::string& path) {
  note(path);
  whole_.insert(canonical(rebased(path)));
}

void ConfigReads::accept_ignored(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    const std::string c = canonical(p);
    ignored_.insert(c);
    const std::string parent = parent_of(c);
    if (!parent.empty()) note(parent);
    auto& kids = children_[parent];
    bool listed = false;
    for (const auto& k : kids) listed = listed || k == last_of(c);
    if (!listed) kids.push_back(last_of(c));  // a typo of an ignored key still gets its suggestion
  }
}

void ConfigReads::excuse(const std::string& path) { excused_.push_back(canonical(path)); }

bool ConfigReads::excused(const std::string& canon) const {
  for (const auto& e : excused_)
    if (canon == e || (canon.size() > e.size() && canon.compare(0, e.size(), e) == 0 && canon[e.size()] == '.'))
      return true;
  return false;
}

void ConfigReads::walk(const YAML::Node& n, const std::string& shown, const std::string& canon,
                       std::vector<std::string>* problems, std::vector<std::string>* ignored_found) const {
  if (n.IsSequence()) {
    for (size_t i = 0; i < n.size(); ++i)
      walk(n[i], shown + "[" + std::to_string(i) + "]", canon, problems, ignored_found);
    return;
  }
  if (!n.IsMap()) return;
  for (const auto& kv : n) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
    const std::string sp = config_path(shown, key), cp = config_path(canon, key);
    if (excused(cp)) continue;
    if (!read_.count(cp)) {
      if (ignored_.count(cp)) {
        ignored_found->push_back(sp);
        continue;
      }
      const auto kids = children_.find(canon);
      const std::vector<std::string> names = kids == children_.end() ? std::vector<std::string>{} : kids->second;
      const std::string close = closest_match(key, names);
      problems->push_back("unknown config key '" + sp + "' (" +
                          (close.empty() ? "known: " + joined(names)
                                         : "did you mean '" + config_path(shown, close) + "'?") +
                          ")");
      continue;
    }
    // A value taken whole is known with all it holds; otherwise what it
    // holds must have been read key by key.
    if (!whole_.count(cp)) walk(kv.second, sp, cp, problems, ignored_found);
  }
}

std::vector<std::string> ConfigReads::unknown_keys(const YAML::Node& root, const std::string& path) const {
  std::vector<std::string> problems, ignored;
  walk(root, path, canonical(path), &problems, &ignored);
  return problems;
}

std::vector<std::string> ConfigReads::ignored_keys_present(const YAML::Node& root) const {
  std::vector<std::string> problems, ignored;
  walk(root, "", "", &problems, &ignored);
  return ignored;
}

void ConfigReads::throw_if_unknown(const YAML::Node& root, const std::string& origin,
                                   const std::string& path) const {
  const std::vector<std::string> problems = unknown_keys(root, path);
  if (problems.empty()) return;
  const std::string prefix = origin.empty() ? "" : origin + ": ";
  if (problems.size() == 1) throw UsageError(prefix + problems[0]);
  std::string msg = prefix + std::to_string(problems.size()) + " config problems:";
  for (const auto& p : problems) msg += "\n  - " + p;
  throw UsageError(msg);
}

ConfigReadScope::ConfigReadScope(ConfigReads& reads) : reads_(&reads), outer_(active_scope) { active_scope = this; }
ConfigReadScope::~ConfigReadScope() { active_scope = outer_; }

ConfigReadRebase::ConfigReadRebase(std::string from, std::string to) {
  rebases.emplace_back(std::move(from), std::move(to));
}
ConfigReadRebase::~ConfigReadRebase() { rebases.pop_back(); }

void note_config_read(const std::string& path) {
  for (const ConfigReadScope* s = active_scope; s; s = s->outer_) s->reads_->note(path);
}

void note_config_whole(const std::string& path) {
  for (const ConfigReadScope* s = active_scope; s; s = s->outer_) s->reads_->note_whole(path);
}

}  // namespace ocrforge
