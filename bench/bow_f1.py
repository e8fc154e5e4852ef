#!/usr/bin/env python3
"""Bag-of-words accuracy of whole-page OCR output against PaddleOCR-style
detection labels (the transcriptions of the ground-truth boxes).

    bow_f1.py GT_DET_LABELS ocrforge SYSTEM_RESULTS.txt
    bow_f1.py GT_DET_LABELS tesseract OUTPUT.txt LIST.txt   # pages split at \f

Words: text split at white space, lower-cased, punctuation stripped at both
ends; "###" / "*" ground-truth regions are left out. Per image, matched =
size of the multiset intersection; printed: micro precision, recall, F1 over
the images of the ground truth that the output covers.
"""
import json
import os
import string
import sys
from collections import Counter


def words(text):
    out = []
    for w in text.split():
        w = w.strip(string.punctuation).lower()
        if w:
            out.append(w)
    return out


def read_gt(path):
    gt = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            name, js = line.rstrip("\n").split("\t", 1)
            regions = json.loads(js)
            gt[os.path.basename(name)] = Counter(
                w for r in regions if r["transcription"] not in ("###", "*") for w in words(r["transcription"]))
    return gt


def read_ocrforge(path):
    pred = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            name, js = line.rstrip("\n").split("\t", 1)
            pred[os.path.basename(name)] = Counter(w for r in json.loads(js) for w in words(r["transcription"]))
    return pred


def read_tesseract(path, list_path):
    with open(list_path, encoding="utf-8") as f:
        names = [os.path.basename(l.strip()) for l in f if l.strip()]
    with open(path, encoding="utf-8", errors="replace") as f:
        pages = f.read().split("\f")
    return {n: Counter(words(pages[i] if i < len(pages) else "")) for i, n in enumerate(names)}


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
