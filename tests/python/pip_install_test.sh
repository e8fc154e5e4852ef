#!/usr/bin/env bash
# `pip install .` as docs/python.md says, offline, into a fresh venv that sees
# Debian's numpy, setuptools and wheel (--system-site-packages); then reads a
# sample image from outside the repository with the installed copy.
#   bash tests/python/pip_install_test.sh SOURCE_DIR PYTHON
set -euo pipefail
SRC="$1" PY="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$PY" -m venv --system-site-packages "$tmp/venv"
(cd "$SRC" && env -u PYTHONPATH CMAKE_BUILD_PARALLEL_LEVEL=2 \
   "$tmp/venv/bin/python" -m pip install --no-build-isolation --no-index --quiet .)
cd "$tmp"
env -u PYTHONPATH "$tmp/venv/bin/python" - "$SRC/tests/data/samples/imgs_ger_1.jpg" <<'PY'
import os, sys
import ocrforge
package = os.path.dirname(ocrforge.__file__)
assert package.startswith(sys.prefix), package  # the installed copy, not a build tree
ocr = ocrforge.PaddleOCR(show_log=False)
assert ocr._params["det_model"].startswith(package), ocr._params["det_model"]  # its own models
page = ocr.ocr(sys.argv[1])[0]
assert page, "nothing read"
print("\n".join(text for _, (text, _) in page))
PY
