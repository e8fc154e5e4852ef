#!/usr/bin/env python3
"""The table of docs/config.md: `ocrforge check -c` on every PaddleOCR config
listed in configs/paddleocr_files.txt, one Markdown row each.

    scripts/paddleocr_config_table.py [BUILD_DIR]   (run from the checkout)

A passing config shows its parameter count and its warnings in short; a
refused one every problem check lists, shortened to the piece it names
(key, backbone, head, dataset, transform, ...).
"""
import re
import subprocess
import sys

SHORT = [
    (re.compile(r"unknown config key '([^']*)'"), lambda m: "key `%s`" % re.sub(r"\[\d+\]", "", m.group(1))),
    (re.compile(r"unknown (backbone|neck|head|dataset|transform|loss) '([^']*)'"), lambda m: "%s `%s`" % m.groups()),
]
WARN = [
    ("no usable CUDA device", "no CUDA here"),
    ("Backbone.pretrained", "a backbone's ImageNet download (set it to false)"),
    ("pretrained_model", "pretrained_model missing"),
    (".pretrained", "a member's pretrained weights missing"),
    ("does not exist", "data missing"),
    ("frozen", "frozen member without pretrained weights"),
]


def shorten(problem):
    for pattern, fmt in SHORT:
        m = pattern.search(problem)
        if m:
            return fmt(m)
    return problem.strip().rstrip(".")


def row(binary, path):
    r = subprocess.run([binary, "check", "-c", path], capture_output=True, text=True)
    out = r.stdout + r.stderr
    if r.returncode == 0:
        m = re.search(r"network: ([\d,]+) parameters", out)
        warnings = []
        for line in out.splitlines():
            if line.startswith("WARNING: "):
                for needle, short in WARN:
                    if needle in line and short not in warnings:
                        warnings.append(short)
                        break
        text = (m.group(1) if m else "?") + " parameters"
        if warnings:
            text += "; warnings: " + ", ".join(warnings)
        return "| `%s` | passes | %s |" % (path, text)
    problems = [l[4:] for l in out.splitlines() if l.startswith("  - ")]
    if not problems:  # one problem: the FAILED line (its own explanation lines follow it)
        failed = [l for l in out.splitlines() if ": FAILED: " in l]
        problems = [failed[0].split(": FAILED: ", 1)[1] if failed else out.strip().splitlines()[-1]]
    seen = []
    for p in problems:
        s = shorten(p)
        if s not in seen:
            seen.append(s)
    return "| `%s` | no | %s |" % (path, "; ".join(seen).replace("|", "\\|"))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    binary = build + "/ocrforge"
    rows, passed = [], 0
    with open("configs/paddleocr_files.txt") as f:
        for line in f:
            path = line.strip()
            if not path or path.startswith("#"):
                continue
            r = row(binary, path)
            passed += "| passes |" in r
            rows.append(r)
    print("| config | `check -c` | what it needs (every problem `check -c` lists) |")
    print("|---|---|---|")
    print("\n".join(rows))
    print("\n%d of %d pass." % (passed, len(rows)))


if __name__ == "__main__":
    main()
