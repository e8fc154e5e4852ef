#!/usr/bin/env bash
# `make fuzz`: builds the fuzz targets of tests/fuzz with clang for libFuzzer
# and AddressSanitizer (the libraries they read with are instrumented too:
# coverage guides the search), then runs each for FUZZ_SECONDS from its seed
# corpus. New inputs that reached new code go to build-fuzz/corpus/<target>
# (kept between runs); a finding stops that target and leaves its input as
# build-fuzz/findings/<target>/crash-* (replay: build-fuzz/tests/fuzz/fuzz_<target> FILE).
# Prints one line per target: executions, corpus size, findings.
#   FUZZ_SECONDS  seconds per target (default 300)
#   TARGETS       targets to run (default: all)
#   FUZZ_BUILD    build folder (default build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${FUZZ_SECONDS:-300}"
B="${FUZZ_BUILD:-build-fuzz}"
ALL="request_json image_decode pdf_document tiff_pages pdparams yaml_config label_lines"
TARGETS="${TARGETS:-$ALL}"
# clang (with libFuzzer's runtime) only for this target, not for every machine's bootstrap.
if ! command -v clang++ >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -q clang >/dev/null
  else
    echo "fuzz: clang is missing: sudo apt-get install clang" >&2
    exit 1
  fi
fi
if [ ! -f "$B/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOCRFORGE_LIBFUZZER=ON \
    -DOCRFORGE_WITH_TRAIN=OFF -DOCRFORGE_BUILD_PYTHON=OFF -DOCRFORGE_BUILD_BENCH=OFF \
    -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address" -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" >/dev/null
fi
cmake --build "$B" -j"$(nproc)" --target $(for t in $TARGETS; do echo "fuzz_$t"; done) >/dev/null
status=0
for t in $TARGETS; do
  corpus="$B/corpus/$t" findings="$B/findings/$t"
  mkdir -p "$corpus" "$findings"
  log="$B/findings/$t.log"
  # -rss_limit_mb: an input that makes a reader allocate past it is a finding;
  # -timeout: one input running longer is a hang.
  if "$B/tests/fuzz/fuzz_$t" "$corpus" "tests/fuzz/corpus/$t" -max_total_time="$SECONDS_EACH" \
      -rss_limit_mb=3072 -malloc_limit_mb=2048 -timeout=20 -max_len=1048576 -seed=1 \
      -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1; then
    result="no finding"
  else
    result="FINDING: $(ls -t "$findings" | head -1) (see $log)"
    status=1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "fuzz $t: $execs executions in ${SECONDS_EACH} s, corpus $(ls "$corpus" | wc -l) inputs; $result"
done
exit $status
