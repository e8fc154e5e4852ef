"""OCRmyPDF plugin: ocrforge as OCRmyPDF's OCR engine.

    ocrmypdf -l eng --plugin tools/ocrmypdf_plugin/ocrforge_plugin.py in.pdf out.pdf

OCRmyPDF (14, the plugin interface of its `OcrEngine`) rasterises each page
and asks the engine for either a text-only PDF page (its default "sandwich"
renderer: `generate_pdf`) or an hOCR file (`--pdf-renderer hocr`:
`generate_hocr`, which OCRmyPDF's own hOCR transform turns into the text
layer). Both are one run of `ocrforge ocr` on the page image, with
`--output_format pdf --textonly_pdf` or `--output_format hocr`.

Language: OCRmyPDF's `-l` (Tesseract's ISO 639-2 codes) picks ocrforge's
model set (`--lang`): chi_sim / chi_tra -> ch, eng and other Latin-script
languages -> en (several: ch if one is Chinese, else en); no `-l` is
OCRmyPDF's eng. `--lang` in --ocrforge-args wins.

Resolution: a page image under --ocrforge-min-dpi (default 80 ppi) is
resampled (bilinear) to --ocrforge-resample-dpi (default 300) before
ocrforge reads it; the text-only page keeps the page's size and the hOCR is
scaled back to the image OCRmyPDF gave, so the text layer lines up either
way. (OCRmyPDF's `filter_ocr_image` hook must keep the image's size, and
--oversample would also re-render the visible page: hence the engine
resamples its own copy.) docs/ocrmypdf.md has the measurements.

Options: --ocrforge-binary (default: $OCRFORGE_BIN, else `ocrforge` on
PATH), --ocrforge-args (more `ocrforge ocr` flags, e.g. "--use_angle_cls
true"), --ocrforge-min-dpi (0: read the image as it is),
--ocrforge-resample-dpi.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from ocrmypdf import hookimpl
from ocrmypdf.exceptions import BadArgsError, MissingDependencyError, SubprocessOutputError
from ocrmypdf.pluginspec import OcrEngine, OrientationConfidence

log = logging.getLogger(__name__)

# The program, as chosen by --ocrforge-binary (version() has no options).
_binary = os.environ.get("OCRFORGE_BIN", "ocrforge")

DEFAULT_MIN_DPI = 80.0  # page images under this are resampled ...
DEFAULT_RESAMPLE_DPI = 300.0  # ... to this (bench/ocrmypdf/run.py --set tune)
MAX_PIXELS = 25_000_000  # a resampled page stays under this (A3 at 300 ppi: 17 M)

# Tesseract's language codes (ISO 639-2, /T and /B forms; its script models)
# -> ocrforge's model sets (`ocrforge ocr --lang`).
CHINESE = frozenset({"chi_sim", "chi_tra", "chi_sim_vert", "chi_tra_vert", "script/HanS", "script/HanT",
                     "script/HanS_vert", "script/HanT_vert", "HanS", "HanT"})
LATIN = frozenset("""
    eng enm afr alb sqi ast aze baq eus bos bre cat ceb ces cze cos cym wel dan deu ger dut nld epo est fao fil
    fin fra fre frm fry gla gle glg hat hrv hun ind isl ice ita ita_old jav lat lav lit ltz may msa mlt mri
    nor oci pol por que ron rum slk slo slv spa spa_old sun swa swe tgl ton tur uzb vie yor script/Latin Latin
""".split())
# What `-l` may name (OCRmyPDF checks its languages against this set).
KNOWN = CHINESE | LATIN
SETS = "ch (chi_sim, chi_tra: Chinese and English) and en (eng and other Latin-script languages)"


def _codes(languages) -> set:
    if isinstance(languages, str):  # the API's language="eng+deu"
        languages = languages.split("+")
    return set(languages or ()) or {"eng"}  # OCRmyPDF's default


def ocrforge_lang(languages) -> str:
    """The ocrforge model set for OCRmyPDF's -l languages (a set of codes).

    Raises MissingDependencyError naming a language ocrforge has no set for."""
    langs = _codes(languages)
    unknown = sorted(langs - KNOWN)
    if unknown:
        raise MissingDependencyError(
            f"ocrforge has no model set for -l {'+'.join(unknown)}: its sets are {SETS}; "
            "use -l eng or -l chi_sim, or choose with --ocrforge-args '--lang en' / '--lang ch'"
        )
    return "ch" if langs & CHINESE else "en"


def explicit_lang(ocrforge_args: str) -> str | None:
    """The --lang given in --ocrforge-args, if any (it wins over -l)."""
    words = shlex.split(ocrforge_args or "")
    found = None
    for i, w in enumerate(words):
        if w == "--lang" and i + 1 < len(words):
            found = words[i + 1]
        elif w.startswith("--lang="):
            found = w.split("=", 1)[1]
    return found


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
        help="further `ocrforge ocr` flags, as one string (a --lang here wins over -l)",
    )
    group.add_argument(
        "--ocrforge-min-dpi",
        type=float,
        default=DEFAULT_MIN_DPI,
        metavar="DPI",
        help="page images under this resolution are resampled to --ocrforge-resample-dpi "
        f"before ocrforge reads them (default {DEFAULT_MIN_DPI:g}; 0: never)",
    )
    group.add_argument(
        "--ocrforge-resample-dpi",
        type=float,
        default=DEFAULT_RESAMPLE_DPI,
        metavar="DPI",
        help=f"the resolution low-resolution page images are resampled to (default {DEFAULT_RESAMPLE_DPI:g})",
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
    if options.ocrforge_min_dpi < 0:
        raise BadArgsError("--ocrforge-min-dpi must be 0 (never resample) or a resolution")
    if options.ocrforge_resample_dpi <= 0:
        raise BadArgsError("--ocrforge-resample-dpi must be a resolution (> 0)")
    if explicit_lang(options.ocrforge_args) is None:
        lang = ocrforge_lang(getattr(options, "languages", None))
        odd = sorted(_codes(getattr(options, "languages", None)) - {"eng"})
        if lang == "en" and odd:
            log.warning(
                "-l %s: ocrforge reads it with its en set, whose dictionary has few accented "
                "letters (é è à ü í ó ú, not ö ß ç ñ ł ...): such letters are misread",
                "+".join(odd),
            )
    if options.pdf_renderer == "auto":
        options.pdf_renderer = "sandwich"


def _image_dpi(path: Path) -> float:
    """The resolution OCRmyPDF wrote into the page image (square)."""
    from PIL import Image  # OCRmyPDF's own dependency

    with Image.open(path) as im:
        dpi = im.info.get("dpi", (300, 300))
    # PNG stores pixels per metre: 100 ppi reads back as 99.9998, 72 as 72.009
    return round(float(max(dpi[0], dpi[1])), 1) or 300.0


def _threads(options) -> int:
    # OCRmyPDF runs pages side by side (--jobs): share the cores among them.
    jobs = max(1, int(getattr(options, "jobs", 1) or 1))
    return max(1, (os.cpu_count() or 1) // jobs)


class _Page:
    """The image ocrforge reads: OCRmyPDF's page image, or when that is
    under --ocrforge-min-dpi a copy resampled to --ocrforge-resample-dpi.
    scale = its pixels per pixel of the page image."""

    def __init__(self, input_file: Path, options, work: Path):
        from PIL import Image

        self.dpi = _image_dpi(input_file)
        self.path = input_file
        self.scale = 1.0
        self.size = None
        min_dpi = float(getattr(options, "ocrforge_min_dpi", DEFAULT_MIN_DPI) or 0.0)
        to_dpi = float(getattr(options, "ocrforge_resample_dpi", DEFAULT_RESAMPLE_DPI) or DEFAULT_RESAMPLE_DPI)
        if not min_dpi or self.dpi >= min_dpi or to_dpi <= self.dpi:
            return
        with Image.open(input_file) as im:
            self.size = im.size
            f = min(to_dpi / self.dpi, (MAX_PIXELS / (im.width * im.height)) ** 0.5)
            if f <= 1.0:
                return
            w, h = round(im.width * f), round(im.height * f)
            if im.mode not in ("L", "RGB"):
                # bilevel and palette images: resample their grey / colour values
                im = im.convert("L" if im.mode in ("1", "LA", "I", "I;16", "F") else "RGB")
            up = im.resize((w, h), Image.BILINEAR)
        self.scale = w / self.size[0]
        self.dpi *= self.scale
        (work / "in").mkdir(parents=True)
        # BMP: written and decoded fastest (a PNG of a 300-ppi page costs ~0.3 s more)
        self.path = work / "in" / (input_file.stem + ".bmp")
        up.save(self.path, dpi=(self.dpi, self.dpi))
        log.debug("%s: %gx%g px resampled to %dx%d for ocrforge", input_file, *self.size, w, h)


def _run_ocrforge(input_file: Path, formats: str, options, extra: list[str]) -> tuple[Path, _Page]:
    """Runs `ocrforge ocr` on one page image; returns its output folder."""
    out_dir = Path(tempfile.mkdtemp(prefix="ocrforge_page_"))
    try:
        page = _Page(input_file, options, out_dir)
    except Exception:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    lang = [] if explicit_lang(options.ocrforge_args) else ["--lang", ocrforge_lang(getattr(options, "languages", None))]
    cmd = [
        options.ocrforge_binary,
        "ocr",
        "--image_dir",
        os.fspath(page.path),
        "--draw_img_save_dir",
        os.fspath(out_dir),
        "--visualize",
        "false",
        "--cpu_threads",
        str(_threads(options)),
        "--image_dpi",
        f"{page.dpi:g}",
        "--output_format",
        formats,
        *lang,
        *extra,
        *shlex.split(options.ocrforge_args),
    ]
    log.debug("running %s", " ".join(cmd))
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if proc.returncode != 0:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise SubprocessOutputError(f"ocrforge failed on {input_file}: {proc.stderr.strip()}")
    return out_dir, page


def _take(out_dir: Path, stem: str, ext: str, dest: Path) -> None:
    produced = out_dir / f"{stem}{ext}"
    if not produced.exists():
        raise SubprocessOutputError(f"ocrforge wrote no {produced.name}")
    shutil.move(os.fspath(produced), os.fspath(dest))


_TITLE = re.compile(r'title="([^"]*)"')
_PROP = re.compile(r"(bbox|baseline|x_size|scan_res)((?: -?[0-9.]+)+)")


def scale_hocr(text: str, scale: float, size: tuple[int, int], dpi: float, image_name: str) -> str:
    """hOCR read from an image resampled by `scale`, in the pixels of the
    original image (`size`, `dpi`): boxes, baselines and x_size divided by
    `scale`, the page's bbox and scan_res those of the original."""

    def prop(m):
        name, nums = m.group(1), m.group(2).split()
        if name == "bbox":
            vals = [str(round(float(v) / scale)) for v in nums]
        elif name == "baseline":  # slope (unchanged), offset in pixels
            vals = [nums[0]] + [str(round(float(v) / scale)) for v in nums[1:]]
        elif name == "scan_res":
            vals = [f"{dpi:g}"] * len(nums)
        else:
            vals = [f"{float(v) / scale:.4g}" for v in nums]
        return name + " " + " ".join(vals)

    def title(m):
        t = m.group(1)
        if "ppageno" in t or "scan_res" in t:  # the ocr_page
            t = re.sub(r"bbox 0 0 [0-9]+ [0-9]+", f"bbox 0 0 {size[0]} {size[1]}", t, count=1)
            t = re.sub(r"image &quot;[^&]*&quot;", f"image &quot;{image_name}&quot;", t, count=1)
            t = _PROP.sub(lambda p: p.group(0) if p.group(1) == "bbox" else prop(p), t)
        else:
            t = _PROP.sub(prop, t)
        return f'title="{t}"'

    return _TITLE.sub(title, text)


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
        # With --lang in --ocrforge-args, -l only names the document's languages.
        if explicit_lang(getattr(options, "ocrforge_args", "")):
            return set(KNOWN) | set(getattr(options, "languages", None) or ())
        return set(KNOWN)

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
        out_dir, page = _run_ocrforge(Path(input_file), "hocr,txt", options, [])
        try:
            stem = Path(input_file).stem
            _take(out_dir, stem, ".hocr", Path(output_hocr))
            _take(out_dir, stem, ".txt", Path(output_text))
            if page.scale != 1.0:
                hocr = Path(output_hocr)
                hocr.write_text(
                    scale_hocr(hocr.read_text(encoding="utf-8"), page.scale, page.size, _image_dpi(Path(input_file)),
                               Path(input_file).name),
                    encoding="utf-8",
                )
        finally:
            shutil.rmtree(out_dir, ignore_errors=True)

    @staticmethod
    def generate_pdf(input_file, output_pdf, output_text, options):
        # The text-only page is the page's size in points whatever the
        # resampling (its pixels / its dpi); OCRmyPDF fits it onto the page.
        out_dir, _ = _run_ocrforge(Path(input_file), "pdf,txt", options, ["--textonly_pdf", "true"])
        try:
            stem = Path(input_file).stem
            _take(out_dir, stem, ".pdf", Path(output_pdf))
            _take(out_dir, stem, ".txt", Path(output_text))
        finally:
            shutil.rmtree(out_dir, ignore_errors=True)


@hookimpl
def get_ocr_engine():
    return OcrforgeEngine()
