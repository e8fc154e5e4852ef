// CPU feature detection (CPUID + XGETBV) against the kernel's own reading in
// /proc/cpuinfo, and the int8 verdict it gives for each kind of CPU. The
// verdict is also held to ONNX Runtime's real kernels on the machine running
// the tests (tests/onnx/onnx_quantize_test.cpp, Signed8SaturatesExactly...).
#include "ocrforge/core/cpu_features.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

namespace ocrforge {
namespace {

// The "flags" line of the first processor in /proc/cpuinfo; empty if none.
std::set<std::string> proc_cpuinfo_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::set<std::string> flags;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string w; words >> w;) flags.insert(w);
    break;
  }
  return flags;
}

TEST(CpuFeatures, AgreeWithTheKernelsFlags) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "not an x86-64 build";
#endif
  const std::set<std::string> f = proc_cpuinfo_flags();
  if (f.empty()) GTEST_SKIP() << "no flags line in /proc/cpuinfo";
  auto has = [&](const char* name) { return f.count(name) > 0; };
  const CpuFeatures& c = uncapped_cpu_features();
  std::cout << "detected: " << c.names() << "; " << int8_cpu_kind(c) << "\n";
  EXPECT_TRUE(c.x86_64);
  // The kernel lists an AVX flag only when it saves that state, as XGETBV checks.
  EXPECT_EQ(c.avx2, has("avx2") && has("fma"));
  const bool core = has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl");
  EXPECT_EQ(c.avx512_core, core && c.avx2);
  EXPECT_EQ(c.avx512_vnni, core && c.avx2 && has("avx512_vnni"));
  EXPECT_EQ(c.avx_vnni, c.avx2 && has("avx_vnni"));
  EXPECT_EQ(c.amx_int8, c.avx2 && has("amx_tile") && has("amx_int8"));
  EXPECT_EQ(c.avx512_bf16, core && c.avx2 && has("avx512_bf16"));
  EXPECT_EQ(c.amx_bf16, c.avx2 && has("amx_tile") && has("amx_bf16"));
}

CpuFeatures avx2_only() {
  CpuFeatures c;
  c.x86_64 = c.avx2 = true;
  return c;
}

TEST(CpuFeatures, SaturationFollowsWhichKernelOrtPicks) {
  CpuFeatures c = avx2_only();
  EXPECT_EQ(u8s8_products(c), U8S8Products::SaturateInt16Pairs);
  EXPECT_EQ(c.names(), "avx2");
  EXPECT_NE(int8_cpu_kind(c).find("AVX2 without VNNI"), std::string::npos) << int8_cpu_kind(c);
  EXPECT_NE(int8_cpu_kind(c).find("saturate"), std::string::npos);
  c.avx512_core = true;  // Skylake-SP: vpmaddubsw in 512 bits, still saturating
  EXPECT_EQ(u8s8_products(c), U8S8Products::SaturateInt16Pairs);
  c.avx512_vnni = true;  // vpdpbusd accumulates in int32
  EXPECT_EQ(u8s8_products(c), U8S8Products::Exact);
  EXPECT_NE(int8_cpu_kind(c).find("AVX512-VNNI"), std::string::npos);
  CpuFeatures alder = avx2_only();
  alder.avx_vnni = true;
  EXPECT_EQ(u8s8_products(alder), U8S8Products::Exact);
  CpuFeatures amx = avx2_only();
  amx.amx_int8 = true;
  EXPECT_EQ(u8s8_products(amx), U8S8Products::Exact);
  CpuFeatures sse;  // x86-64 without AVX2: MLAS's SSE kernels widen to int16 first
  sse.x86_64 = true;
  EXPECT_EQ(u8s8_products(sse), U8S8Products::Exact);
  EXPECT_EQ(u8s8_products(CpuFeatures{}), U8S8Products::Exact);  // not x86
  EXPECT_EQ(CpuFeatures{}.names(), "none");
}

CpuFeatures everything() {
  CpuFeatures c;
  c.x86_64 = c.avx2 = c.avx512_core = c.avx512_vnni = c.avx_vnni = c.amx_int8 = c.avx512_bf16 = c.amx_bf16 = true;
  return c;
}

// OCRFORGE_MAX_CPU_ISA's levels take away what oneDNN's levels of the same
// name take away, so a capped run plans int8 and bf16 as that CPU would.
TEST(CpuFeatures, CapRemovesWhatIsAboveTheLevel) {
  EXPECT_EQ(cap_cpu_features(everything(), "avx2").names(), "avx2");
  EXPECT_EQ(u8s8_products(cap_cpu_features(everything(), "avx2")), U8S8Products::SaturateInt16Pairs);
  EXPECT_EQ(cap_cpu_features(everything(), "AVX512_CORE").names(), "avx2 avx512_core");
  EXPECT_EQ(cap_cpu_features(everything(), "avx512_core_vnni").names(), "avx2 avx512_core avx512_vnni avx_vnni");
  EXPECT_EQ(cap_cpu_features(everything(), "avx512_core_bf16").names(),
            "avx2 avx512_core avx512_vnni avx_vnni avx512_bf16");
  EXPECT_EQ(cap_cpu_features(everything(), "avx512_core_amx").names(), everything().names());
  EXPECT_EQ(cap_cpu_features(everything(), "all").names(), everything().names());
  EXPECT_EQ(cap_cpu_features(avx2_only(), "all").names(), "avx2") << "a cap never adds";
  try {
    cap_cpu_features(everything(), "avx1024");
    ADD_FAILURE() << "an unknown level must be refused";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("OCRFORGE_MAX_CPU_ISA='avx1024'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("avx512_core_vnni"), std::string::npos) << e.what();
  }
}

// cpu_features() is the CPU's own, capped where the variable says so
// (scripts/as_cpu_kind.sh sets it for a whole test run).
TEST(CpuFeatures, ReportedFeaturesFollowTheEnvironmentsCap) {
  const char* cap = std::getenv("OCRFORGE_MAX_CPU_ISA");
  const CpuFeatures expected = cap && *cap ? cap_cpu_features(uncapped_cpu_features(), cap) : uncapped_cpu_features();
  EXPECT_EQ(cpu_features().names(), expected.names());
}

}  // namespace
}  // namespace ocrforge
