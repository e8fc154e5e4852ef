"""The per-page texts the page scorers (bow_f1.py, line_match.py) compare:
the region transcriptions of a PaddleOCR-style label / system_results file,
and Tesseract's output pages. Each scorer turns them into its own units."""
import json
import os

IGNORED = ("###", "*")  # PaddleOCR's "do not care" transcriptions


def label_regions(path):
    """{image basename: [transcription, ...]} of a `path<TAB>[{...}]` file."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            name, js = line.rstrip("\n").split("\t", 1)
            out[os.path.basename(name)] = [r["transcription"] for r in json.loads(js)]
    return out


def tesseract_pages(path, list_path):
    """{image basename: page text}: OUTPUT.txt's pages (split at form feeds) in LIST.txt's order."""
    with open(list_path, encoding="utf-8") as f:
        names = [os.path.basename(l.strip()) for l in f if l.strip()]
    with open(path, encoding="utf-8", errors="replace") as f:
        pages = f.read().split("\f")
    return {n: pages[i] if i < len(pages) else "" for i, n in enumerate(names)}
