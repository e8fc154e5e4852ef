#!/usr/bin/env python3
"""Line accuracy of `ocrforge infer rec` on recognition crops against their
label file: exact match (case, punctuation and spaces count) and normalised
edit similarity (1 - edit distance / longer length), as RecMetric.

    rec_crops_score.py REC_GT.txt DATA_DIR INFER_OUTPUT.txt [WRONG_OUT.tsv]

REC_GT.txt lines: path<TAB>text, paths relative to DATA_DIR; the infer run's
printed paths are made relative to DATA_DIR too (run it from the folder that
DATA_DIR is relative to, or give absolute paths). WRONG_OUT.tsv (optional): every wrong crop as
path<TAB>label<TAB>prediction<TAB>score.
"""
import os
import re
import sys

# ocrforge prints the text between quotes without escaping: the last "', " splits.
LINE = re.compile(r"^Predicts of (.*?):\('(.*)', ([0-9.eE+-]+)\)\s*$")


def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def main():
    gt_path, data_dir, pred_path = sys.argv[1:4]
    gt = {}
    with open(gt_path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if "\t" not in line:
                continue
            p, t = line.split("\t", 1)
            gt[os.path.normpath(p)] = t
    pred = {}
    with open(pred_path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if not m:
                continue
            text, score = m.group(2), float(m.group(3))
            p = os.path.normpath(m.group(1))
            rel = os.path.normpath(os.path.relpath(p, data_dir))
            pred[rel if rel in gt else p] = (text, score)
    n = exact = 0
    sim = 0.0
    wrong = []
    for p, t in gt.items():
        if p not in pred:
            continue
        text, score = pred[p]
        n += 1
        if text == t:
            exact += 1
        else:
            wrong.append((p, t, text, score))
        sim += 1 - edit_distance(text, t) / max(len(text), len(t), 1)
    print(f"crops={n} of {len(gt)} exact={exact / n if n else 0:.4f} norm_edit_sim={sim / n if n else 0:.4f}")
    if len(sys.argv) > 4:
        with open(sys.argv[4], "w", encoding="utf-8") as f:
            for w in wrong:
                f.write("\t".join(str(x) for x in w) + "\n")


if __name__ == "__main__":
    main()
