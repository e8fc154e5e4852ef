#!/usr/bin/env python3
"""Line exact match of whole-page OCR output against PaddleOCR-style detection
labels: the share of ground-truth lines whose text (case, punctuation and
spaces count; outer white space trimmed) is one of the page's output lines.

    line_match.py GT_DET_LABELS ocrforge SYSTEM_RESULTS.txt
    line_match.py GT_DET_LABELS tesseract OUTPUT.txt LIST.txt   # pages split at \\f

Per image, matched = size of the multiset intersection of the two line sets.
"###" / "*" regions are left out. Only images the output covers count.
A detector that splits or joins the labelled segments differently loses those
lines even when every word is right: read it beside bow_f1.py.
"""
import sys
from collections import Counter

from page_texts import IGNORED, label_regions, tesseract_pages


def read_gt(path):
    return {n: Counter(t.strip() for t in ts if t not in IGNORED and t.strip()) for n, ts in label_regions(path).items()}


def read_ocrforge(path):
    return {n: Counter(t.strip() for t in ts) for n, ts in label_regions(path).items()}


def read_tesseract(path, list_path):
    return {n: Counter(l.strip() for l in page.split("\n") if l.strip())
            for n, page in tesseract_pages(path, list_path).items()}


def main():
    gt = read_gt(sys.argv[1])
    pred = read_ocrforge(sys.argv[3]) if sys.argv[2] == "ocrforge" else read_tesseract(sys.argv[3], sys.argv[4])
    matched = n_gt = images = 0
    for name, g in gt.items():
        if name not in pred:
            continue
        images += 1
        matched += sum((g & pred[name]).values())
        n_gt += sum(g.values())
    print(f"images={images} lines_gt={n_gt} lines_matched={matched} "
          f"line_exact={matched / n_gt if n_gt else 0.0:.4f}")


if __name__ == "__main__":
    main()
