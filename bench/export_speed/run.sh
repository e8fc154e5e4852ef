#!/bin/bash
# Export speed check: a natively trained PP-OCRv3 English recognizer (a short
# run on IC15 crops), its checkpoint in LibTorch (`infer rec` on the
# checkpoint) vs its export in ORT (`infer rec` on the folder), on the 447
# held-out IC15 crops, alternating, 2 threads each, nothing else running.
#   IC15_TRAIN=train.txt IC15_EVAL=eval.txt [IC15_DIR=...] [OUT=...] bench/export_speed/run.sh
# (the two label files from `ocrforge data split` of the IC15 crops' rec_gt.txt).
# Wall time and peak RSS of each run end up in $OUT/{torch,ort}_<round>.err.
set -e
cd "$(dirname "$0")/../.."
B=./build/ocrforge
R=${OUT:-/tmp/ocrforge_export_speed}
mkdir -p $R
D=${IC15_DIR:-../shared/data/ic15_rec_train}
CFG=configs/rec/en_PP-OCRv3_mobile_rec.yml
$B train -c $CFG -o Train.dataset.data_dir=$D Train.dataset.label_file_list=[${IC15_TRAIN:?label file of the training split}] Eval.dataset.data_dir=$D Eval.dataset.label_file_list=[${IC15_EVAL:?label file of the held-out split}] Global.epoch_num=1 Train.dataset.ratio_list=[0.2] Train.loader.batch_size_per_card=32 Global.eval_batch_step=[0,100000] Global.save_model_dir=$R/out Global.num_threads=2 > $R/train.out 2>&1
$B export -c $CFG -o Global.pretrained_model=$R/out/latest Global.save_inference_dir=$R/inf > $R/export.txt 2>&1
mkdir -p $R/imgs
cut -f1 ${IC15_EVAL:?label file of the held-out split} | while read p; do cp -n $D/$p $R/imgs/ 2>/dev/null || true; done
for round in 1 2; do
  /usr/bin/time -f "%e s %M KB" $B infer rec --rec_model_dir $R/out/latest.ckpt --image_dir $R/imgs --cpu_threads 2 --rec_image_shape 3,48,320 > $R/torch_$round.txt 2> $R/torch_$round.err
  /usr/bin/time -f "%e s %M KB" $B infer rec --rec_model_dir $R/inf --image_dir $R/imgs --cpu_threads 2 > $R/ort_$round.txt 2> $R/ort_$round.err
done
