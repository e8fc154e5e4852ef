#!/usr/bin/env bash
# `pip install .` as docs/python.md says, offline, into a fresh venv that sees
# Debian's numpy, setuptools and wheel (--system-site-packages); then reads a
# sample image (with every shipped lang) and a PDF from outside the repository
# with the installed copy.
#   bash tests/python/pip_install_test.sh SOURCE_DIR PYTHON
set -euo pipefail
SRC="$1" PY="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$PY" -m venv --system-site-packages "$tmp/venv"
(cd "$SRC" && env -u PYTHONPATH CMAKE_BUILD_PARALLEL_LEVEL=2 \
   "$tmp/venv/bin/python" -m pip install --no-build-isolation --no-index --quiet .)
cd "$tmp"
env -u PYTHONPATH -u OCRFORGE_MODEL_DIR "$tmp/venv/bin/python" - "$SRC/tests/data/samples/imgs_ger_1.jpg" "$SRC/tests/python" <<'PY'
import os, sys
import ocrforge
from ocrforge import _locations, _ocrforge
package = os.path.dirname(ocrforge.__file__)
assert package.startswith(sys.prefix), package  # the installed copy, not a build tree
ocr = ocrforge.PaddleOCR(show_log=False)
assert ocr._params["det_model"].startswith(package), ocr._params["det_model"]  # its own models
page = ocr.ocr(sys.argv[1])[0]
assert page, "nothing read"
print("\n".join(text for _, (text, _) in page))
# Every language's model set is in the package (setup.py's MODEL_FILES).
assert _locations.shipped_langs() == _ocrforge.available_langs(), _locations.shipped_langs()
for lang in _ocrforge.available_langs():
    o = ocrforge.PaddleOCR(lang=lang, show_log=False)
    assert o._params["rec_model"].startswith(package), o._params["rec_model"]
    assert o.ocr(sys.argv[1])[0][0][1][0] == "EPPING", lang
# A PDF of two pages (rendered by pdftoppm).
sys.path.insert(0, sys.argv[2])
import sample_documents
sample_documents.write_pdf("scan.pdf", sample_documents.SCAN_PAGES)
assert len(ocr.ocr("scan.pdf")) == 2
print("langs", _ocrforge.available_langs(), "and a PDF: ok")
PY
