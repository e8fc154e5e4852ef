#!/usr/bin/env python3
"""Stands in for the person who corrects lines read by `ocr --save_label`,
using labels already held: each line (a detected box) gets the transcription
of the ground-truth boxes whose centres fall inside it (left to right,
joined by spaces; its other fields, such as "score", are kept); a line that
holds no ground-truth centre is dropped (a person would mark it unreadable).
Also draws the random baseline: N lines of a label file, scores dropped.

    correct_from_labels.py correct SELECTED.txt GT_DET.txt OUT.txt
    correct_from_labels.py random LABEL.txt N SEED OUT.txt

SELECTED / LABEL: PPOCRLabel files (`path<TAB>[{"transcription", "points",
...}]`, as `ocr --save_label` and `data select` write); GT_DET: PaddleOCR
detection labels of the same pages. Pages are matched by file name.
"""
import json
import os
import random
import sys


def read_pages(path):
    pages = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if "\t" not in line:
                continue
            p, boxes = line.split("\t", 1)
            pages.append((p, json.loads(boxes)))
    return pages


def write_pages(path, pages):
    with open(path, "w", encoding="utf-8") as f:
        for p, boxes in pages:
            if boxes:
                f.write(p + "\t" + json.dumps(boxes, ensure_ascii=False) + "\n")


def rect(points):
    xs = [q[0] for q in points]
    ys = [q[1] for q in points]
    return min(xs), min(ys), max(xs), max(ys)


def correct(selected_path, gt_path, out_path):
    gt = {os.path.basename(p): boxes for p, boxes in read_pages(gt_path)}
    out, kept, dropped = [], 0, 0
    for p, boxes in read_pages(selected_path):
        truth = gt.get(os.path.basename(p), [])
        fixed = []
        for b in boxes:
            x0, y0, x1, y1 = rect(b["points"])
            inside = []
            for t in truth:
                if t["transcription"] == "###":
                    continue
                tx0, ty0, tx1, ty1 = rect(t["points"])
                cx, cy = (tx0 + tx1) / 2, (ty0 + ty1) / 2
                if x0 <= cx <= x1 and y0 <= cy <= y1:
                    inside.append((tx0, t["transcription"]))
            if not inside:
                dropped += 1
                continue
            inside.sort()
            kept += 1
            fixed.append(dict(b, transcription=" ".join(t for _, t in inside)))
        out.append((p, fixed))
    write_pages(out_path, out)
    print(f"corrected {kept} lines, dropped {dropped} (no ground-truth box inside) -> {out_path}")


def draw_random(label_path, n, seed, out_path):
    pages = read_pages(label_path)
    lines = [(i, j) for i, (_, boxes) in enumerate(pages) for j in range(len(boxes))]
    pick = set(random.Random(seed).sample(lines, min(n, len(lines))))
    out = []
    for i, (p, boxes) in enumerate(pages):
        chosen = [{k: v for k, v in b.items() if k != "score"} for j, b in enumerate(boxes) if (i, j) in pick]
        out.append((p, chosen))
    write_pages(out_path, out)
    print(f"drew {len(pick)} of {len(lines)} lines at random (seed {seed}) -> {out_path}")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "correct":
        correct(*sys.argv[2:5])
    elif len(sys.argv) == 6 and sys.argv[1] == "random":
        draw_random(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
