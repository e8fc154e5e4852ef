// API keys for `ocrforge serve --api_keys_file`: one key per line ('#'
// comments and blank lines skipped). A request carries its key as
// "Authorization: Bearer <key>" or "X-API-Key: <key>"; it is compared with
// every configured key in time that does not depend on where they differ.
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

class ApiKeys {
 public:
  ApiKeys() = default;
  // Throws Error naming the file when it cannot be read, is not a regular
  // file (a folder, /dev/zero), is over 1 MiB, holds no key, or a key is
  // shorter than 16 characters (guessable). A file other users may read or
  // write is loaded with a warning (warnings()).
  static ApiKeys load(const std::string& path);
  static ApiKeys from_list(std::vector<std::string> keys);

  bool enabled() const { return !keys_.empty(); }
  size_t size() const { return keys_.size(); }
  // True when `presented` equals one of the keys; every key is compared in full.
  bool accepts(const std::string& presented) const;
  // What load() found worth saying (e.g. "readable by every user").
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::vector<std::string> keys_;
  std::vector<std::string> warnings_;
};

// The key a request presents: the token of "Authorization: Bearer <token>"
// (scheme case-insensitive), else the X-API-Key header; "" when neither.
std::string presented_key(const std::string& authorization, const std::string& x_api_key);

// Compares two strings in time that depends only on their lengths.
bool constant_time_equal(const std::string& a, const std::string& b);

}  // namespace ocrforge
