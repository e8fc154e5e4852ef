#!/usr/bin/env bash
# Installs the build into a temporary prefix and checks that the installed
# package finds its own default models with no environment variable:
#  - the installed binary reads the sign (models from <prefix>/share);
#  - a program built against the prefix with find_package(ocrforge)
#    (tests/install/consumer), then moved OUTSIDE the prefix (so nothing is
#    found relative to the executable) and run from a folder with no
#    ./models, reads the sign with default_ocr_params() and with every model
#    set of available_langs() (ch, en), each from <prefix>/share/ocrforge/models;
#  - with the installed models gone, it fails naming every folder searched.
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2")
img="$src/tests/data/samples/imgs_ger_1.jpg"  # a sign: EPPING / Twinned with / Eppingen, Germany
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(realpath "$tmp")
prefix="$tmp/prefix" models="$tmp/prefix/share/ocrforge/models"
fail() { echo "FAIL: $1"; shift; for f in "$@"; do echo "--- $f:"; cat "$f"; done; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in PP-OCRv4/det/inference.onnx PP-OCRv4/cls/inference.onnx PP-OCRv4/rec/inference.onnx \
         PP-OCRv4/ppocr_keys_v1.txt en/rec/inference.onnx en/rec/inference.yml; do
  [ -f "$models/$f" ] || fail "the install lacks share/ocrforge/models/$f"
done
[ -d "$prefix/share/ocrforge/int8_calibration/det" ] || fail "the install lacks share/ocrforge/int8_calibration"

mkdir -p "$tmp/work" "$tmp/app/bin"
cd "$tmp/work"  # no ./models here
env -u OCRFORGE_MODEL_DIR "$prefix/bin/ocrforge" ocr --cpu_threads 2 --visualize=False \
  --image_dir "$img" --draw_img_save_dir "$tmp/out" > "$tmp/bin.txt" 2> "$tmp/bin.err" ||
  fail "the installed binary failed" "$tmp/bin.err"
grep -q "^EPPING" "$tmp/bin.txt" || fail "the installed binary did not read EPPING" "$tmp/bin.txt"

cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON >/dev/null
cmake --build "$tmp/consumer" -j2 >/dev/null
app="$tmp/app/bin/myapp"  # outside the prefix: <bin>/../share holds nothing
cp "$tmp/consumer/consumer" "$app"
rm -rf "$tmp/consumer"

langs=$(env -u OCRFORGE_MODEL_DIR "$app" --langs)
[[ " $(echo $langs) " == *" en "* ]] || fail "available_langs() lacks en: $langs"
for set in default $langs; do
  out="$tmp/$set.txt" err="$tmp/$set.err"
  env -u OCRFORGE_MODEL_DIR "$app" "$img" "$set" > "$out" 2> "$err" || fail "consumer ($set) failed" "$err"
  grep -q "^EPPING$" "$out" || fail "consumer ($set) did not read EPPING" "$out" "$err"
  want_rec="$models/PP-OCRv4/rec"
  [ "$set" = en ] && want_rec="$models/en/rec"
  grep -qxF "det_model_dir: $models/PP-OCRv4/det" "$out" || fail "consumer ($set): det not from the prefix" "$out"
  grep -qxF "rec_model_dir: $want_rec" "$out" || fail "consumer ($set): rec not from $want_rec" "$out"
done

mv "$models" "$models.off"
if env -u OCRFORGE_MODEL_DIR "$app" "$img" ch > "$tmp/none.txt" 2> "$tmp/none.err"; then
  fail "consumer read without models" "$tmp/none.txt"
fi
for place in '$OCRFORGE_MODEL_DIR' "$tmp/app/models/PP-OCRv4" "$tmp/app/share/ocrforge/models/PP-OCRv4" \
             "$models/PP-OCRv4" "$tmp/work/models/PP-OCRv4"; do
  grep -qF "$place" "$tmp/none.err" || fail "the no-models error does not name $place" "$tmp/none.err"
done
echo "install + find_package consumer (outside the prefix, default/$(echo $langs | tr ' ' '/')): OK"
