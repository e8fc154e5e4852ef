#!/usr/bin/env bash
# One round of the active-learning loop of docs/finetune.md, against the same
# number of random lines: read pool pages with the shipped recognizer
# (`ocr --save_label`), correct the lines from the labels held
# (bench/correct_from_labels.py stands in for the person), take the N
# least certain lines (`data select --uncertain N`) or N random ones, crop
# (`data crop`), fine-tune the shipped recognizer on each for the same steps,
# and score both, and the shipped model, on the held-out pages' line crops
# (`eval`; the pages scripts/make_model_en.sh holds out).
#
# usage: bench/active_learning_round.sh [DATA_DIR] [WORK_DIR]
# environment: N (300) lines a side; STEPS (60) of BATCH (16); POOL_SROIE (40)
#   and POOL_FUNSD (20) first pages of each training set read as the pool;
#   THREADS (2); BUILD (build); SEED (1).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$repo/../shared/data}
work=${2:-$repo/output/al_round}
[ -d "$data" ] && data=$(cd "$data" && pwd)
mkdir -p "$work" && work=$(cd "$work" && pwd)
cd "$repo"
n=${N:-300}
steps=${STEPS:-60}
batch=${BATCH:-16}
threads=${THREADS:-2}
seed=${SEED:-1}
ocr=$(cd "${BUILD:-build}" && pwd)/ocrforge
cfg=$repo/configs/rec/en_PP-OCRv4_doc_rec_finetune.yml
log() { echo "[al-round $(date +%T)] $*"; }

# The pool: the first pages of each training set (make_model_en.sh holds out the last ones).
mkdir -p "$work/pool"
head -n "${POOL_SROIE:-40}" "$data/sroie_train/det_gt.txt" > "$work/pool_gt.txt"
head -n "${POOL_FUNSD:-20}" "$data/funsd_train/det_gt.txt" >> "$work/pool_gt.txt"
head -n "${POOL_SROIE:-40}" "$data/sroie_train/det_gt.txt" | cut -f1 | while read -r p; do
  ln -sf "$data/sroie_train/$p" "$work/pool/sroie_$(basename "$p")"; done
head -n "${POOL_FUNSD:-20}" "$data/funsd_train/det_gt.txt" | cut -f1 | while read -r p; do
  ln -sf "$data/funsd_train/$p" "$work/pool/funsd_$(basename "$p")"; done
sed -E 's|^images/|sroie_|' <(head -n "${POOL_SROIE:-40}" "$data/sroie_train/det_gt.txt") > "$work/pool_gt_named.txt"
sed -E 's|^images/|funsd_|' <(head -n "${POOL_FUNSD:-20}" "$data/funsd_train/det_gt.txt") >> "$work/pool_gt_named.txt"

# Held-out line crops (never in the pool).
if [ ! -f "$work/held/rec_gt.txt" ]; then
  tail -n 50 "$data/sroie_train/det_gt.txt" > "$work/sroie_held.txt"
  tail -n 15 "$data/funsd_train/det_gt.txt" > "$work/funsd_held.txt"
  "$ocr" data crop --label "$work/sroie_held.txt" --data_dir "$data/sroie_train" --out "$work/held_sroie"
  "$ocr" data crop --label "$work/funsd_held.txt" --data_dir "$data/funsd_train" --out "$work/held_funsd"
  mkdir -p "$work/held"
  { sed 's|^|held_sroie/|' "$work/held_sroie/rec_gt.txt"; sed 's|^|held_funsd/|' "$work/held_funsd/rec_gt.txt"; } \
    > "$work/held/rec_gt.txt"
fi

log "reading the pool with the shipped models"
[ -f "$work/pool/Label.txt" ] ||
  OMP_WAIT_POLICY=PASSIVE "$ocr" ocr --image_dir "$work/pool" --save_label "$work/pool/Label.txt" \
    --visualize false --draw_img_save_dir "$work/pool_vis" --cpu_threads "$threads" > "$work/pool_ocr.log"
python3 bench/correct_from_labels.py correct "$work/pool/Label.txt" "$work/pool_gt_named.txt" "$work/pool/corrected.txt"

"$ocr" data select --uncertain "$n" --label "$work/pool/corrected.txt" --out "$work/pool/al.txt"
python3 bench/correct_from_labels.py random "$work/pool/corrected.txt" "$n" "$seed" "$work/pool/random.txt"

evaluate() {  # NAME [overrides...]
  local name=$1; shift
  OMP_WAIT_POLICY=PASSIVE "$ocr" eval -c "$cfg" -o Global.num_threads="$threads" \
    Eval.dataset.data_dir="$work" "Eval.dataset.label_file_list=[$work/held/rec_gt.txt]" "$@" \
    --save_wrong "$work/wrong_$name.tsv" | grep -E '^(acc|norm_edit_dis|samples)' | sed "s|^|$name |"
}

log "the shipped model on the held-out lines"
evaluate shipped
for side in al random; do
  rm -rf "$work/crops_$side"
  "$ocr" data crop --label "$work/pool/$side.txt" --data_dir "$work/pool" --out "$work/crops_$side"
  log "fine-tuning on $side lines ($(wc -l < "$work/crops_$side/rec_gt.txt") crops), $steps steps of $batch"
  start=$(date +%s)
  OMP_WAIT_POLICY=PASSIVE "$ocr" train -c "$cfg" -o \
    Global.save_model_dir="$work/ckpt_$side" Global.num_threads="$threads" Global.epoch_num=$(( (steps * batch + $(wc -l < "$work/crops_$side/rec_gt.txt") - 1) / $(wc -l < "$work/crops_$side/rec_gt.txt") )) \
    Global.print_batch_step=20 Train.loader.batch_size_per_card="$batch" Train.loader.drop_last=true \
    Train.dataset.data_dir="$work/crops_$side" "Train.dataset.label_file_list=[$work/crops_$side/rec_gt.txt]" \
    Eval.dataset.data_dir="$work" "Eval.dataset.label_file_list=[$work/held/rec_gt.txt]" > "$work/train_$side.log" 2>&1
  log "trained in $(( $(date +%s) - start )) s"
  evaluate "$side" Global.checkpoints="$work/ckpt_$side/latest"
done
