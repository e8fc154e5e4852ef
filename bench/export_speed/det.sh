#!/bin/bash
# Export speed check for DB detection: a natively trained detector's
# checkpoint in LibTorch (`infer det` on the .ckpt) vs its export in ORT
# (`infer det` on the folder), on held-out images, alternating, 2 threads
# each, nothing else running; both sets of boxes scored with `eval-det`.
#   CKPT=output/db_mv3_sroie/latest CFG=configs/det/det_mv3_db_sroie.yml \
#   IMAGES=held_out_50/ GT=train_data/sroie/test.txt [OUT=...] bench/export_speed/det.sh
# Wall time and peak RSS of each run end up in $OUT/{torch,ort}_<round>.err,
# the scores in $OUT/{torch,ort}_<round>.score.
set -e
cd "$(dirname "$0")/../.."
B=./build/ocrforge
R=${OUT:-/tmp/ocrforge_export_speed_det}
mkdir -p $R
$B export -c ${CFG:?the config the checkpoint was trained with} -o Global.pretrained_model=${CKPT:?checkpoint without .ckpt} Global.save_inference_dir=$R/inf > $R/export.txt 2>&1
for round in 1 2; do
  /usr/bin/time -f "%e s %M KB" $B infer det --det_model_dir $CKPT.ckpt --image_dir ${IMAGES:?image folder} --cpu_threads 2 --draw_img_save_dir $R/torch_$round > /dev/null 2> $R/torch_$round.err
  /usr/bin/time -f "%e s %M KB" $B infer det --det_model_dir $R/inf --image_dir $IMAGES --cpu_threads 2 --draw_img_save_dir $R/ort_$round > /dev/null 2> $R/ort_$round.err
  for side in torch ort; do
    $B eval-det --gt ${GT:?label file of the images} --pred $R/${side}_$round/det_results.txt > $R/${side}_$round.score
  done
done
cmp $R/torch_1/det_results.txt $R/ort_1/det_results.txt && echo "identical boxes" || echo "boxes differ"
tail -n1 $R/*.err; grep hmean $R/*.score
