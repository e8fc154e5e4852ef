#!/usr/bin/env bash
# Accuracy and time per page of `ocrforge ocr` (ch, the default, and --lang en)
# and Tesseract 5 (--psm 3 and --psm 11) on the pages held out from the en
# model's training (scripts/make_model_en.sh): the last 15 FUNSD forms and the
# last 50 SROIE receipts of the shared label files. docs/shipped-models.md has the
# figures.
#
#   bash bench/en_model_bench.sh [DATA_DIR] [BUILD] [ROUNDS]
#
# DATA_DIR: the shared data folder (default ../shared/data beside the checkout);
# BUILD: the build folder (default build); ROUNDS (default 2): timing rounds,
# the engines' order rotating every round (A B C D, B C D A, ...).
# Every run is a whole process over one set's pages (model loading included),
# with THREADS (default 2) cores: ocrforge --cpu_threads THREADS; Tesseract as
# THREADS processes, each over one consecutive part of the list (Debian's
# Tesseract uses one core per process). Accuracy is scored on the first
# round's outputs: bench/bow_f1.py (bag of words) and bench/line_match.py (line
# exact match). Extra ocrforge flags for both languages: OCR_FLAGS; engine enB is
# --lang en with OCR_FLAGS_B instead (e.g. OCR_FLAGS_B="--rec_lexicon none").
# SETS (default "funsd sroie"): the page sets to run; ENGINES (default "ch en
# tess3 tess11"). The case-sensitive bag-of-words F1 is printed too.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${1:-$REPO/../shared/data}
BUILD=${2:-$REPO/build}
ROUNDS=${3:-2}
THREADS=${THREADS:-2}
for d in sroie_train funsd_train; do
  [ -d "$DATA/$d" ] || { echo "en_model_bench: '$DATA/$d' is absent: pass the shared data folder" >&2; exit 1; }
done
command -v tesseract >/dev/null || { echo "en_model_bench: tesseract is not installed (scripts/bootstrap.sh installs it)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# held-out pages: the last lines of each detection label file (as make_model_en.sh)
prepare() {  # set n_held
  local set=$1 n=$2
  mkdir -p "$TMP/$set/imgs"
  tail -n "$n" "$DATA/${set}_train/det_gt.txt" > "$TMP/$set/gt.txt"
  cut -f1 "$TMP/$set/gt.txt" | while read -r p; do
    ln -s "$(realpath "$DATA/${set}_train/$p")" "$TMP/$set/imgs/$(basename "$p")"
  done
  find "$TMP/$set/imgs" -maxdepth 1 -type l | LC_ALL=C sort > "$TMP/$set/list"
}
prepare funsd 15
prepare sroie 50

run() {  # engine set out_prefix
  local e=$1 set=$2 out=$3 list=$TMP/$2/list
  case $e in
    ch|en)
      "$BUILD/ocrforge" ocr --lang "$e" --image_dir "$TMP/$set/imgs" --cpu_threads "$THREADS" --visualize false \
        --draw_img_save_dir "$out.d" ${OCR_FLAGS:-} > /dev/null 2> "$out.log" ;;
    enB)
      # shellcheck disable=SC2086
      "$BUILD/ocrforge" ocr --lang en --image_dir "$TMP/$set/imgs" --cpu_threads "$THREADS" --visualize false \
        --draw_img_save_dir "$out.d" ${OCR_FLAGS_B:-} > /dev/null 2> "$out.log" ;;
    tess3|tess11)
      local psm=${e#tess} n pids=() i
      n=$(wc -l < "$list")
      split -n "l/$THREADS" -d "$list" "$out.part."
      for part in "$out".part.*; do
        OMP_THREAD_LIMIT=1 tesseract "$part" "$part" --psm "$psm" > /dev/null 2>&1 & pids+=($!)
      done
      for p in "${pids[@]}"; do wait "$p"; done
      # parts joined as one multi-page output: pages separated by \f
      python3 - "$out.txt" "$out".part.*.txt <<'PY'
import sys
parts = [open(p, encoding="utf-8", errors="replace").read() for p in sorted(sys.argv[2:])]
open(sys.argv[1], "w", encoding="utf-8").write("\f".join(parts))
PY
      ;;
  esac
}

score() {  # engine set out_prefix
  local e=$1 set=$2 out=$3
  case $e in
    ch|en|enB) echo "$(python3 "$REPO/bench/bow_f1.py" "$TMP/$set/gt.txt" ocrforge "$out.d/system_results.txt") case-sensitive $(BOW_KEEP_CASE=1 python3 "$REPO/bench/bow_f1.py" "$TMP/$set/gt.txt" ocrforge "$out.d/system_results.txt" | grep -o 'f1=.*') $(python3 "$REPO/bench/line_match.py" "$TMP/$set/gt.txt" ocrforge "$out.d/system_results.txt")" ;;
    *) echo "$(python3 "$REPO/bench/bow_f1.py" "$TMP/$set/gt.txt" tesseract "$out.txt" "$TMP/$set/list") case-sensitive $(BOW_KEEP_CASE=1 python3 "$REPO/bench/bow_f1.py" "$TMP/$set/gt.txt" tesseract "$out.txt" "$TMP/$set/list" | grep -o 'f1=.*') $(python3 "$REPO/bench/line_match.py" "$TMP/$set/gt.txt" tesseract "$out.txt" "$TMP/$set/list")" ;;
  esac
}

read -r -a engines <<< "${ENGINES:-ch en tess3 tess11}"
echo "load before: $(uptime)"
for set in ${SETS:-funsd sroie}; do
  pages=$(wc -l < "$TMP/$set/list")
  for ((r = 0; r < ROUNDS; r++)); do
    for ((k = 0; k < ${#engines[@]}; k++)); do
      e=${engines[$(( (k + r) % ${#engines[@]} ))]}
      out=$TMP/$set.$e.r$r
      t0=$(date +%s.%N)
      run "$e" "$set" "$out"
      t1=$(date +%s.%N)
      echo "$set round $r $e: $(awk -v a="$t0" -v b="$t1" -v n="$pages" 'BEGIN { printf "%.3f s/page (%d pages)", (b - a) / n, n }')"
      [ "$r" -eq 0 ] && echo "$set $e accuracy: $(score "$e" "$set" "$out")"
    done
  done
done
echo "load after: $(uptime)"
