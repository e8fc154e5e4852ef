#!/usr/bin/env bash
# Training speed with Debian's reference BLAS against OpenBLAS (the one
# scripts/bootstrap.sh installs), the same binary and config, the sides
# alternating: LibTorch does its matrix products (Linear, LSTM, attention)
# through libblas.so.3, and LD_LIBRARY_PATH picks which one it loads.
#
# usage: bench/train_speed/blas_ab.sh CONFIG.yml [ROUNDS] [-o overrides...]
# environment: BUILD (build), THREADS (2). Prints seconds per step of each run
# (the steps after the first, from the training log).
set -euo pipefail
cfg=$1; shift
rounds=${1:-2}; [ $# -gt 0 ] && shift
repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "${BUILD:-$repo/build}" && pwd)/ocrforge
threads=${THREADS:-2}
ref=/usr/lib/x86_64-linux-gnu/blas
open=/usr/lib/x86_64-linux-gnu/openblas-openmp
[ -f "$ref/libblas.so.3" ] || { echo "no reference BLAS at $ref (apt-get install libblas3)" >&2; exit 1; }
[ -f "$open/libblas.so.3" ] || { echo "no OpenBLAS at $open (apt-get install libopenblas0-openmp)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# seconds per step: the spread of the log's timestamps over the steps after the first
per_step() {
  grep -o '^\[[0-9/]* [0-9:]*\] ocrforge INFO: epoch: .*global_step: [0-9]*' "$1" |
    sed -E 's/^\[[0-9/]* ([0-9:]*)\].*global_step: ([0-9]*)/\1 \2/' |
    awk '{ split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]; if (NR == 1) { s0 = s; n0 = $2 } else { s1 = s; n1 = $2 } }
         END { if (n1 > n0) printf "%.2f", (s1 - s0) / (n1 - n0); else printf "n/a" }'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $threads threads; $(date -u +%F)"
for r in $(seq "$rounds"); do
  order="reference openblas"; [ $((r % 2)) -eq 0 ] && order="openblas reference"  # A B, B A, ...
  for side in $order; do
    lib=$ref; [ "$side" = openblas ] && lib=$open
    log="$out/$side-$r.log"
    LD_LIBRARY_PATH=$lib OMP_WAIT_POLICY=PASSIVE "$bin" train -c "$cfg" -o Global.save_model_dir="$out/ckpt" \
      Global.num_threads="$threads" Global.print_batch_step=1 Global.eval_batch_step=[0,1000000] "$@" > "$log" 2>&1 ||
      { echo "$side run failed: $(tail -2 "$log")" >&2; exit 1; }
    echo "round $r $side: $(per_step "$log") s/step"
    rm -rf "$out/ckpt"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
