#!/usr/bin/env bash
# Runs the inference benchmarks of docs/benchmarks.md. Builds nothing:
#
#   cmake -S . -B build-bench -DOCRFORGE_BUILD_TESTS=OFF -DOCRFORGE_BUILD_BENCH=ON
#   cmake --build build-bench -j2 --target ocrforge ocrforge_pipeline_bench
#   bash bench/run_benchmarks.sh [build_dir]        # default: build-bench
#
# Environment: ITERATIONS (pipeline loop length, default 1000), ROUNDS
# (alternating CLI-vs-Tesseract rounds, default 3), THREADS (default 2).
# Steps:
#   1. ocrforge_pipeline_bench on tests/data/samples (per-stage times, share
#      outside ORT, RSS after 10 and ITERATIONS images);
#   2. the whole `ocrforge ocr` CLI vs `tesseract <list> - --psm 3` on the same
#      images, alternating, ROUNDS times; medians and the ratio;
#   3. the same on ../shared/data/det_toy/imgs when that folder exists.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD="${1:-build-bench}"
ITERATIONS="${ITERATIONS:-1000}"
ROUNDS="${ROUNDS:-3}"
THREADS="${THREADS:-2}"
OCRFORGE="$BUILD/ocrforge"
PIPE_BENCH="$BUILD/ocrforge_pipeline_bench"
for exe in "$OCRFORGE" "$PIPE_BENCH"; do
  [[ -x "$exe" ]] || { echo "missing $exe: build the targets ocrforge and ocrforge_pipeline_bench first" >&2; exit 2; }
done
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# median of the numbers given as arguments
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

# timed LABEL CMD...: runs CMD (stdout to $TMP/LABEL.out) and sets w, u, s, m to
# its wall, user and system seconds and its peak RSS in MiB.
timed() {
  local label="$1"; shift
  /usr/bin/time -f '%e %U %S %M' -o "$TMP/$label.time" "$@" >"$TMP/$label.out" 2>"$TMP/$label.err" || {
    echo "command failed: $*" >&2; cat "$TMP/$label.err" >&2; exit 1; }
  read -r w u s m <"$TMP/$label.time"
  m=$((m / 1024))
}

# compare NAME DIR: CLI vs Tesseract on the images of DIR, alternating ROUNDS times.
compare() {
  local name="$1" dir="$2"
  local list="$TMP/$name.list"
  find "$dir" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' -o -iname '*.bmp' \) \
    | LC_ALL=C sort >"$list"
  local n; n=$(wc -l <"$list")
  echo "== CLI vs Tesseract on $dir ($n images, $THREADS threads, $ROUNDS rounds) =="
  if ! command -v tesseract >/dev/null; then echo "tesseract not installed: peer skipped"; return; fi
  local of=() ts=() r w u s m
  printf '%-6s %-10s %8s %8s %8s %9s %6s\n' round tool wall_s user_s sys_s maxrss_MB lines
  for ((r = 1; r <= ROUNDS; r++)); do
    # --visualize False / --draw_img_save_dir: print text only, like tesseract, and keep the repo clean.
    timed "$name.ocrforge" "$OCRFORGE" ocr --image_dir "$dir" --cpu_threads "$THREADS" \
      --use_angle_cls true --visualize False --draw_img_save_dir "$TMP/out"
    of+=("$w"); printf '%-6s %-10s %8s %8s %8s %9s %6s\n' "$r" ocrforge "$w" "$u" "$s" "$m" "$(grep -c . "$TMP/$name.ocrforge.out")"
    OMP_THREAD_LIMIT="$THREADS" timed "$name.tesseract" tesseract "$list" - --psm 3
    ts+=("$w"); printf '%-6s %-10s %8s %8s %8s %9s %6s\n' "$r" tesseract "$w" "$u" "$s" "$m" "$(grep -c . "$TMP/$name.tesseract.out")"
  done
  local mo mt; mo=$(median "${of[@]}"); mt=$(median "${ts[@]}")
  awk -v o="$mo" -v t="$mt" -v n="$n" 'BEGIN {printf "median wall: ocrforge %.2f s (%.0f ms/image), tesseract %.2f s (%.0f ms/image), ratio ocrforge/tesseract = %.2f\n", o, 1000*o/n, t, 1000*t/n, o/t}'
}

echo "== machine =="
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; $(. /etc/os-release && echo "$PRETTY_NAME")"
command -v tesseract >/dev/null && tesseract --version 2>&1 | head -1
# Other processes skew every figure: note the load before and after.
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== pipeline bench on tests/data/samples =="
"$PIPE_BENCH" --image_dir tests/data/samples --iterations "$ITERATIONS" --cpu_threads "$THREADS"
echo
compare samples tests/data/samples
echo

EXTRA="$ROOT/../shared/data/det_toy/imgs"
if [[ -d "$EXTRA" ]]; then
  n=$(find "$EXTRA" -maxdepth 1 -type f | wc -l)
  echo "== pipeline bench on $EXTRA (one pass) =="
  "$PIPE_BENCH" --image_dir "$EXTRA" --iterations "$n" --cpu_threads "$THREADS"
  echo
  compare det_toy "$EXTRA"
else
  echo "(../shared/data/det_toy/imgs not found: extra data set skipped)"
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
