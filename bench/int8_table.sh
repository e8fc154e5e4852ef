#!/usr/bin/env bash
# The INT8 table of docs/benchmarks.md in one command: fp32 vs --precision int8
# of the PP-OCRv4 det and rec models, accuracy and time, the two precisions
# alternating every round in one process (ocrforge_int8_bench).
#
#   bash bench/int8_table.sh [BUILD_DIR]            # default: build
#   ROUNDS=5 CPU_THREADS=2 bash bench/int8_table.sh
#   SCHEMES=auto,s7,s8 bash bench/int8_table.sh     # every weight scheme (auto: this CPU's)
#
# Data (../shared/data, the team's copy; each set is skipped when absent):
#   rec: IC15 training word crops 1-4000 (crops 4001-4468 chose the layers kept fp32)
#   det: det_toy (10 IC15 scenes), SROIE receipts 1-50, FUNSD forms 1-30
# The int8 models are made into a fresh cache folder first (their build time
# is printed), so the run also checks that the shipped calibration set works.
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA:-$here/../shared/data}
bin=$build/ocrforge_int8_bench
[ -x "$bin" ] || { echo "int8_table.sh: $bin not built (cmake --build $build --target ocrforge_int8_bench)" >&2; exit 1; }
rec=() det=() lim=()
[ -f "$data/ic15_rec_train/rec_gt_train.txt" ] && rec=(--rec_labels "$data/ic15_rec_train/rec_gt_train.txt" --rec_limit 4000)
for entry in det_toy:0 sroie_train:50 funsd_train:30; do
  name="${entry%%:*}"
  if [ -f "$data/$name/det_gt.txt" ]; then det+=("$data/$name/det_gt.txt"); lim+=("${entry##*:}"); else echo "skipping $name: not in $data" >&2; fi
done
args=("${rec[@]}")
if [ ${#det[@]} -gt 0 ]; then
  args+=(--det_labels "$(IFS=,; echo "${det[*]}")" --det_limit "$(IFS=,; echo "${lim[*]}")")
fi
[ ${#args[@]} -gt 0 ] || { echo "int8_table.sh: no data under $data" >&2; exit 1; }
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
"$bin" "${args[@]}" --rounds "${ROUNDS:-3}" --cpu_threads "${CPU_THREADS:-2}" --schemes "${SCHEMES:-auto}" \
  --int8_cache_dir "$cache"
