#!/usr/bin/env bash
# Data-parallel scaling on one machine: samples/s of `ocrforge train` with
# 1 worker x T threads against `ocrforge launch --nproc_per_node=T` with
# T workers x 1 thread, same global batch (B = 1 x B = T x B/T), same crops,
# alternating, ROUNDS rounds each; prints medians and the efficiency
# (distributed / single). docs/distributed.md quotes the figures.
#
#   bench/dist_scaling/run.sh                         # T=2 B=32 W=3 N=12 ROUNDS=3
#   BIN=build-dist/ocrforge CONFIG=configs/rec/en_CRNN_mobilenetv3_rec.yml bench/dist_scaling/run.sh
#
# Env: T (threads = workers), B (global batch), W warm-up steps, N timed steps, ROUNDS,
# CONFIG (default configs/rec/en_PP-OCRv3_mobile_rec.yml, RecAug removed so the loader
# thread does not compete for the cores), BIN (default build/ocrforge), DATA
# (ic15_rec_train folder), OUT (logs), PORT (rendezvous port, default 29650),
# LOAD_MAX / LOAD_WAIT_S: before each measurement wait until the 1-min load average is
# < LOAD_MAX (default 1.0) for at most LOAD_WAIT_S (default 600 s, the first; 120 s later).
# Each round also prints the CPU pressure during each run (see psi below). Other
# processes hurt 1 x T threads far more than T x 1 (a descheduled OpenMP thread stalls
# every parallel region): on a busy machine we saw 0.7-2 samples/s against 10.
#
# Method: rank 0's PaddleOCR-style log with log_smooth_window=1, print_batch_step=1
# (one line per step); for the steps after W, samples/s = B / mean(avg_batch_cost).
# Under `launch`, rank 0's step time includes waiting for the other worker in the
# gradient all-reduce, so it is the global step time. The label file is cut to
# (W + N) * B lines so that one epoch is exactly W + N steps for both.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
T="${T:-2}" B="${B:-32}" W="${W:-3}" N="${N:-12}" ROUNDS="${ROUNDS:-3}"
CONFIG="${CONFIG:-$REPO/configs/rec/en_PP-OCRv3_mobile_rec.yml}"
BIN="${BIN:-$REPO/build/ocrforge}"
DATA="$(cd "${DATA:-$REPO/../shared/data/ic15_rec_train}" && pwd)"
OUT="${OUT:-/tmp/ocrforge_dist_scaling}"
PORT="${PORT:-29650}"
LOAD_MAX="${LOAD_MAX:-1.0}" LOAD_WAIT_S="${LOAD_WAIT_S:-600}"
rm -rf "$OUT" && mkdir -p "$OUT"
cp "$BIN" "$OUT/ocrforge"  # a rebuild by someone else cannot change it mid-run
head -n $(( (W + N) * B )) "$DATA/rec_gt_train.txt" > "$OUT/labels.txt"
sed '/- RecAug:/d' "$CONFIG" > "$OUT/cfg.yml"
COMMON=(Global.epoch_num=1 Global.log_smooth_window=1 Global.print_batch_step=1
        "Global.eval_batch_step=[0, 1000000]" Global.save_epoch_step=1000
        Global.character_dict_path="$REPO/configs/dicts/en_dict.txt"
        Train.dataset.data_dir="$DATA" "Train.dataset.label_file_list=[$OUT/labels.txt]"
        Eval.dataset.data_dir="$DATA" "Eval.dataset.label_file_list=[$OUT/labels.txt]"
        Train.loader.num_workers=1 Train.loader.drop_last=true)

wait_quiet() {  # $1: at most this many seconds
  local waited=0
  while awk -v m="$LOAD_MAX" '{exit !($1 >= m)}' /proc/loadavg && (( waited < $1 )); do sleep 10; waited=$((waited + 10)); done
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after waiting ${waited} s"
}

# Share of the run's wall time in which some task waited for a CPU
# (/proc/pressure/cpu): a few % is our own loader thread; much more means
# other processes competed and the round is suspect.
psi() { awk '/^some/ {sub("total=", "", $5); print $5}' /proc/pressure/cpu 2>/dev/null || echo 0; }
timed() {  # runs "$@", sets STALL (percent)
  local p0 t0 p1 t1
  p0=$(psi) t0=$(date +%s.%N)
  "$@"
  p1=$(psi) t1=$(date +%s.%N)
  STALL=$(awk -v a="$p0" -v b="$p1" -v s="$t0" -v e="$t1" 'BEGIN {printf "%.0f", (b - a) / ((e - s) * 1e4)}')
}

# samples/s from a train.log: B / mean(avg_batch_cost) over steps > W.
rate() {
  awk -v w="$W" -v b="$B" '/global_step:/ {
      match($0, /global_step: [0-9]+/); g = substr($0, RSTART + 13, RLENGTH - 13) + 0
      match($0, /avg_batch_cost: [0-9.]+/); c = substr($0, RSTART + 16, RLENGTH - 16) + 0
      if (g > w) { s += c; n++ } }
    END { if (n == 0) { print "nan"; exit } printf "%.3f", b / (s / n) }' "$1"
}

declare -a SINGLE DIST
first=1
for r in $(seq 1 "$ROUNDS"); do
  wait_quiet $([[ $first == 1 ]] && echo "$LOAD_WAIT_S" || echo 120); first=0
  timed "$OUT/ocrforge" train -c "$OUT/cfg.yml" -o "${COMMON[@]}" Global.num_threads="$T" \
      Train.loader.batch_size_per_card="$B" Global.save_model_dir="$OUT/single_$r" > "$OUT/single_$r.txt" 2>&1
  SINGLE+=("$(rate "$OUT/single_$r/train.log")") stall_single=$STALL
  wait_quiet 120
  timed "$OUT/ocrforge" launch --nproc_per_node="$T" --master_port="$PORT" --log_dir="$OUT/dist_${r}_log" \
      train -c "$OUT/cfg.yml" -o "${COMMON[@]}" Global.num_threads=1 \
      Train.loader.batch_size_per_card=$(( B / T )) Global.save_model_dir="$OUT/dist_$r" > "$OUT/dist_$r.txt" 2>&1
  DIST+=("$(rate "$OUT/dist_$r/train.log")")
  echo "round $r: 1 worker x $T threads ${SINGLE[-1]} samples/s (CPU pressure ${stall_single}%)," \
       "$T workers x 1 thread ${DIST[-1]} samples/s (CPU pressure ${STALL}%)"
  # rank 0's time inside collectives (all-reduce of gradients and loss, stop flag)
  grep -ho 'communication: .*' "$OUT/dist_$r/train.log" | sed 's/^/  /' || true
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
ms="$(median "${SINGLE[@]}")" md="$(median "${DIST[@]}")"
echo "config $(basename "$CONFIG") (RecAug removed), global batch $B, $N timed steps after $W, $ROUNDS rounds, $(nproc) cores"
echo "median: 1 worker x $T threads $ms samples/s; $T workers x 1 thread $md samples/s; efficiency $(awk -v a="$md" -v b="$ms" 'BEGIN {printf "%.1f%%", 100 * a / b}')"
