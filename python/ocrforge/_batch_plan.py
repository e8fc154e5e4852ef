"""What a batch reads and where each input's files go (ocrforge.dask).

Inputs are files and folders (a folder: its images and PDFs sorted by name,
as ``ocrforge ocr --image_dir`` lists them; with ``recursive`` every
subfolder too). Paths are made absolute, since workers on other machines
must find them, and they appear so in the outputs (``input_path`` of
``*_res.json``), as ``ocrforge ocr --image_dir /absolute/folder`` writes them.

Each input's files go to ``OUT/<its folder relative to the inputs' common
folder>``: ``/data/a/scan.pdf`` and ``/data/b/scan.pdf`` read together write
``OUT/a/scan.pdf`` 's files and ``OUT/b/...``, so inputs with the same name
in different folders never collide, and one folder given alone writes into
``OUT`` itself, as ``ocrforge ocr --image_dir FOLDER --draw_img_save_dir OUT``.
Within one output folder the names are the CLI's (``output_stems``: ``a.jpg``
and ``a.png`` become ``a.jpg_res.json`` and ``a.png_res.json``).

A unit of work is one file, or a range of a PDF's pages: a PDF is split so
that it spreads over the cluster (``unit_pages``).
"""
import hashlib
import math
import os
from concurrent.futures import ThreadPoolExecutor

from . import _ocrforge

DOCUMENT_EXTENSIONS = [".pdf"]
# Pages per unit for a PDF when not given: enough units for every worker
# thread to get two of a long PDF, but at most this many pages (a unit that
# dies is read again whole) and at least one.
MAX_AUTO_UNIT_PAGES = 32


class Input:
    """One input file and the names of its outputs."""

    __slots__ = ("path", "out_dir", "stem", "order")

    def __init__(self, path, out_dir, stem, order):
        self.path, self.out_dir, self.stem, self.order = path, out_dir, stem, order

    @property
    def is_pdf(self):
        return self.path.lower().endswith(".pdf")


class Unit:
    """Pages [first, first + count) of one input (count -1: the whole file)."""

    __slots__ = ("input", "first", "count", "parts")

    def __init__(self, inp, first, count, parts):
        self.input, self.first, self.count, self.parts = inp, first, count, parts

    @property
    def id(self):
        """Stable over reruns: the manifest's name of this unit."""
        return f"{self.input.path}#{self.first}"

    @property
    def key(self):
        """A short hash of the id, for Dask keys and marker file names."""
        return hashlib.sha1(self.id.encode("utf-8", "surrogateescape")).hexdigest()[:20]

    @property
    def split(self):
        """One of several units of its input: its documents are assembled later."""
        return self.parts > 1


def _folder_images(folder):
    try:
        return _ocrforge.list_images(folder, DOCUMENT_EXTENSIONS)
    except RuntimeError:  # a folder without images
        return []


def _within(path, folder):
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def list_inputs(paths, out, recursive=False):
    """The input files of `paths` as Input objects, in order; ValueError for
    a missing path, a folder without images or an output folder that would
    mix with the inputs (the CLI's rule, refuse_output_in_input)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files, folders = [], []
    for p in paths:
        p = os.path.abspath(os.fsdecode(os.fspath(p)))
        if os.path.isdir(p):
            if _within(out, p):
                raise ValueError(f"--out {out!r} is inside the input folder {p!r}: outputs would mix with the "
                                 "inputs; choose another folder")
            folders.append(p)
            listed = []
            if recursive:
                for dirpath, dirnames, _ in os.walk(p):
                    dirnames.sort()
                    listed.extend(_folder_images(dirpath))
            else:
                listed = _folder_images(p)
            if not listed:
                hint = "" if recursive else " (recursive=True reads subfolders)"
                raise ValueError(f"no images or PDFs in {p!r}{hint}")
            files.extend(listed)
        elif os.path.exists(p):
            if os.path.realpath(out) == os.path.realpath(os.path.dirname(p)):
                raise ValueError(f"--out {out!r} is the folder of the input {p!r}; choose another folder")
            files.append(p)
        else:
            raise ValueError(f"input {p!r} does not exist")
    seen, unique = set(), []
    for f in files:
        if f not in seen:
            seen.add(f)
            unique.append(f)
    if not unique:
        raise ValueError("no inputs given")
    root = os.path.commonpath(folders + [os.path.dirname(f) for f in unique])
    by_dir = {}
    for f in unique:
        rel = os.path.relpath(os.path.dirname(f), root)
        by_dir.setdefault(os.path.normpath(os.path.join(out, rel)), []).append(f)
    stems = {}
    for out_dir, group in by_dir.items():
        for f, stem in _ocrforge.output_stems(group).items():
            stems[f] = (out_dir, stem)
    return [Input(f, stems[f][0], stems[f][1], i) for i, f in enumerate(unique)]


def auto_unit_pages(pages, threads):
    return max(1, min(MAX_AUTO_UNIT_PAGES, math.ceil(pages / max(1, 2 * threads))))


def count_pdf_pages(flags, pdfs, threads=8):
    """{path: number of selected pages or the error text} of each PDF
    (qpdf reads the page tree; the C++ call releases the GIL, so a few run
    at once)."""

    def count(path):
        try:
            return path, len(_ocrforge.document_pages(flags, path))
        except (RuntimeError, ValueError, OSError) as e:
            return path, str(e)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        return dict(pool.map(count, pdfs))


def units_of(inp, pages, unit_pages):
    """The units of one input: a PDF of `pages` selected pages in ranges of
    `unit_pages`; anything else (or an unknown count) one unit."""
    if not isinstance(pages, int) or pages <= unit_pages:
        return [Unit(inp, 0, -1, 1)]
    starts = range(0, pages, unit_pages)
    return [Unit(inp, s, min(unit_pages, pages - s), len(starts)) for s in starts]
