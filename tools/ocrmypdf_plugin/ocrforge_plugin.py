"""OCRmyPDF plugin: ocrforge as OCRmyPDF's OCR engine.

    ocrmypdf --plugin tools/ocrmypdf_plugin/ocrforge_plugin.py in.pdf out.pdf

OCRmyPDF (14, the plugin interface of its `OcrEngine`) rasterises each page
and asks the engine for either a text-only PDF page (its default "sandwich"
renderer: `generate_pdf`) or an hOCR file (`--pdf-renderer hocr`:
`generate_hocr`, which OCRmyPDF's own hOCR transform turns into the text
layer). Both are one run of `ocrforge ocr` on the page image, with
`--output_format pdf --textonly_pdf` or `--output_format hocr`, at the
image's resolution.

Options: --ocrforge-binary (default: $OCRFORGE_BIN, else `ocrforge` on
PATH) and --ocrforge-args (more `ocrforge ocr` flags, e.g.
"--use_angle_cls true").
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from ocrmypdf import hookimpl
from ocrmypdf.exceptions import SubprocessOutputError
from ocrmypdf.pluginspec import OcrEngine, OrientationConfidence

log = logging.getLogger(__name__)

# The program, as chosen by --ocrforge-binary (version() has no options).
_binary = os.environ.get("OCRFORGE_BIN", "ocrforge")


@hookimpl
def add_options(parser):
    group = parser.add_argument_group("ocrforge", "ocrforge as the OCR engine")
    group.add_argument(
        "--ocrforge-binary",
        default=os.environ.get("OCRFORGE_BIN", "ocrforge"),
        help="the ocrforge program (default: $OCRFORGE_BIN or ocrforge on PATH)",
    )
    group.add_argument(
        "--ocrforge-args",
        default="",
        help="further `ocrforge ocr` flags, as one string",
    )


@hookimpl
def check_options(options):
    global _binary
    _binary = options.ocrforge_binary
    if shutil.which(options.ocrforge_binary) is None:
        raise SubprocessOutputError(
            f"ocrforge program '{options.ocrforge_binary}' not found: build it, "
            "put it on PATH or pass --ocrforge-binary"
        )
    if options.pdf_renderer == "auto":
        options.pdf_renderer = "sandwich"


def _image_dpi(path: Path) -> float:
    """The resolution OCRmyPDF wrote into the page image (square)."""
    from PIL import Image  # OCRmyPDF's own dependency

    with Image.open(path) as im:
        dpi = im.info.get("dpi", (300, 300))
    return float(max(dpi[0], dpi[1])) or 300.0


def _threads(options) -> int:
    # OCRmyPDF runs pages side by side (--jobs): share the cores among them.
    jobs = max(1, int(getattr(options, "jobs", 1) or 1))
    return max(1, (os.cpu_count() or 1) // jobs)


def _run_ocrforge(input_file: Path, formats: str, options, extra: list[str]) -> Path:
    """Runs `ocrforge ocr` on one page image; returns its output folder."""
    out_dir = Path(tempfile.mkdtemp(prefix="ocrforge_page_"))
    cmd = [
        options.ocrforge_binary,
        "ocr",
        "--image_dir",
        os.fspath(input_file),
        "--draw_img_save_dir",
        os.fspath(out_dir),
        "--visualize",
        "false",
        "--cpu_threads",
        str(_threads(options)),
        "--image_dpi",
        f"{_image_dpi(input_file):g}",
        "--output_format",
        formats,
        *extra,
        *shlex.split(options.ocrforge_args),
    ]
    log.debug("running %s", " ".join(cmd))
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if proc.returncode != 0:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise SubprocessOutputError(f"ocrforge failed on {input_file}: {proc.stderr.strip()}")
    return out_dir


def _take(out_dir: Path, stem: str, ext: str, dest: Path) -> None:
    produced = out_dir / f"{stem}{ext}"
    if not produced.exists():
        raise SubprocessOutputError(f"ocrforge wrote no {produced.name}")
    shutil.move(os.fspath(produced), os.fspath(dest))


class OcrforgeEngine(OcrEngine):
    """OCRmyPDF's OCR engine interface over `ocrforge ocr`."""

    @staticmethod
    def version():
        proc = subprocess.run(
            [_binary, "version"],
            capture_output=True,
            text=True,
            check=False,
        )
        return proc.stdout.strip().replace("ocrforge ", "") or "unknown"

    @staticmethod
    def creator_tag(options):
        return f"ocrforge {OcrforgeEngine.version()}"

    def __str__(self):
        return f"ocrforge {OcrforgeEngine.version()}"

    @staticmethod
    def languages(options):
        # The default PP-OCRv4 model reads Chinese and English.
        return {"eng", "chi_sim"}

    @staticmethod
    def get_orientation(input_file, options):
        # Pages are read as rasterised; ocrforge's direction classifier
        # (--ocrforge-args "--use_angle_cls true") turns upside-down lines.
        return OrientationConfidence(angle=0, confidence=0.0)

    @staticmethod
    def get_deskew(input_file, options) -> float:
        return 0.0

    @staticmethod
    def generate_hocr(input_file, output_hocr, output_text, options):
        out_dir = _run_ocrforge(Path(input_file), "hocr,txt", options, [])
        try:
            stem = Path(input_file).stem
            _take(out_dir, stem, ".hocr", Path(output_hocr))
            _take(out_dir, stem, ".txt", Path(output_text))
        finally:
            shutil.rmtree(out_dir, ignore_errors=True)

    @staticmethod
    def generate_pdf(input_file, output_pdf, output_text, options):
        out_dir = _run_ocrforge(Path(input_file), "pdf,txt", options, ["--textonly_pdf", "true"])
        try:
            stem = Path(input_file).stem
            _take(out_dir, stem, ".pdf", Path(output_pdf))
            _take(out_dir, stem, ".txt", Path(output_text))
        finally:
            shutil.rmtree(out_dir, ignore_errors=True)


@hookimpl
def get_ocr_engine():
    return OcrforgeEngine()
