#!/usr/bin/env bash
# PaddleX's and PaddleHub's documented Python clients against `ocrforge serve`
# with a 3-page PDF (issue 50). Not a CTest test: the output is for people.
#
#   bench/serve_clients/run.sh [build/ocrforge]
#
# Makes the PDF from three sample photos with `ocrforge ocr --output_format
# pdf` (the library's PDF writer; pages at 144 dpi, so that the server's
# 144-dpi rendering gives the photos back at their size) joined by qpdf,
# and a 12-page one for the page limit; starts `ocrforge serve` on a free
# loopback port; runs paddlex_client.py on both PDFs and
# paddlehub_client.py on the PDF and on the photos; stops the server.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ocrforge=$(realpath "${1:-$root/build/ocrforge}")
work=$(mktemp -d /tmp/ocrforge-serve-clients.XXXXXX)
server=
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/photos" "$work/pdfs" "$work/out"
for f in imgs_ger_1.jpg imgs_00009282.jpg imgs_french_0.jpg; do cp "$root/tests/data/samples/$f" "$work/photos/"; done
"$ocrforge" ocr --image_dir "$work/photos" --output_format pdf --image_dpi 144 --draw_img_save_dir "$work/pdfs" \
  --visualize False --cpu_threads 1 >/dev/null 2>&1
p=("$work/pdfs/imgs_ger_1.pdf" "$work/pdfs/imgs_00009282.pdf" "$work/pdfs/imgs_french_0.pdf")
qpdf --empty --pages "${p[@]}" -- "$work/three_pages.pdf"
qpdf --empty --pages "${p[@]}" "${p[@]}" "${p[@]}" "${p[@]}" -- "$work/twelve_pages.pdf"

"$ocrforge" serve --port 0 --cpu_threads 2 --access_log "" 2>"$work/serve.log" &
server=$!
url=
for _ in $(seq 600); do
  url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.log" 2>/dev/null || true)
  [[ -n "$url" ]] && curl -sf "$url/ready" >/dev/null 2>&1 && break
  sleep 0.1
done
echo "server: $url ($("$ocrforge" --version 2>/dev/null | head -1 || true))"

echo; echo "== PaddleX client, three_pages.pdf ($(stat -c %s "$work/three_pages.pdf") bytes), fileType 0"
python3 "$here/paddlex_client.py" "$work/three_pages.pdf" --url "$url/ocr" --out "$work/out"
echo; echo "== PaddleX client, twelve_pages.pdf (server default --max_num_input_imgs 10)"
python3 "$here/paddlex_client.py" "$work/twelve_pages.pdf" --url "$url/ocr" --out "$work/out" | tail -3
echo; echo "== PaddleHub client, three_pages.pdf"
python3 "$here/paddlehub_client.py" "$work/three_pages.pdf" --url "$url/predict/ocr_system" || true
echo; echo "== PaddleHub client, the three photos"
python3 "$here/paddlehub_client.py" "$work/photos" --url "$url/predict/ocr_system"
