#!/usr/bin/env bash
# Compares settings of ocrforge_pipeline_bench in one run, alternating them
# every round (the order rotates) so all see the same machine load; prints
# each run's SUMMARY line and per setting the medians over the rounds.
#
#   bash bench/alternate.sh BUILD IMAGE_DIR ITERATIONS ROUNDS 'LABEL|ENV|FLAGS' ...
#
# ENV: space-separated VAR=value pairs put in front of the command (e.g.
# LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libmimalloc.so.2), FLAGS: extra
# pipeline_bench flags. Example (ORT session options, docs/benchmarks.md):
#   bash bench/alternate.sh build ../shared/data/det_toy/imgs 10 3 'default||' \
#     'no_spinning||--allow_spinning False' 'graph_basic||--graph_optimization basic'
set -euo pipefail
BUILD="$1" DIR="$2" ITER="$3" ROUNDS="$4"
shift 4
SPECS=("$@")
BENCH="$BUILD/ocrforge_pipeline_bench"
[[ -x "$BENCH" ]] || { echo "missing $BENCH: build the target ocrforge_pipeline_bench" >&2; exit 2; }
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2"; }

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
n=${#SPECS[@]}
for ((r = 0; r < ROUNDS; r++)); do
  for ((k = 0; k < n; k++)); do
    i=$(((k + r) % n))
    IFS='|' read -r label envs flags <<<"${SPECS[$i]}"
    # shellcheck disable=SC2086
    env $envs "$BENCH" --image_dir "$DIR" --iterations "$ITER" --warmup_runs 1 $flags >"$TMP/$i.$r.out" 2>&1 || {
      echo "run failed: $label" >&2; cat "$TMP/$i.$r.out" >&2; exit 1; }
    echo "round $((r + 1)) $label: $(grep '^SUMMARY' "$TMP/$i.$r.out")"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %12s %14s %12s %10s %10s %10s\n' setting mean_ms/img median_ms/img outside_ort rss10_MiB rssend_MiB peak_MiB
for ((i = 0; i < n; i++)); do
  IFS='|' read -r label _ _ <<<"${SPECS[$i]}"
  declare -a a=() b=() c=() d=() e=() f=()
  for ((r = 0; r < ROUNDS; r++)); do
    o="$TMP/$i.$r.out"
    a+=("$(field mean_ms "$o")"); b+=("$(field median_ms "$o")"); c+=("$(field outside_ort "$o")")
    d+=("$(field rss10 "$o")"); e+=("$(field rss_end "$o")"); f+=("$(field peak "$o")")
  done
  printf '%-16s %12s %14s %12s %10s %10s %10s\n' "$label" "$(median "${a[@]}")" "$(median "${b[@]}")" \
    "$(median "${c[@]}")" "$(median "${d[@]}")" "$(median "${e[@]}")" "$(median "${f[@]}")"
done
