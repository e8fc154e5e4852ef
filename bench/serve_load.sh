#!/usr/bin/env bash
# `ocrforge serve` under load, on loopback, against `ocrforge ocr` on the
# same images (docs/serve.md, "Load"). Builds nothing:
#
#   cmake --build build -j2 --target ocrforge ocrforge_serve_load
#   bash bench/serve_load.sh [build_dir]
#
# Environment:
#   IMAGES        image folder (default ../shared/data/det_toy/imgs when present, else tests/data/samples)
#   LEVELS        client concurrencies (default 1,2,4,16)
#   REQUESTS      requests per level (default 4 x the images)
#   SERVER_FLAGS  extra `ocrforge serve` flags (e.g. "--max_concurrency 2")
#   COPIES        times each image is read in the comparison (default 4)
#   ROUNDS        comparison rounds, each server, ocr, ocr, server (default 2)
#   SOAK          soak requests at the best concurrency (default 5000; 0: none)
#   SOAK_IMAGES   images for the soak (default IMAGES)
# Steps: 1. requests/s, p50/p95/p99, errors, server RSS per level;
# 2. throughput at the best level vs `ocrforge ocr` over the same images,
# COPIES times each, alternating server, ocr, ocr, server, ROUNDS times
# (medians); 3. the soak:
# 0 errors expected, server RSS sampled every 250 requests; 4. SIGTERM, exit 0.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD="${1:-build}"
OCRFORGE="$BUILD/ocrforge"
LOAD="$BUILD/ocrforge_serve_load"
for exe in "$OCRFORGE" "$LOAD"; do
  [[ -x "$exe" ]] || { echo "missing $exe: build the targets ocrforge and ocrforge_serve_load first" >&2; exit 2; }
done
if [[ -z "${IMAGES:-}" ]]; then
  IMAGES=tests/data/samples
  [[ -d ../shared/data/det_toy/imgs ]] && IMAGES=../shared/data/det_toy/imgs
fi
LEVELS="${LEVELS:-1,2,4,16}"
COPIES="${COPIES:-4}"
ROUNDS="${ROUNDS:-2}"
SOAK="${SOAK:-5000}"
SOAK_IMAGES="${SOAK_IMAGES:-$IMAGES}"
SERVER_FLAGS="${SERVER_FLAGS:-}"
n_images=$(find "$IMAGES" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | wc -l)
REQUESTS="${REQUESTS:-$((4 * n_images))}"
TMP="$(mktemp -d)"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "images: $IMAGES ($n_images); server flags: ${SERVER_FLAGS:-(defaults)}"
# shellcheck disable=SC2086
"$OCRFORGE" serve --port "$PORT" --access_log '' --queue_size 64 $SERVER_FLAGS 2>"$TMP/server.err" &
server_pid=$!
for _ in $(seq 600); do
  curl -sf "$URL/ready" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$TMP/server.err" >&2; exit 1; }
  sleep 0.1
done

echo
echo "== 1. levels ($REQUESTS requests each, /v1/ocr)"
"$LOAD" --url "$URL" --images "$IMAGES" --concurrency "$LEVELS" --requests "$REQUESTS" | tee "$TMP/levels.txt"
best=$(grep '^LOAD' "$TMP/levels.txt" | sed 's/.*concurrency=\([0-9]*\).*req_per_s=\([0-9.]*\).*/\2 \1/' | sort -g | tail -1 | cut -d' ' -f2)
echo "best concurrency: $best"

echo
echo "== 2. server at concurrency $best vs ocrforge ocr, $COPIES x $n_images images each, alternating"
mkdir -p "$TMP/copies"
for f in "$IMAGES"/*; do
  for c in $(seq "$COPIES"); do ln -s "$(realpath "$f")" "$TMP/copies/${c}_$(basename "$f")"; done
done
total=$((COPIES * n_images))
server_run() {
  "$LOAD" --url "$URL" --images "$IMAGES" --concurrency "$best" --requests "$total" | grep '^LOAD' |
    sed 's/.*req_per_s=\([0-9.]*\).*/\1/'
}
ocr_run() {
  "$OCRFORGE" ocr --image_dir "$TMP/copies" --visualize False --draw_img_save_dir "$TMP/ocr_out" >/dev/null 2>"$TMP/ocr.err"
  local line s
  line=$(grep ' images, ' "$TMP/ocr.err" | tail -1)
  s=$(echo "$line" | sed 's/.* failed, \([0-9.]*\) s;.*/\1/')
  python3 -c "print(round($total / $s, 3))"
}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
a=() b=()
for ((r = 1; r <= ROUNDS; r++)); do
  a+=("$(server_run)"); b+=("$(ocr_run)"); b+=("$(ocr_run)"); a+=("$(server_run)")
  echo "round $r: server req/s ${a[-2]} ${a[-1]}   ocrforge ocr images/s ${b[-2]} ${b[-1]}   load $(cut -d' ' -f1 /proc/loadavg)"
done
ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
python3 -c "print('median: server %.3f req/s, ocrforge ocr %.3f images/s: server / ocr = %.3f' % ($ma, $mb, $ma / $mb))"

if [[ "$SOAK" -gt 0 ]]; then
  echo
  echo "== 3. soak: $SOAK requests at concurrency $best ($SOAK_IMAGES)"
  "$LOAD" --url "$URL" --images "$SOAK_IMAGES" --concurrency "$best" --soak "$SOAK" | tee "$TMP/soak.txt" |
    grep -v '^SOAK' || true
  grep '^SOAK' "$TMP/soak.txt" | sort -t= -k2 -g | awk -F'[= ]' '
    { rss[NR] = $5; req[NR] = $3 }
    END {
      w = 0; for (i = 1; i <= NR; i++) if (req[i] >= 500 && w == 0) w = i;
      if (w == 0) w = 1;
      printf "server RSS: %.1f MiB at start, %.1f MiB after warm-up (%d requests), %.1f MiB at the end (%d): %+.2f %% after warm-up\n",
             rss[1], rss[w], req[w], rss[NR], req[NR], 100 * (rss[NR] - rss[w]) / rss[w]
    }'
  echo "server RSS (MiB) by requests done: $(grep '^SOAK' "$TMP/soak.txt" | sort -t= -k2 -g |
    awk -F'[= ]' '$3 % 1000 == 0 { printf "%d: %.1f  ", $3, $5 }')"
fi

echo
kill -TERM "$server_pid"
if wait "$server_pid"; then echo "== 4. SIGTERM: the server exited 0"; else echo "== 4. SIGTERM: the server exited $?"; fi
server_pid=""
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
