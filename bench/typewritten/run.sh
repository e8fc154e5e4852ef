#!/usr/bin/env bash
# Typewritten pages (issue 51): accuracy and time per page of `ocrforge ocr
# --lang en` and Tesseract 5 (--psm 3) on synthetic 1930s-1950s typewritten
# letters, memoranda and reports (make_pages.py), in the style of
# bench/en_model_bench.sh: whole processes (model loading included), THREADS
# cores each, the engines' order rotating every round, accuracy from round 0.
#
#   bash bench/typewritten/run.sh BUILD_DIR [ROUNDS]
#
# ROUNDS (default 1). Environment: OUT (keep pages and outputs there; default a
# temp folder, removed), PAGES (12), SEED (1), STRENGTH (1.0; make_pages.py
# --strength), THREADS (2), OCR_FLAGS (extra flags of ocrforge A), OCR_FLAGS_B
# (when set, a second ocrforge run "enB" with these flags instead).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:?usage: run.sh BUILD_DIR [ROUNDS]}" && pwd)
ROUNDS=${2:-1}
THREADS=${THREADS:-2}
PY=/usr/bin/python3  # Debian's: make_pages.py needs python3-pil and python3-numpy
[ -x "$BUILD/ocrforge" ] || { echo "typewritten: $BUILD/ocrforge not found" >&2; exit 1; }
command -v tesseract >/dev/null || { echo "typewritten: tesseract is not installed (scripts/bootstrap.sh installs it)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
OUT=${OUT:-$TMP}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

"$PY" "$REPO/bench/typewritten/make_pages.py" "$OUT/pages" --pages "${PAGES:-12}" --seed "${SEED:-1}" \
  --strength "${STRENGTH:-1.0}" > "$OUT/make_pages.log"
GT=$OUT/pages/det_gt.txt
find "$OUT/pages/imgs" -maxdepth 1 -name '*.jpg' | LC_ALL=C sort > "$OUT/list"
pages=$(wc -l < "$OUT/list")

run() {  # engine out_prefix
  local e=$1 out=$2 flags=${OCR_FLAGS:-}
  case $e in
    en|enB)
      [ "$e" = enB ] && flags=$OCR_FLAGS_B
      # shellcheck disable=SC2086
      "$BUILD/ocrforge" ocr --lang en --image_dir "$OUT/pages/imgs" --cpu_threads "$THREADS" --visualize false \
        --draw_img_save_dir "$out.d" $flags > /dev/null 2> "$out.log" ;;
    tess3)
      # Debian's Tesseract uses one core a process: THREADS processes over consecutive parts of the list
      local pids=() part
      split -n "l/$THREADS" -d "$OUT/list" "$out.part."
      for part in "$out".part.??; do
        OMP_THREAD_LIMIT=1 tesseract "$part" "$part" --psm 3 > /dev/null 2>&1 & pids+=($!)
      done
      for p in "${pids[@]}"; do wait "$p"; done
      # one multi-page output, pages separated by \f (as bow_f1.py reads it)
      local first=1
      for part in "$out".part.??.txt; do
        [ $first -eq 1 ] || printf '\f'; first=0; cat "$part"
      done > "$out.txt" ;;
  esac
}

score() {  # engine out_prefix: bag-of-words F1 (case-blind, then case-sensitive) and line exact match
  local s
  for s in bow_f1 bow_f1_case line_match; do
    local keep=0 py=$s
    [ "$s" = bow_f1_case ] && keep=1 py=bow_f1 && echo -n "case-sensitive "
    case $1 in
      en|enB) BOW_KEEP_CASE=$keep "$PY" "$REPO/bench/$py.py" "$GT" ocrforge "$2.d/system_results.txt" ;;
      *) BOW_KEEP_CASE=$keep "$PY" "$REPO/bench/$py.py" "$GT" tesseract "$2.txt" "$OUT/list" ;;
    esac
  done | paste -sd' '
}

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

engines=(en tess3)
[ -n "${OCR_FLAGS_B:-}" ] && engines=(en enB tess3)
declare -A times acc
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$OUT/make_pages.log"
echo "$pages pages in $OUT/pages"
for ((r = 0; r < ROUNDS; r++)); do
  for ((k = 0; k < ${#engines[@]}; k++)); do
    e=${engines[$(( (k + r) % ${#engines[@]} ))]}
    out=$OUT/$e.r$r
    t0=$(date +%s.%N)
    run "$e" "$out"
    t1=$(date +%s.%N)
    t=$(awk -v a="$t0" -v b="$t1" -v n="$pages" 'BEGIN { printf "%.3f", (b - a) / n }')
    times[$e]="${times[$e]:-} $t"
    echo "round $r $e: $t s/page"
    [ "$r" -eq 0 ] && acc[$e]=$(score "$e" "$out")
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for e in "${engines[@]}"; do
  # shellcheck disable=SC2086
  echo "$e: $(median ${times[$e]}) s/page (median of $ROUNDS)  ${acc[$e]}"
done
