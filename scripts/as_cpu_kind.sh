#!/usr/bin/env bash
# Runs a command as a CPU of a lower kind would run it, on a machine that has
# more (docs/architecture.md, "CPU kinds"):
#
#   scripts/as_cpu_kind.sh KIND COMMAND [ARGS...]
#   scripts/as_cpu_kind.sh avx2 make test      # the whole suite as an AVX2-only CPU
#   scripts/as_cpu_kind.sh list                # the kinds this machine can run as
#
# KIND is one of avx2, avx512_core, avx512_core_vnni, avx512_core_bf16,
# native. Each engine whose kernels depend on the CPU is capped where it
# allows it:
#   LibTorch's oneDNN (convolutions)    ONEDNN_MAX_CPU_ISA (DNNL_ for older oneDNN)
#   OpenBLAS (LibTorch's matrix products, LSTMs, Linear layers)
#                                       OPENBLAS_CORETYPE: the kernels the CPU
#                                       kind gets (Haswell, SkylakeX, Cooperlake)
#   ATen's own vectorised kernels       ATEN_CPU_CAPABILITY
#   ocrforge's dispatch (int8 weight scheme, Global.use_amp's bf16 check)
#                                       OCRFORGE_MAX_CPU_ISA
# ONNX Runtime's MLAS kernels have no such switch: inference runs the
# machine's own kernels whatever KIND is.
set -euo pipefail

flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
has() { [[ " $flags " == *" $1 "* ]]; }

# The kinds, lowest first: name, oneDNN level, OpenBLAS core, the CPU flags it needs.
kinds=(
  "avx2 AVX2 Haswell avx2,fma"
  "avx512_core AVX512_CORE SkylakeX avx512f,avx512bw,avx512dq,avx512vl"
  "avx512_core_vnni AVX512_CORE_VNNI SkylakeX avx512f,avx512bw,avx512dq,avx512vl,avx512_vnni"
  "avx512_core_bf16 AVX512_CORE_BF16 Cooperlake avx512f,avx512bw,avx512dq,avx512vl,avx512_vnni,avx512_bf16"
)

can_run() {  # $1: comma-separated flags
  local f
  for f in ${1//,/ }; do has "$f" || return 1; done
}

if [[ $# -ge 1 && $1 == list ]]; then
  for k in "${kinds[@]}"; do
    read -r name _ _ need <<<"$k"
    can_run "$need" && echo "$name"
  done
  echo native
  exit 0
fi

if [[ $# -lt 2 ]]; then
  echo "usage: $0 KIND COMMAND [ARGS...]   (KIND: avx2, avx512_core, avx512_core_vnni, avx512_core_bf16, native; '$0 list' shows this machine's)" >&2
  exit 2
fi
kind=$1
shift
if [[ $kind == native ]]; then
  exec "$@"
fi
for k in "${kinds[@]}"; do
  read -r name onednn openblas need <<<"$k"
  [[ $name == "$kind" ]] || continue
  if ! can_run "$need"; then
    # oneDNN ignores a cap above the CPU and OpenBLAS's kernels for it would
    # stop at the first instruction the CPU lacks: refuse instead of running
    # the native kind under another name.
    echo "$0: this CPU cannot run as $kind (it lacks one of: ${need//,/ }); '$0 list' shows the kinds it can" >&2
    exit 2
  fi
  export ONEDNN_MAX_CPU_ISA=$onednn DNNL_MAX_CPU_ISA=$onednn OPENBLAS_CORETYPE=$openblas OCRFORGE_MAX_CPU_ISA=$name
  if [[ $name == avx2 ]]; then export ATEN_CPU_CAPABILITY=avx2; fi
  echo "as_cpu_kind: $kind (ONEDNN_MAX_CPU_ISA=$onednn OPENBLAS_CORETYPE=$openblas OCRFORGE_MAX_CPU_ISA=$name)" >&2
  exec "$@"
done
echo "$0: unknown CPU kind '$kind' (avx2, avx512_core, avx512_core_vnni, avx512_core_bf16, native)" >&2
exit 2
