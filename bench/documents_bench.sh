#!/usr/bin/env bash
# Searchable PDFs from scanned forms, measured (docs/documents.md):
#  1. accuracy: a 5-page image-only PDF of FUNSD training forms (made with
#     img2pdf) read by `ocrforge ocr --output_format pdf,txt`: bag-of-words F1
#     against the labels of what ocrforge read (system_results.txt) and of
#     what pdftotext extracts from the searchable PDF; at --pdf_dpi 0 (the
#     scans' own resolution) also `ocrforge ocr` on the page images;
#  2. the same PDF through `ocrmypdf --plugin tools/ocrmypdf_plugin/...`;
#  3. time per page at 300 dpi: ocrforge (PDF in, searchable PDF out; 2 and
#     1 threads) vs `tesseract LIST out pdf` on the same pages rendered at
#     300 dpi by pdftoppm (rendering not counted for Tesseract), alternated
#     A B C C B A for ROUNDS rounds;
#  4. peak RSS over 10, 25 and 100-page PDFs (pdf, hocr and txt outputs).
#
#   bash bench/documents_bench.sh BUILD_DIR [ROUNDS=1] [MAX_PAGES=100]
#
# Needs the team's data (../shared/data/funsd_train) and Debian's
# poppler-utils, ocrmypdf (which brings img2pdf) and tesseract-ocr; skips
# when the data is absent.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
ROUNDS=${2:-1}
MAX_PAGES=${3:-100}
REPO=$(cd "$(dirname "$0")/.." && pwd)
DATA="$REPO/../shared/data/funsd_train"
[[ -d "$DATA/images" ]] || { echo "skipped: $DATA not found"; exit 0; }
OCR="$BUILD/ocrforge"
PY=/usr/bin/python3  # Debian's Python: img2pdf and ocrmypdf live there
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
mapfile -t ALL < <(ls "$DATA/images" | sort)

make_pdf() {  # make_pdf OUT N: the first N FUNSD pages, image-only
  local out=$1 n=$2 files=()
  for f in "${ALL[@]:0:$n}"; do files+=("$DATA/images/$f"); done
  "$PY" -m img2pdf "${files[@]}" -o "$out"
}

# Labels of the first 5 pages, named as ocrforge names PDF pages (funsd5.pdf_<i>).
make_pdf funsd5.pdf 5
: >gt5.txt
: >list5.txt
for i in 0 1 2 3 4; do
  f=${ALL[$i]}
  grep -F "images/$f	" "$DATA/det_gt.txt" | sed "s|^images/$f|funsd5.pdf_$i|" >>gt5.txt
  echo "funsd5.pdf_$i" >>list5.txt
done
mkdir -p imgs5
for f in "${ALL[@]:0:5}"; do ln -s "$DATA/images/$f" "imgs5/$f"; done

echo "== load at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "== 1. accuracy (bag-of-words F1 against FUNSD's labels, 5 pages)"
for dpi in 300 0; do
  "$OCR" ocr --image_dir funsd5.pdf --pdf_dpi "$dpi" --output_format pdf,txt --visualize false \
    --draw_img_save_dir "out_$dpi" >/dev/null 2>"out_$dpi.err"
  pdftotext "out_$dpi/funsd5.pdf" "pdftotext_$dpi.txt"
  echo "pdf_dpi $dpi  ocrforge read:    $(python3 "$REPO/bench/bow_f1.py" gt5.txt ocrforge "out_$dpi/system_results.txt")"
  echo "pdf_dpi $dpi  pdftotext of PDF: $(python3 "$REPO/bench/bow_f1.py" gt5.txt tesseract "pdftotext_$dpi.txt" list5.txt)"
done
"$OCR" ocr --image_dir imgs5 --visualize false --draw_img_save_dir out_imgs >/dev/null 2>&1
echo "page images       ocrforge read:    $(python3 "$REPO/bench/bow_f1.py" "$DATA/det_gt.txt" ocrforge out_imgs/system_results.txt)"

echo "== 2. ocrmypdf --plugin"
if command -v ocrmypdf >/dev/null; then
  for renderer in sandwich hocr; do
    ocrmypdf -q --output-type pdf --pdf-renderer "$renderer" --plugin "$REPO/tools/ocrmypdf_plugin/ocrforge_plugin.py" \
      --ocrforge-binary "$OCR" funsd5.pdf "ocrmypdf_$renderer.pdf"
    pdftotext "ocrmypdf_$renderer.pdf" "ocrmypdf_$renderer.txt"
    echo "ocrmypdf $renderer: $(python3 "$REPO/bench/bow_f1.py" gt5.txt tesseract "ocrmypdf_$renderer.txt" list5.txt)"
  done
else
  echo "skipped: ocrmypdf is not installed"
fi

echo "== 3. time per page at 300 dpi (5 pages; medians over $ROUNDS rounds, A B C C B A)"
mkdir -p pages300
pdftoppm -r 300 -png funsd5.pdf pages300/p
ls "$PWD"/pages300/*.png >tess_list.txt
run() {  # run LABEL: one timed run, prints seconds
  local start end
  start=$(date +%s.%N)
  case $1 in
    ocrforge_2t) "$OCR" ocr --image_dir funsd5.pdf --pdf_dpi 300 --output_format pdf --visualize false \
                   --draw_img_save_dir t_a >/dev/null 2>&1 ;;
    ocrforge_1t) "$OCR" ocr --image_dir funsd5.pdf --pdf_dpi 300 --output_format pdf --visualize false \
                   --cpu_threads 1 --rec_workers 1 --pipelined false --draw_img_save_dir t_c >/dev/null 2>&1 ;;
    tesseract) OMP_THREAD_LIMIT=1 tesseract tess_list.txt t_b pdf >/dev/null 2>&1 ;;
  esac
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}'
}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
declare -A times
for ((r = 0; r < ROUNDS; r++)); do
  for label in ocrforge_2t tesseract ocrforge_1t ocrforge_1t tesseract ocrforge_2t; do
    s=$(run "$label")
    times[$label]="${times[$label]:-} $s"
    printf 'round %d %-12s %6.2f s\n' $((r + 1)) "$label" "$s"
  done
done
for label in ocrforge_2t ocrforge_1t tesseract; do
  # shellcheck disable=SC2086
  m=$(median ${times[$label]})
  printf '%-12s median %6.2f s for 5 pages: %5.2f s/page\n' "$label" "$m" "$(awk -v m="$m" 'BEGIN {print m / 5}')"
done
echo "tesseract's text layer: $(pdftotext t_b.pdf - | wc -w) words; ocrforge's: $(pdftotext t_a/funsd5.pdf - | wc -w)"

echo "== 4. peak RSS (pdf, hocr, txt outputs at 300 dpi)"
for n in 10 25 "$MAX_PAGES"; do
  make_pdf "pages$n.pdf" "$n"
  /usr/bin/time -f "%M %e" -o "rss$n.txt" "$OCR" ocr --image_dir "pages$n.pdf" --pdf_dpi 300 \
    --output_format pdf,hocr,txt --visualize false --draw_img_save_dir "rss_$n" >/dev/null 2>&1
  read -r kb secs <"rss$n.txt"
  printf '%4d pages: peak RSS %5d MiB, %6.1f s (%.2f s/page)\n' "$n" $((kb / 1024)) "$secs" "$(awk -v s="$secs" -v n="$n" 'BEGIN {print s / n}')"
done
echo "== load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
