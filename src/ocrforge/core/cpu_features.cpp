// CPUID / XGETBV reading for cpu_features.h. The bit positions are Intel's
// and AMD's published CPUID layout; the conditions mirror the order in which
// MLAS enables its kernels (AVX2 first, then AVX-512 core, then VNNI / AMX).
#include "ocrforge/core/cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define OCRFORGE_X86 1
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

#ifdef OCRFORGE_X86
uint64_t read_xcr0() {
  uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

bool bit(unsigned reg, int b) { return (reg >> b) & 1u; }

CpuFeatures detect() {
  CpuFeatures f;
  f.x86_64 = true;
  unsigned a1 = 0, b1 = 0, c1 = 0, d1 = 0;
  if (!__get_cpuid(1, &a1, &b1, &c1, &d1)) return f;
  const bool osxsave_avx = bit(c1, 27) && bit(c1, 28);  // OSXSAVE, AVX
  if (!osxsave_avx) return f;
  const uint64_t xcr0 = read_xcr0();
  if ((xcr0 & 0x6) != 0x6) return f;  // XMM and YMM state
  unsigned a7 = 0, b7 = 0, c7 = 0, d7 = 0;
  if (!__get_cpuid_count(7, 0, &a7, &b7, &c7, &d7)) return f;
  f.avx2 = bit(c1, 12) && bit(b7, 5);  // FMA, AVX2
  if (!f.avx2) return f;
  unsigned a71 = 0, b71 = 0, c71 = 0, d71 = 0;
  if (a7 >= 1) __get_cpuid_count(7, 1, &a71, &b71, &c71, &d71);
  f.avx_vnni = bit(a71, 4);
  const bool zmm_state = (xcr0 & 0xE0) == 0xE0;  // opmask, ZMM0-15 upper halves, ZMM16-31
  const bool avx512f = bit(b7, 16);
  const bool core = bit(b7, 16) && bit(b7, 17) && bit(b7, 30) && bit(b7, 31);  // F, DQ, BW, VL
  f.avx512_core = zmm_state && avx512f && core;
  f.avx512_vnni = f.avx512_core && bit(c7, 11);
  const bool tile_state = (xcr0 & (3ull << 17)) == (3ull << 17);  // XTILECFG, XTILEDATA
  f.amx_int8 = bit(d7, 24) && bit(d7, 25) && tile_state;
  f.avx512_bf16 = f.avx512_core && bit(a71, 5);
  f.amx_bf16 = bit(d7, 24) && bit(d7, 22) && tile_state;
  return f;
}
#else
CpuFeatures detect() { return {}; }
#endif

}  // namespace

std::string CpuFeatures::names() const {
  std::string s;
  auto add = [&](bool on, const char* name) {
    if (on) s += (s.empty() ? "" : " ") + std::string(name);
  };
  add(avx2, "avx2");
  add(avx512_core, "avx512_core");
  add(avx512_vnni, "avx512_vnni");
  add(avx_vnni, "avx_vnni");
  add(amx_int8, "amx_int8");
  add(avx512_bf16, "avx512_bf16");
  add(amx_bf16, "amx_bf16");
  return s.empty() ? "none" : s;
}

const std::vector<std::string>& cpu_isa_levels() {
  static const std::vector<std::string> levels = {"avx2",          "avx512_core",     "avx512_core_vnni",
                                                  "avx512_core_bf16", "avx512_core_amx", "all"};
  return levels;
}

CpuFeatures cap_cpu_features(CpuFeatures f, const std::string& level) {
  const auto& levels = cpu_isa_levels();
  const auto it = std::find(levels.begin(), levels.end(), to_lower(level));
  if (it == levels.end())
    throw UsageError("OCRFORGE_MAX_CPU_ISA='" + level + "' is not a level; use one of " + join(levels, ", ") +
                     " (or unset it)");
  const auto rank = it - levels.begin();
  // VNNI of either encoding comes with the vnni level: oneDNN's avx2 and
  // avx512_core levels have none (its AVX2_VNNI is a level of its own).
  if (rank < 1) f.avx512_core = false;
  if (rank < 2) f.avx512_vnni = f.avx_vnni = false;
  if (rank < 3) f.avx512_bf16 = false;
  if (rank < 4) f.amx_int8 = f.amx_bf16 = false;
  f.avx512_vnni = f.avx512_vnni && f.avx512_core;
  f.avx512_bf16 = f.avx512_bf16 && f.avx512_core;
  return f;
}

const CpuFeatures& uncapped_cpu_features() {
  static const CpuFeatures f = detect();
  return f;
}

const CpuFeatures& cpu_features() {
  static const CpuFeatures f = [] {
    const char* cap = std::getenv("OCRFORGE_MAX_CPU_ISA");
    return cap && *cap ? cap_cpu_features(uncapped_cpu_features(), cap) : uncapped_cpu_features();
  }();
  return f;
}

U8S8Products u8s8_products(const CpuFeatures& cpu) {
  if (!cpu.x86_64 || !cpu.avx2) return U8S8Products::Exact;  // SSE4.1 / generic / non-x86 kernels widen
  if (cpu.avx_vnni || cpu.avx512_vnni || cpu.amx_int8) return U8S8Products::Exact;
  return U8S8Products::SaturateInt16Pairs;
}

std::string int8_cpu_kind(const CpuFeatures& cpu) {
  std::string kind;
  if (!cpu.x86_64)
    kind = "not x86-64";
  else if (cpu.amx_int8)
    kind = "AMX-INT8";
  else if (cpu.avx512_vnni)
    kind = "AVX512-VNNI";
  else if (cpu.avx_vnni)
    kind = "AVX-VNNI";
  else if (cpu.avx512_core)
    kind = "AVX-512 without VNNI";
  else if (cpu.avx2)
    kind = "AVX2 without VNNI";
  else
    kind = "x86-64 without AVX2";
  return kind + (u8s8_products(cpu) == U8S8Products::Exact ? " (uint8 x int8 products exact)"
                                                           : " (uint8 x int8 products saturate in int16)");
}

}  // namespace ocrforge
