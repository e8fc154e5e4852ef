#include "ocrforge/core/output_paths.h"

#include <sys/stat.h>

#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/text.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

fs::path resolved(const std::string& p) {
  std::error_code ec;
  const fs::path abs = fs::absolute(p, ec);
  if (ec) return fs::path(p).lexically_normal();
  fs::path r = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : r;
}

bool file_id(const std::string& p, std::pair<unsigned long long, unsigned long long>* id) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return false;
  *id = {static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino)};
  return true;
}

bool path_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  if (resolved(a) == resolved(b)) return true;
  std::pair<unsigned long long, unsigned long long> ia, ib;
  return file_id(a, &ia) && file_id(b, &ib) && ia == ib;
}

bool is_within(const std::string& inner, const std::string& outer) { return path_within(resolved(inner), resolved(outer)); }

void refuse_overwriting_input(const std::string& output, const std::string& flag, const std::string& input,
                              const std::string& input_what) {
  if (same_file(output, input))
    throw UsageError(flag + ": '" + output + "' is " + input_what + " '" + input +
                     "'; writing it would replace the input: name another file");
}

void refuse_output_in_input(const std::string& input, const std::string& out_dir, const std::string& flag) {
  std::error_code ec;
  const bool folder = fs::is_directory(input, ec);
  const fs::path in = folder ? resolved(input) : resolved(input).parent_path();
  const fs::path out = resolved(out_dir);
  if (folder ? path_within(out, in) : out == in)
    throw UsageError(flag + "='" + out_dir + "' is " + (out == in ? "the" : "inside the") + " folder of --image_dir ('" +
                     input + "'): outputs would overwrite or mix with the input images; choose another folder");
}

void InputFiles::add(const std::string& path) {
  std::pair<unsigned long long, unsigned long long> id;
  if (file_id(path, &id)) by_id_.emplace(id, path);
  by_name_.emplace(resolved(path).string(), path);
}

std::string InputFiles::find(const std::string& path) const {
  std::pair<unsigned long long, unsigned long long> id;
  if (file_id(path, &id))
    if (const auto it = by_id_.find(id); it != by_id_.end()) return it->second;
  if (const auto it = by_name_.find(resolved(path).string()); it != by_name_.end()) return it->second;
  return "";
}

std::map<std::string, std::string> output_stems(const std::vector<std::string>& inputs) {
  std::map<std::string, int> count;
  for (const auto& p : inputs) ++count[to_lower(path_stem(p))];
  std::map<std::string, std::string> out;
  for (const auto& p : inputs) out[p] = count[to_lower(path_stem(p))] > 1 ? path_filename(p) : path_stem(p);
  return out;
}

}  // namespace ocrforge
