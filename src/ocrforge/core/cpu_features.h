// The x86 instruction-set extensions that decide how ONNX Runtime's MLAS
// library runs int8 matrix products on this CPU, read with CPUID and XGETBV
// (an extension counts only when the OS also saves its register state, as
// MLAS requires before it uses one).
//
// Why it matters: MLAS multiplies uint8 activations by int8 weights with
// `vpmaddubsw` on AVX2 and on AVX-512 without VNNI. That instruction adds two
// products into a saturating int16, so 255 * 127 + 255 * 127 is clipped to
// 32767 and int8 results are silently wrong. With AVX-VNNI, AVX512-VNNI or
// AMX the products accumulate in int32 (exact). uint8 x uint8 products are
// widened to int16 first on every x86 kernel (exact, slower).
//
// OCRFORGE_MAX_CPU_ISA caps what is reported, as oneDNN's ONEDNN_MAX_CPU_ISA
// caps its kernels: `scripts/as_cpu_kind.sh avx2 CMD` runs CMD as an AVX2
// CPU would (the int8 weight scheme, Global.use_amp's bf16 check) on a
// machine with more (docs/architecture.md, "CPU kinds").
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

struct CpuFeatures {
  bool x86_64 = false;
  bool avx2 = false;         // AVX2 + FMA, YMM state enabled by the OS
  bool avx512_core = false;  // AVX512 F + BW + DQ + VL, ZMM state enabled
  bool avx512_vnni = false;  // only counted together with avx512_core
  bool avx_vnni = false;     // VEX-encoded VNNI (needs avx2)
  bool amx_int8 = false;     // AMX-TILE + AMX-INT8, tile state enabled
  bool avx512_bf16 = false;  // AVX512_BF16, only counted together with avx512_core
  bool amx_bf16 = false;     // AMX-TILE + AMX-BF16, tile state enabled

  // "avx2 avx512_core avx512_vnni ..." (the ones present), "none" if none.
  std::string names() const;
};

// The running CPU's features (computed once per process), capped by
// OCRFORGE_MAX_CPU_ISA where it is set.
const CpuFeatures& cpu_features();

// The CPU's own features, whatever OCRFORGE_MAX_CPU_ISA says: for checks of
// what the engines' kernels (which that variable does not cap) really do.
const CpuFeatures& uncapped_cpu_features();

// The OCRFORGE_MAX_CPU_ISA levels, lowest first, as oneDNN names them
// ("avx2", "avx512_core", "avx512_core_vnni", "avx512_core_bf16",
// "avx512_core_amx", "all").
const std::vector<std::string>& cpu_isa_levels();

// `features` with everything above `level` (one of cpu_isa_levels())
// removed. Throws UsageError naming the levels for an unknown one.
CpuFeatures cap_cpu_features(CpuFeatures features, const std::string& level);

// How ORT's CPU provider accumulates uint8 x int8 products on a CPU.
enum class U8S8Products {
  Exact,               // int32 accumulation (VNNI, AMX, SSE4.1-only and non-x86 kernels)
  SaturateInt16Pairs,  // vpmaddubsw: AVX2 or AVX-512 without any VNNI
};

U8S8Products u8s8_products(const CpuFeatures& cpu);

// One line for logs and reports: "AVX2 without VNNI (uint8 x int8 products
// saturate in int16)" / "AVX512-VNNI (uint8 x int8 products exact)".
std::string int8_cpu_kind(const CpuFeatures& cpu);

}  // namespace ocrforge
