#!/usr/bin/env python3
"""Two-column pages from labelled single-column ones, for measuring reading
order on multi-column layouts: each pair of consecutive pages is put side by
side (heights padded with white, a gutter between them), and the pair's
labels are the left page's regions followed by the right page's, shifted.

    side_by_side.py GT_DET_LABELS IMAGE_ROOT N OUT_DIR

GT_DET_LABELS: PaddleOCR detection labels (paths relative to IMAGE_ROOT);
the first 2N labelled images make N pages in OUT_DIR/images, labelled in
OUT_DIR/det_gt.txt. Needs OpenCV's Python module or Pillow (Debian's
python3-pil, which OCRmyPDF depends on).
"""
import json
import os
import sys

from PIL import Image


def main():
    gt_path, root, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    entries = []
    with open(gt_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, js = line.rstrip("\n").split("\t", 1)
                entries.append((name, json.loads(js)))
    labels = []
    for k in range(n):
        (ln, lr), (rn, rr) = entries[2 * k], entries[2 * k + 1]
        left = Image.open(os.path.join(root, ln)).convert("RGB")
        right = Image.open(os.path.join(root, rn)).convert("RGB")
        gutter = max(40, left.width // 12)
        page = Image.new("RGB", (left.width + gutter + right.width, max(left.height, right.height)), "white")
        page.paste(left, (0, 0))
        dx = left.width + gutter
        page.paste(right, (dx, 0))
        name = f"pair_{k:03d}.png"
        page.save(os.path.join(out, "images", name))
        shifted = [{"transcription": r["transcription"], "points": [[x + dx, y] for x, y in r["points"]]} for r in rr]
        labels.append(f"images/{name}\t" + json.dumps(lr + shifted, ensure_ascii=False))
    with open(os.path.join(out, "det_gt.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(labels) + "\n")


if __name__ == "__main__":
    main()
