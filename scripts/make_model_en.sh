#!/usr/bin/env bash
# Makes the English/Latin document recognizer (models/en/rec) from the shipped
# PP-OCRv4 recognizer with ocrforge's own commands (docs/shipped-models.md):
#   1. data: line crops of the SROIE receipts and FUNSD forms (`data crop`),
#      synthetic document lines (`synth rec`), ICDAR 2015 word crops so that
#      scene text is not forgotten; the held-out pages are never cropped for
#      training (the last 50 receipts and the last 15 forms of the label files);
#   2. fine-tune (`train`, configs/rec/en_PP-OCRv4_doc_rec_finetune.yml);
#   3. export to ONNX (`export`), with inference.yml;
#   4. the word list of dictionary-aware decoding (`words`: Debian's wamerican
#      list as it is, and its copyright notice; ocrforge ocr --rec_lexicon).
#
# usage: scripts/make_model_en.sh [DATA_DIR] [WORK_DIR]
#   DATA_DIR  the shared data folder (sroie_train/, funsd_train/, ic15_rec_train/);
#             default ../shared/data beside the checkout
#   WORK_DIR  crops, checkpoints and the export; default ./output/model_en
# environment:
#   STEPS (600) training steps of BATCH (16) lines; THREADS (2) LibTorch threads;
#   MIX ("45 30 15 10") percent of receipt, form, synthetic and scene lines a pass;
#   STAGE (all)  data | train | export | words | all;  BUILD (build) the build folder;
#   OCRFORGE_TRAIN ($BUILD/ocrforge) the binary that runs train / export.
# The export lands in WORK_DIR/inference (the word list in WORK_DIR); copying them to
# models/en/rec and models/en and updating models/en/SHA256SUMS is a separate,
# deliberate step (docs/shipped-models.md).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$repo/../shared/data}
work=${2:-$repo/output/model_en}
# absolute paths, then run from the checkout (the config's model paths are relative to it)
[ -d "$data" ] && data=$(cd "$data" && pwd)
mkdir -p "$work" && work=$(cd "$work" && pwd)
cd "$repo"
steps=${STEPS:-600}
batch=${BATCH:-16}
mix=${MIX:-45 30 15 10}
threads=${THREADS:-2}
stage=${STAGE:-all}
build=$(cd "${BUILD:-$repo/build}" 2>/dev/null && pwd || echo "${BUILD:-$repo/build}")
ocr=$build/ocrforge
ocrt=${OCRFORGE_TRAIN:-$ocr}
cfg=$repo/configs/rec/en_PP-OCRv4_doc_rec_finetune.yml
log() { echo "[model-en] $*"; }
die() { echo "make_model_en: $*" >&2; exit 1; }

[ -x "$ocr" ] || die "$ocr not found: build it first (cmake --build $build --target ocrforge ocrforge-train)"
for d in sroie_train funsd_train ic15_rec_train; do
  [ -d "$data/$d" ] || die "data folder '$data/$d' is absent: pass the shared data folder as the first argument (it holds sroie_train/, funsd_train/, ic15_rec_train/; see its README)"
done
mkdir -p "$work"

# Hold-out by page: the last lines of each detection label file (one page a line).
SROIE_HELD=50
FUNSD_HELD=15

# prefix_paths FILE PREFIX: label paths made relative to $work (one data_dir for all sets).
prefix_paths() { sed "s|^|$2/|" "$1"; }

make_data() {
  local n
  n=$(wc -l < "$data/sroie_train/det_gt.txt")
  head -n $((n - SROIE_HELD)) "$data/sroie_train/det_gt.txt" > "$work/sroie_det_train.txt"
  tail -n $SROIE_HELD "$data/sroie_train/det_gt.txt" > "$work/sroie_det_held.txt"
  n=$(wc -l < "$data/funsd_train/det_gt.txt")
  head -n $((n - FUNSD_HELD)) "$data/funsd_train/det_gt.txt" > "$work/funsd_det_train.txt"
  tail -n $FUNSD_HELD "$data/funsd_train/det_gt.txt" > "$work/funsd_det_held.txt"

  log "cropping training pages"
  "$ocr" data crop --label "$work/sroie_det_train.txt" --data_dir "$data/sroie_train" --out "$work/sroie"
  "$ocr" data crop --label "$work/funsd_det_train.txt" --data_dir "$data/funsd_train" --out "$work/funsd"
  # Held-out crops only score lines (`eval`); no training step reads them.
  "$ocr" data crop --label "$work/sroie_det_held.txt" --data_dir "$data/sroie_train" --out "$work/sroie_held"
  "$ocr" data crop --label "$work/funsd_det_held.txt" --data_dir "$data/funsd_train" --out "$work/funsd_held"

  log "restoring letter case in the receipt labels (SROIE's are all upper case)"
  # The shipped recognizer reads each training crop; a label word takes the
  # reading's case where the two agree apart from case (scripts/case_from_reading.py).
  "$ocr" infer rec --image_dir "$work/sroie/crop_img" --lang ch --cpu_threads "$threads" \
    > "$work/sroie_ch_reading.txt" 2> "$work/sroie_ch_reading.err"
  python3 "$repo/scripts/case_from_reading.py" "$work/sroie/rec_gt.txt" "$work/sroie" \
    "$work/sroie_ch_reading.txt" "$work/sroie/rec_gt_cased.txt"

  log "synthetic document lines"
  # Built-in generator: words, numbers, prices, dates, codes and punctuation in
  # document fonts (DejaVu, Liberation); lines up to the training length.
  "$ocr" synth rec --out "$work/synth" --num 3000 --seed 7 --max_chars 40 --workers "$threads" \
    --max_rotate 1 --blur_prob 0.3 --noise_prob 0.3

  log "ICDAR 2015 word crops (scene text), the same 0.9 split as docs/finetune.md (a)"
  cp "$data/ic15_rec_train/rec_gt_train.txt" "$work/ic15_all.txt"
  "$ocr" data split --label "$work/ic15_all.txt" --ratio 0.9 --seed 1 \
    --train_out "$work/ic15_train_rel.txt" --eval_out "$work/ic15_eval_rel.txt"
  ln -sfn "$(cd "$data/ic15_rec_train" && pwd)" "$work/ic15"

  prefix_paths "$work/sroie/rec_gt_cased.txt" sroie > "$work/train_sroie.txt"
  prefix_paths "$work/funsd/rec_gt.txt" funsd > "$work/train_funsd.txt"
  prefix_paths "$work/synth/rec_gt.txt" synth > "$work/train_synth.txt"
  prefix_paths "$work/ic15_train_rel.txt" ic15 > "$work/train_ic15.txt"
  prefix_paths "$work/sroie_held/rec_gt.txt" sroie_held > "$work/held_sroie.txt"
  prefix_paths "$work/funsd_held/rec_gt.txt" funsd_held > "$work/held_funsd.txt"
  prefix_paths "$work/ic15_eval_rel.txt" ic15 > "$work/held_ic15.txt"
  cat "$work/held_sroie.txt" "$work/held_funsd.txt" > "$work/held_docs.txt"
  wc -l "$work"/train_*.txt "$work"/held_*.txt
}

# ratio_for FILE COUNT: the share of FILE's lines that gives COUNT lines a pass.
ratio_for() { awk -v n="$(wc -l < "$1")" -v c="$2" 'BEGIN { r = c / n; if (r > 1) r = 1; printf "%.4f", r }'; }

train() {
  [ -f "$work/train_sroie.txt" ] || die "no crops in $work: run STAGE=data first"
  # One pass of STEPS x BATCH lines, MIX percent receipts, forms, synthetic lines, scene words.
  # The receipt labels are the recased ones of make_data: SROIE's own, all upper
  # case, taught the model to write capitals inside mixed-case words.
  local total=$((steps * batch + batch / 2))
  local ps pf py pi rs rf ry ri
  read -r ps pf py pi <<< "$mix"
  rs=$(ratio_for "$work/train_sroie.txt" $((total * ps / 100)))
  rf=$(ratio_for "$work/train_funsd.txt" $((total * pf / 100)))
  ry=$(ratio_for "$work/train_synth.txt" $((total * py / 100)))
  ri=$(ratio_for "$work/train_ic15.txt" $((total * pi / 100)))
  log "training $steps steps of $batch, mix $mix (ratios $rs $rf $ry $ri), $threads threads"
  "$ocrt" train -c "$cfg" -o \
    Global.save_model_dir="$work/ckpt" Global.num_threads="$threads" Global.epoch_num=1 \
    Train.loader.batch_size_per_card="$batch" \
    Train.dataset.data_dir="$work" \
    "Train.dataset.label_file_list=[$work/train_sroie.txt,$work/train_funsd.txt,$work/train_synth.txt,$work/train_ic15.txt]" \
    "Train.dataset.ratio_list=[$rs,$rf,$ry,$ri]" \
    Eval.dataset.data_dir="$work" "Eval.dataset.label_file_list=[$work/held_docs.txt]"
}

export_model() {
  [ -f "$work/ckpt/latest.ckpt" ] || die "no checkpoint $work/ckpt/latest.ckpt: run STAGE=train first"
  "$ocrt" export -c "$cfg" -o Global.pretrained_model="$work/ckpt/latest" \
    Global.save_inference_dir="$work/inference"
  sha256sum "$work/inference/inference.onnx" "$work/inference/inference.yml"
}

word_list() {
  local list=/usr/share/dict/american-english notice=/usr/share/doc/wamerican/copyright
  [ -f "$list" ] || die "$list is missing: apt-get install wamerican (scripts/bootstrap.sh installs it)"
  cp "$list" "$work/words.txt"
  cp "$notice" "$work/words.COPYRIGHT"
  sha256sum "$work/words.txt"
}

start=$(date +%s)
case $stage in
  data) make_data ;;
  train) train ;;
  export) export_model ;;
  words) word_list ;;
  all) make_data; train; export_model; word_list ;;
  *) die "STAGE must be data, train, export, words or all (got '$stage')" ;;
esac
log "stage $stage done in $(( $(date +%s) - start )) s"
