#!/usr/bin/env python3
"""Bag-of-words accuracy of whole-page OCR output against PaddleOCR-style
detection labels (the transcriptions of the ground-truth boxes).

    bow_f1.py GT_DET_LABELS ocrforge SYSTEM_RESULTS.txt
    bow_f1.py GT_DET_LABELS tesseract OUTPUT.txt LIST.txt   # pages split at \f

Words: text split at white space, lower-cased (kept as they are with
BOW_KEEP_CASE=1 in the environment), punctuation stripped at both ends; "###" / "*" ground-truth regions are left out. Per image, matched =
size of the multiset intersection; printed: micro precision, recall, F1 over
the images of the ground truth that the output covers.
"""
import os
import string
import sys
from collections import Counter

from page_texts import IGNORED, label_regions, tesseract_pages


KEEP_CASE = os.environ.get("BOW_KEEP_CASE") == "1"


def words(text):
    out = []
    for w in text.split():
        w = w.strip(string.punctuation)
        w = w if KEEP_CASE else w.lower()
        if w:
            out.append(w)
    return out


def read_gt(path):
    return {n: Counter(w for t in ts if t not in IGNORED for w in words(t)) for n, ts in label_regions(path).items()}


def read_ocrforge(path):
    return {n: Counter(w for t in ts for w in words(t)) for n, ts in label_regions(path).items()}


def read_tesseract(path, list_path):
    return {n: Counter(words(page)) for n, page in tesseract_pages(path, list_path).items()}


def main():
    gt = read_gt(sys.argv[1])
    pred = read_ocrforge(sys.argv[3]) if sys.argv[2] == "ocrforge" else read_tesseract(sys.argv[3], sys.argv[4])
    tp = n_pred = n_gt = images = 0
    for name, g in gt.items():
        if name not in pred:
            continue
        images += 1
        p = pred[name]
        tp += sum((g & p).values())
        n_pred += sum(p.values())
        n_gt += sum(g.values())
    prec = tp / n_pred if n_pred else 0.0
    rec = tp / n_gt if n_gt else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    print(f"images={images} words_gt={n_gt} words_pred={n_pred} matched={tp} "
          f"precision={prec:.4f} recall={rec:.4f} f1={f1:.4f}")


if __name__ == "__main__":
    main()
