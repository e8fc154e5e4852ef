#!/usr/bin/env python3
"""Restores letter case in a label file whose labels were upper-cased, from a
recognizer's reading of the same crops (SROIE's labels are all upper case,
whatever the receipt prints; trained on as they are, a model learns to write
upper-case letters where the picture has lower-case ones).

    case_from_reading.py REC_GT.txt DATA_DIR INFER_OUTPUT.txt OUT.txt

REC_GT.txt: path<TAB>text, paths relative to DATA_DIR. INFER_OUTPUT.txt: what
`ocrforge infer rec --image_dir DATA_DIR/...` printed ("Predicts of PATH:('text', score)").
A word of the label takes the reading's case only where the reading has the
same word apart from case (words split at single spaces, same word count);
everything else keeps the label's text, so the label's characters never
change, only their case. Prints how many lines and words changed.
"""
import os
import re
import sys

# ocrforge prints the text between quotes without escaping: the last "', " splits.
LINE = re.compile(r"^Predicts of (.*?):\('(.*)', ([0-9.eE+-]+)\)\s*$")


def recased(label, reading):
    """The label with the case of each word the reading agrees with, and the count of recased words."""
    if label.lower() == reading.lower():
        return reading, sum(1 for a, b in zip(label.split(" "), reading.split(" ")) if a != b)
    lw, rw = label.split(" "), reading.split(" ")
    if len(lw) != len(rw):
        return label, 0
    out, changed = [], 0
    for a, b in zip(lw, rw):
        if a != b and a.lower() == b.lower():
            out.append(b)
            changed += 1
        else:
            out.append(a)
    return " ".join(out), changed


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    gt_path, data_dir, pred_path, out_path = sys.argv[1:5]
    readings = {}
    with open(pred_path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if m:
                readings[os.path.normpath(os.path.relpath(m.group(1), data_dir))] = m.group(2)
    if not readings:
        sys.exit(f"case_from_reading: no 'Predicts of' lines in {pred_path}: is it the output of `ocrforge infer rec`?")
    lines = words = missing = total = 0
    with open(gt_path, encoding="utf-8") as f, open(out_path + ".tmp", "w", encoding="utf-8") as out:
        for line in f:
            line = line.rstrip("\n")
            if "\t" not in line:
                continue
            path, text = line.split("\t", 1)
            total += 1
            reading = readings.get(os.path.normpath(path))
            if reading is None:
                missing += 1
                new, n = text, 0
            else:
                new, n = recased(text, reading)
            lines += new != text
            words += n
            out.write(f"{path}\t{new}\n")
    os.replace(out_path + ".tmp", out_path)
    print(f"case_from_reading: {lines} of {total} lines recased ({words} words); {missing} crops had no reading")
    if missing * 2 > total:
        sys.exit(f"case_from_reading: most crops of {gt_path} have no reading in {pred_path}: wrong DATA_DIR?")


if __name__ == "__main__":
    main()
