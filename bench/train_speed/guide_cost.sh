#!/usr/bin/env bash
# What the training-only guidance branches of MultiHead cost per step: PaddleOCR's
# PP-OCRv4 recogniser (configs/rec/PP-OCRv4/ch_PP-OCRv4_rec.yml: PPLCNetV3, CTC + NRTR,
# MultiScaleSampler) and PP-OCRv3's (configs/rec/PP-OCRv3/PP-OCRv3_mobile_rec.yml:
# MobileNetV1Enhance, CTC + SAR), each trained as written and with
# Loss.loss_config_list=[{CTCLoss: }] (the guidance branch not run; for PP-OCRv3 also
# use_guide False, which it then needs), alternating the
# sides, ROUNDS rounds. Prints samples/s per side (training log's avg_samples /
# avg_batch_cost over the steps after W, data loading included, one loader worker) and
# the ratio guided / CTC only.
#
#   bench/train_speed/guide_cost.sh                 # T=2 BS=32 W=2 ROUNDS=2 COUNT=400
# Env: T threads, BS (v3 batch_size_per_card; v4 first_bs: batches of BS, 2/3 BS and
# BS/2 at heights 32, 48, 64), W warm-up steps, COUNT crops, BIN (build/ocrforge-train),
# DATA (ic15_rec_train folder), OUT (logs).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
T="${T:-2}" BS="${BS:-32}" W="${W:-2}" ROUNDS="${ROUNDS:-2}" COUNT="${COUNT:-400}"
BIN="${BIN:-$REPO/build/ocrforge-train}"
DATA="${DATA:-$REPO/../shared/data/ic15_rec_train}"
OUT="${OUT:-/tmp/guide_cost_bench}"
[ -f "$DATA/rec_gt_train.txt" ] || { echo "guide_cost: no $DATA/rec_gt_train.txt (set DATA)" >&2; exit 1; }
mkdir -p "$OUT"
DATA="$(cd "$DATA" && pwd)"
# Short words (NRTR / SAR labels hold max_text_length - 2 characters), first COUNT.
awk -F'\t' -v n="$COUNT" 'length($2) >= 1 && length($2) <= 20 && k < n { print; k++ }' "$DATA/rec_gt_train.txt" \
  > "$OUT/labels.txt"

run() {  # $1 = config, $2 = side (guided | ctc), $3 = round; prints samples/s
  local log="$OUT/$(basename "$1" .yml)_$2_$3.log" extra=()
  [ "$2" = ctc ] && extra=("Loss.loss_config_list=[{CTCLoss: }]")
  case "$1" in
    *PP-OCRv4*) extra+=("Train.sampler.first_bs=$BS") ;;
    *) extra+=("Train.loader.batch_size_per_card=$BS")
       # Without SARLoss the SAR head stays built but is not run; use_guide must be off
       # then (the backbone would get no gradient).
       [ "$2" = ctc ] && extra+=("Architecture.Head.head_list=[{CTCHead: {Neck: {name: svtr, dims: 64, depth: 2, hidden_dims: 120, use_guide: False}, Head: {fc_decay: 0.00001}}}, {SARHead: {enc_dim: 512, max_text_length: 25}}]") ;;
  esac
  (cd "$REPO" && "$BIN" train -c "$1" -o Global.use_gpu=False Global.epoch_num=1 Global.num_threads="$T" \
    Global.pretrained_model= Global.checkpoints= Train.loader.num_workers=1 \
    Train.dataset.data_dir="$DATA" Train.dataset.label_file_list="[$OUT/labels.txt]" \
    Eval.dataset.data_dir="$DATA" Eval.dataset.label_file_list="[$OUT/labels.txt]" \
    Global.eval_batch_step="[0,100000]" Global.cal_metric_during_train=False Global.save_epoch_step=1000 \
    Global.print_batch_step=1 Global.log_smooth_window=1 Global.save_model_dir="$OUT/save" "${extra[@]}") \
    >"$log" 2>&1 || { echo "guide_cost: $1 $2 failed, see $log" >&2; exit 1; }
  python3 - "$log" "$W" <<'PYEOF'
import re, sys
rows = [(int(m.group(1)), float(m.group(2)), float(m.group(3))) for m in re.finditer(
    r"global_step: (\d+),.*?avg_batch_cost: ([0-9.]+) s, avg_samples: ([0-9.]+)", open(sys.argv[1]).read())]
timed = [r for r in rows if r[0] > int(sys.argv[2])]
if len(timed) < 3:
    sys.exit(f"{sys.argv[1]}: only {len(timed)} timed steps")
print(f"{sum(r[2] for r in timed) / sum(r[1] for r in timed):.2f}")
PYEOF
}

echo "guide_cost: T=$T BS=$BS W=$W rounds $ROUNDS, $(wc -l < "$OUT/labels.txt") crops of $DATA; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
for cfg in configs/rec/PP-OCRv4/ch_PP-OCRv4_rec.yml configs/rec/PP-OCRv3/PP-OCRv3_mobile_rec.yml; do
  g=() c=()
  for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then g+=("$(run "$cfg" guided "$r")"); c+=("$(run "$cfg" ctc "$r")")
    else c+=("$(run "$cfg" ctc "$r")"); g+=("$(run "$cfg" guided "$r")"); fi
  done
  python3 - "$cfg" "${g[*]}" "${c[*]}" <<'PYEOF'
import statistics, sys
g = [float(x) for x in sys.argv[2].split()]; c = [float(x) for x in sys.argv[3].split()]
mg, mc = statistics.median(g), statistics.median(c)
print(f"{sys.argv[1]}: guided {mg:.2f} samples/s {g}, CTC only {mc:.2f} samples/s {c}; guided / CTC only {mg / mc:.2f}")
PYEOF
done
