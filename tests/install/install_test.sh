#!/usr/bin/env bash
# Installs the build into a temporary prefix, builds tests/install/consumer
# against it with find_package(ocrforge), and checks that both the installed
# binary (default models from <prefix>/share) and the consumer read the sign.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
env -u OCRFORGE_MODEL_DIR "$tmp/prefix/bin/ocrforge" ocr --cpu_threads 2 --visualize=False \
  --image_dir "$src/tests/data/samples/imgs_ger_1.jpg" --draw_img_save_dir "$tmp/out" > "$tmp/bin.txt"
grep -q "^EPPING" "$tmp/bin.txt" || { echo "installed binary did not read EPPING:"; cat "$tmp/bin.txt"; exit 1; }
cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" -j2 >/dev/null
"$tmp/consumer/consumer" "$tmp/prefix/share/ocrforge/models/PP-OCRv4" "$src/tests/data/samples/imgs_ger_1.jpg" > "$tmp/out.txt"
grep -q "^EPPING$" "$tmp/out.txt" || { echo "consumer output:"; cat "$tmp/out.txt"; exit 1; }
echo "install + find_package consumer: OK"
