#!/usr/bin/env python3
"""Word boxes of `ocrforge ocr --output_format tsv` against FUNSD's word
annotations.

    word_boxes.py FUNSD_ANNOTATIONS_DIR OUT_DIR

Each TSV word (level 5) is paired with the unused annotated word of the same
page that has the same text (compared lower-case, punctuation kept) and the
nearest centre; printed: how many TSV words found such a pair, the median
IoU of the paired boxes, and the share with IoU >= 0.5.
"""
import json
import os
import sys


def iou(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def main():
    ann_dir, out_dir = sys.argv[1], sys.argv[2]
    ious, words = [], 0
    for name in sorted(os.listdir(out_dir)):
        if not name.endswith(".tsv"):
            continue
        ann = os.path.join(ann_dir, name[:-4] + ".json")
        if not os.path.exists(ann):
            continue
        gt = [(w["text"].lower(), w["box"]) for seg in json.load(open(ann))["form"] for w in seg["words"]]
        used = set()
        with open(os.path.join(out_dir, name), encoding="utf-8") as f:
            for row in f:
                c = row.rstrip("\n").split("\t")
                if c[0] != "5":
                    continue
                words += 1
                l, t, w, h = map(int, c[6:10])
                box = (l, t, l + w, t + h)
                cx, cy = l + w / 2, t + h / 2
                best, best_d = None, None
                for k, (text, g) in enumerate(gt):
                    if k in used or text != c[11].lower():
                        continue
                    d = (cx - (g[0] + g[2]) / 2) ** 2 + (cy - (g[1] + g[3]) / 2) ** 2
                    if best_d is None or d < best_d:
                        best, best_d = k, d
                if best is not None:
                    used.add(best)
                    ious.append(iou(box, gt[best][1]))
    ious.sort()
    n = len(ious)
    if n == 0:
        sys.exit("no word paired")
    print(f"tsv words {words}, paired by text {n}, median IoU {ious[n // 2]:.3f}, "
          f"IoU >= 0.5: {sum(1 for v in ious if v >= 0.5) / n:.3f}")


if __name__ == "__main__":
    main()
