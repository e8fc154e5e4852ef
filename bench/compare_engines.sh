#!/usr/bin/env bash
# Whole-run wall time and bag-of-words accuracy of ocrforge (this build),
# the previous release's pipeline and Tesseract 5 on the same images,
# alternating the engines every round (the order rotates).
#
#   bash bench/compare_engines.sh BUILD PREV_BUILD IMAGE_DIR GT_DET_LABELS ROUNDS [LIMIT]
#
# BUILD / PREV_BUILD hold ocrforge_pipeline_bench (PREV_BUILD: "" to skip);
# both runs are whole processes: model loading + decoding + OCR of every
# image once (--warmup_runs 0), no output files except the results for the
# accuracy check. Tesseract: `tesseract LIST OUT --psm 3`, OMP_THREAD_LIMIT =
# the cores (a build without OpenMP, as Debian's, still uses one core: see
# TESS_JOBS). LIMIT: only the first LIMIT images (sorted by name).
# Accuracy: bench/bow_f1.py against the transcriptions in GT_DET_LABELS.
# OCRFORGE_FLAGS: extra ocrforge_pipeline_bench flags for this build's runs.
# Two more engines join when asked:
#   ONE_CROP=1      this build with --rec_batch_num 1 --rec_workers 1: one ORT
#                   Run per crop at its own width, one after the other (the
#                   plain one-crop-at-a-time loop);
#   RAPIDOCR=PROG   a RapidOcrOnnx driver built outside this repository (never
#                   committed), run as `PROG MODELS_DIR LIST OUT.res THREADS ANGLE`: it
#                   loads the models once, reads every image of LIST with
#                   RapidOcrOnnx's defaults and writes system_results.txt lines;
#                   RAPIDOCR_MODELS names its model folder (file names as
#                   RapidOcrOnnx expects them: docs/benchmarks.md).
#   CLI=1           this build's `ocrforge ocr --image_dir DIR --visualize false`,
#                   the command users run (pipelined over the folder: decoding,
#                   detection and recognition of different images overlap),
#                   its system_results.txt scored like the others;
#   TESS_JOBS=N     also Tesseract as N processes at once, each over one
#                   consecutive part of the list (engine tesseract_jobs):
#                   Debian's Tesseract 5.3 is built without OpenMP, so one
#                   process uses one core whatever OMP_THREAD_LIMIT says; N
#                   processes are how a user fills N cores. Its peak RSS is
#                   the largest one process's (each holds its own models).
# USE_ANGLE_CLS=false turns the direction classifier off in every engine that
# has one (default true, the pipeline bench's default). RapidOcrOnnx's own
# angle rule (mostAngle: turn every crop when most look upside down) read
# scene crops upside down here, so compare with it off on such images.
set -euo pipefail
BUILD="$1" PREV="$2" DIR="$3" GT="$4" ROUNDS="$5" LIMIT="${6:-0}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/imgs"
find "$DIR" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.png' \) | LC_ALL=C sort >"$TMP/all.list"
if [[ "$LIMIT" -gt 0 ]]; then head -n "$LIMIT" "$TMP/all.list" >"$TMP/list"; else cp "$TMP/all.list" "$TMP/list"; fi
while read -r f; do ln -s "$(realpath "$f")" "$TMP/imgs/$(basename "$f")"; done <"$TMP/list"
N=$(wc -l <"$TMP/list")
CORES=$(nproc)
ANGLE="${USE_ANGLE_CLS:-true}"
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

engines=(ocrforge)
[[ -n "$PREV" ]] && engines+=(previous)
[[ -n "${CLI:-}" ]] && engines+=(ocr_cli)
[[ -n "${ONE_CROP:-}" ]] && engines+=(one_crop)
[[ -n "${RAPIDOCR:-}" ]] && engines+=(rapidocr)
engines+=(tesseract)
if [[ -n "${TESS_JOBS:-}" ]]; then
  [[ "$TESS_JOBS" -ge 2 && "$N" -ge "$TESS_JOBS" ]] ||
    { echo "TESS_JOBS=$TESS_JOBS: give 2 or more processes, at most one per image ($N)" >&2; exit 2; }
  # Consecutive parts of equal line counts, in order (none empty).
  split -l "$(((N + TESS_JOBS - 1) / TESS_JOBS))" -d -a 3 "$TMP/list" "$TMP/list.part"
  engines+=(tesseract_jobs)
fi
declare -A walls
run_engine() {
  local e="$1" out="$TMP/$1"
  case "$e" in
    ocrforge) /usr/bin/time -f '%e %M' -o "$out.time" "$BUILD/ocrforge_pipeline_bench" --image_dir "$TMP/imgs" \
                --iterations "$N" --warmup_runs 0 --use_angle_cls="$ANGLE" --save_results "$out.res" ${OCRFORGE_FLAGS:-} \
                >"$out.log" 2>&1 ;;
    ocr_cli) rm -rf "$out.dir"
             /usr/bin/time -f '%e %M' -o "$out.time" "$BUILD/ocrforge" ocr --image_dir "$TMP/imgs" --visualize false \
                --use_angle_cls="$ANGLE" --draw_img_save_dir "$out.dir" ${OCRFORGE_FLAGS:-} >"$out.log" 2>&1 &&
               cp "$out.dir/system_results.txt" "$out.res" ;;
    one_crop) /usr/bin/time -f '%e %M' -o "$out.time" "$BUILD/ocrforge_pipeline_bench" --image_dir "$TMP/imgs" \
                --iterations "$N" --warmup_runs 0 --use_angle_cls="$ANGLE" --save_results "$out.res" ${OCRFORGE_FLAGS:-} --rec_batch_num 1 --rec_workers 1 \
                >"$out.log" 2>&1 ;;
    rapidocr) /usr/bin/time -f '%e %M' -o "$out.time" "$RAPIDOCR" "${RAPIDOCR_MODELS:?RAPIDOCR_MODELS not set}" \
                "$TMP/list" "$out.res" "$CORES" "$([[ "$ANGLE" == true ]] && echo 1 || echo 0)" >"$out.log" 2>&1 ;;
    previous) /usr/bin/time -f '%e %M' -o "$out.time" "$PREV/ocrforge_pipeline_bench" --image_dir "$TMP/imgs" \
                --iterations "$N" --warmup_runs 0 --use_angle_cls="$ANGLE" --save_results "$out.res" >"$out.log" 2>&1 ;;
    tesseract) OMP_THREAD_LIMIT="$CORES" /usr/bin/time -f '%e %M' -o "$out.time" tesseract "$TMP/list" "$out" \
                --psm 3 >"$out.log" 2>&1 ;;
    tesseract_jobs)
      /usr/bin/time -f '%e %M' -o "$out.time" bash -c '
        pids=()
        for part in "$1".part*; do
          OMP_THREAD_LIMIT=1 tesseract "$part" "$2.${part##*.}" --psm 3 >"$2.${part##*.}.log" 2>&1 & pids+=($!)
        done
        rc=0; for p in "${pids[@]}"; do wait "$p" || rc=1; done; exit "$rc"' _ "$TMP/list" "$out" &&
        for part in "$TMP"/list.part*; do  # pages are separated (not ended) by \f
          [[ "$part" == "$TMP/list.part000" ]] || printf '\f'; cat "$out.${part##*.}.txt"
        done >"$out.txt" ;;
  esac
}
echo "== $N images of $DIR, $ROUNDS rounds, direction classifier $ANGLE; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < ROUNDS; r++)); do
  for ((k = 0; k < ${#engines[@]}; k++)); do
    e=${engines[$(((k + r) % ${#engines[@]}))]}
    run_engine "$e" || { echo "$e failed:" >&2; cat "$TMP/$e.log" >&2; exit 1; }
    read -r w m <"$TMP/$e.time"
    walls[$e]="${walls[$e]:-} $w"
    echo "round $((r + 1)) $e: wall ${w} s, peak RSS $((m / 1024)) MiB"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %12s %14s  %s\n' engine median_wall_s ms_per_image accuracy
for e in "${engines[@]}"; do
  # shellcheck disable=SC2086
  m=$(median ${walls[$e]})
  # tesseract_jobs' parts are the list's consecutive parts, in order.
  if [[ "$e" == tesseract || "$e" == tesseract_jobs ]]; then acc=$(python3 "$HERE/bow_f1.py" "$GT" tesseract "$TMP/$e.txt" "$TMP/list")
  else acc=$(python3 "$HERE/bow_f1.py" "$GT" ocrforge "$TMP/$e.res"); fi
  printf '%-10s %12s %14s  %s\n' "$e" "$m" "$(awk -v m="$m" -v n="$N" 'BEGIN{printf "%.0f", 1000*m/n}')" "$acc"
done
