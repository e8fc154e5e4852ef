// FNV-1a 64: a fast, stable (same on every machine and build) hash for
// content fingerprints (config hashes, label files). Not cryptographic.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ocrforge {

constexpr uint64_t kFnv1a64Basis = 14695981039346656037ull;

// Continues `h` over `n` bytes, so a file can be hashed in chunks:
// fnv1a64(b, nb, fnv1a64(a, na)) == fnv1a64 of a followed by b.
inline uint64_t fnv1a64(const void* data, size_t n, uint64_t h = kFnv1a64Basis) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;  // FNV-1a 64 prime
  }
  return h;
}

}  // namespace ocrforge
