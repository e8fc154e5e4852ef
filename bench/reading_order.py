#!/usr/bin/env python3
"""How well ocrforge's reading order agrees with the label order of page
transcriptions, before (detection order: system_results.txt) and after
(reading order: the --output_format tsv / txt files).

    reading_order.py GT_DET_LABELS OUT_DIR

GT_DET_LABELS: a PaddleOCR detection label file whose regions are listed in
the labels' order (SROIE: line by line, top to bottom; FUNSD: its
annotation order). OUT_DIR: an `ocrforge ocr --output_format tsv,txt`
output folder (system_results.txt, <stem>.tsv, <stem>.txt) over those images.

Per page:
- Kendall's tau between the order in which ocrforge reaches the labelled
  regions and the label order: every detected line (before) or word (after)
  is assigned the region that holds most of its box (at least half); the
  regions reached in both orders are ranked by first arrival. 1 = same
  order, 0 = unrelated, -1 = reversed.
- the character edit distance between the page's text in ocrforge's order
  and the label text (regions joined by spaces), divided by the longer of
  the two: recognition errors weigh the same in both orders, so the
  difference between before and after is what the order changes.
Printed: mean tau and mean normalised edit distance before and after, and
the number of pages.
"""
import json
import os
import sys


def box_of(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def region_of(box, regions):
    """Index of the region holding most of `box` (>= half of it), or None."""
    x0, y0, x1, y1 = box
    area = max(1e-6, (x1 - x0) * (y1 - y0))
    best, best_share = None, 0.5
    for i, (rx0, ry0, rx1, ry1) in enumerate(regions):
        w = min(x1, rx1) - max(x0, rx0)
        h = min(y1, ry1) - max(y0, ry0)
        if w > 0 and h > 0 and w * h / area >= best_share:
            best, best_share = i, w * h / area
    return best


def arrival(seq):
    order, seen = [], set()
    for r in seq:
        if r is not None and r not in seen:
            seen.add(r)
            order.append(r)
    return order


def kendall_tau(order):
    """tau between the positions in `order` and the sorted order."""
    n = len(order)
    if n < 2:
        return None
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            if order[i] < order[j]:
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


def edit_distance(a, b):
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def norm_distance(a, b):
    return edit_distance(a, b) / max(1, len(a), len(b))


def main():
    gt_path, out_dir = sys.argv[1], sys.argv[2]
    gt = {}
    with open(gt_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, js = line.rstrip("\n").split("\t", 1)
                gt[os.path.basename(name)] = [r for r in json.loads(js) if r["transcription"] not in ("###", "*")]
    before = {}
    with open(os.path.join(out_dir, "system_results.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, js = line.rstrip("\n").split("\t", 1)
                before[name] = json.loads(js)
    taus_b, taus_a, dist_b, dist_a = [], [], [], []
    for name, lines in sorted(before.items()):
        if name not in gt:
            continue
        stem = os.path.splitext(name)[0]
        tsv = os.path.join(out_dir, stem + ".tsv")
        txt = os.path.join(out_dir, stem + ".txt")
        if not os.path.exists(tsv):
            continue
        regions = [box_of(r["points"]) for r in gt[name]]
        seq_b = [region_of(box_of(l["points"]), regions) for l in lines]
        seq_a = []
        with open(tsv, encoding="utf-8") as f:
            for row in f:
                c = row.rstrip("\n").split("\t")
                if c[0] == "5":
                    l, t, w, h = map(int, c[6:10])
                    seq_a.append(region_of((l, t, l + w, t + h), regions))
        ob, oa = arrival(seq_b), arrival(seq_a)
        common = set(ob) & set(oa)
        tb = kendall_tau([r for r in ob if r in common])
        ta = kendall_tau([r for r in oa if r in common])
        if tb is None or ta is None:
            continue
        taus_b.append(tb)
        taus_a.append(ta)
        label_text = " ".join(" ".join(r["transcription"].split()) for r in gt[name])
        text_b = " ".join(" ".join(l["transcription"].split()) for l in lines)
        with open(txt, encoding="utf-8") as f:
            text_a = " ".join(f.read().split())
        dist_b.append(norm_distance(text_b, label_text))
        dist_a.append(norm_distance(text_a, label_text))
    n = len(taus_b)
    if n == 0:
        sys.exit("no page of the labels found in " + out_dir)
    print(f"pages {n}")
    print(f"kendall_tau before {sum(taus_b) / n:.3f} after {sum(taus_a) / n:.3f}")
    print(f"norm_edit_distance before {sum(dist_b) / n:.3f} after {sum(dist_a) / n:.3f}")
    better = sum(1 for b, a in zip(taus_b, taus_a) if a > b + 1e-9)
    worse = sum(1 for b, a in zip(taus_b, taus_a) if a < b - 1e-9)
    print(f"pages with higher tau {better}, lower {worse}")


if __name__ == "__main__":
    main()
