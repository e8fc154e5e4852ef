#include "ocrforge/serve/api_keys.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

static constexpr size_t kMinKeyLength = 16;
// A keys file of thousands of keys is a few hundred KiB; more is not one.
static constexpr off_t kMaxKeysFileBytes = 1 << 20;

ApiKeys ApiKeys::from_list(std::vector<std::string> keys) {
  for (const auto& k : keys)
    if (k.size() < kMinKeyLength)
      throw UsageError("an API key is " + std::to_string(k.size()) + " characters long; use at least " +
                       std::to_string(kMinKeyLength) + " (e.g. `openssl rand -hex 32`)");
  ApiKeys a;
  a.keys_ = std::move(keys);
  return a;
}

ApiKeys ApiKeys::load(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw UsageError("--api_keys_file '" + path + "' cannot be read");
  if (S_ISDIR(st.st_mode)) throw UsageError("--api_keys_file '" + path + "' is a folder; name the keys file");
  if (!S_ISREG(st.st_mode))
    throw UsageError("--api_keys_file '" + path + "' is not a regular file (a device or a pipe); name the keys file");
  if (st.st_size > kMaxKeysFileBytes)
    throw UsageError("--api_keys_file '" + path + "' is " + std::to_string(st.st_size) +
                     " bytes, more than a keys file's 1 MiB: is it the right file?");
  std::vector<std::string> warnings;
  if (st.st_mode & (S_IRWXG | S_IRWXO)) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%03o", static_cast<unsigned>(st.st_mode & 0777));
    warnings.push_back("--api_keys_file '" + path + "' has mode " + mode +
                       ": other users of this machine may read the keys; chmod 600 it");
  }
  std::ifstream in(path);
  if (!in) throw UsageError("--api_keys_file '" + path + "' cannot be read");
  std::vector<std::string> keys;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string k = trim(line);
    if (k.empty() || k[0] == '#') continue;
    for (char c : k)
      if (static_cast<unsigned char>(c) <= ' ')
        throw UsageError("--api_keys_file '" + path + "' line " + std::to_string(n) +
                         ": a key cannot contain spaces or control characters");
    keys.push_back(k);
  }
  if (keys.empty()) throw UsageError("--api_keys_file '" + path + "' holds no key (one key per line)");
  try {
    ApiKeys a = from_list(std::move(keys));
    a.warnings_ = std::move(warnings);
    return a;
  } catch (const UsageError& e) {
    throw UsageError("--api_keys_file '" + path + "': " + e.what());
  }
}

bool constant_time_equal(const std::string& a, const std::string& b) {
  // Every byte of the longer string is visited whatever the contents; the
  // lengths themselves are not secret (keys have a known format).
  const size_t n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  // Keep the compiler from turning the loop into an early exit.
  volatile unsigned char result = diff;
  return result == 0;
}

bool ApiKeys::accepts(const std::string& presented) const {
  if (presented.empty()) return false;
  bool any = false;
  for (const auto& k : keys_) any |= constant_time_equal(k, presented);  // no early return: all keys compared
  return any;
}

std::string presented_key(const std::string& authorization, const std::string& x_api_key) {
  const std::string a = trim(authorization);
  if (a.size() > 7 && to_lower(a.substr(0, 7)) == "bearer ") return trim(a.substr(7));
  return trim(x_api_key);
}

}  // namespace ocrforge
