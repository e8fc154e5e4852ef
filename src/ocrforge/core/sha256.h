// SHA-256 (FIPS 180-4) of bytes and files: content keys that stay the same on
// every machine and build (the int8 model cache names its files by the
// source model's digest, and checks its own files with it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ocrforge {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t n);
  // Lower-case hex of the 32-byte digest; the object must not be updated after.
  std::string hex_digest();

 private:
  void block(const unsigned char* p);
  uint32_t h_[8];
  unsigned char buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::string sha256_hex(const std::string& bytes);
// Throws Error naming the file when it cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace ocrforge
