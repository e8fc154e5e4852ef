#!/usr/bin/env python3
"""OCRmyPDF + Tesseract vs OCRmyPDF + the ocrforge plugin on low-resolution
scans: bag-of-words F1 against the labels and seconds per page.

    /usr/bin/python3 bench/ocrmypdf/run.py --data ../shared/data --set report --rounds 2

Needs Debian's ocrmypdf (its python3 has img2pdf and PIL), tesseract-ocr-eng,
poppler-utils and a built ocrforge (--ocrforge). Results: docs/ocrmypdf.md.

1. Pages: labelled FUNSD forms and SROIE receipts from --data, resampled
   (area average, as a scanner's sensor does) to simulate a scan at each
   --dpi, each set one image-only PDF per source (img2pdf; FUNSD as PNG,
   SROIE as JPEG q85). The scan's assumed size: a FUNSD form is a US letter
   page (its image height = 11 in, about 91 ppi as shipped), a SROIE
   receipt is 80 mm wide. A level above the source's resolution keeps the
   source image (FUNSD at "100": its own ~91 ppi).
   --set tune: 6 FUNSD training forms + SROIE receipts 450-458 (what the
   plugin's defaults were chosen on). --set report: the 15 FUNSD forms and
   12 of the 50 receipts (466-499, every third) that the `en` model never
   trained on (docs/shipped-models.md), and that were not tuned on.
2. Sides, run alternating (each round rotates their order, per PDF):
   tesseract  ocrmypdf -l eng
   before     the plugin as it was: the page image as OCRmyPDF gives it,
              ocrforge's default model (--ocrforge-min-dpi 0
              --ocrforge-args "--lang ch"; or --before-plugin FILE, e.g. the
              old plugin from git, run as it is)
   en         -l eng -> --lang en, no resampling (--ocrforge-min-dpi 0)
   after      the plugin's defaults (-l eng -> en; page images under 200 ppi
              resampled to 300 ppi)
   --side 'LABEL=PLUGIN FLAGS' adds one (e.g. 'up150=--ocrforge-min-dpi 150').
   All: ocrmypdf --jobs JOBS --output-type pdf --optimize 0 (sandwich renderer).
3. Score: `pdftotext` of the output, page by page; words as bench/bow_f1.py
   (white space split, punctuation trimmed, lower-cased; "F1 case" keeps the
   case, forms only: SROIE's labels are all capitals whatever the receipt
   prints); micro F1 over the pages. Time: wall seconds of the whole ocrmypdf
   run / pages, median over the rounds.
Prints a Markdown table; results.json in --work.
"""
import argparse
import json
import os
import shlex
import statistics
import string
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PLUGIN = ROOT / "tools" / "ocrmypdf_plugin" / "ocrforge_plugin.py"
IGNORED = ("###", "*")

FUNSD_HELD_OUT = 15  # the last 15 forms of funsd_train/det_gt.txt (docs/shipped-models.md)


def words(text, keep_case=False):
    out = []
    for w in text.split():
        w = w.strip(string.punctuation)
        if w:
            out.append(w if keep_case else w.lower())
    return out


def label_file(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, js = line.rstrip("\n").split("\t", 1)
                out.append((name, [r["transcription"] for r in json.loads(js)]))
    return out


def pick(data, which):
    """[(source, image path, transcriptions)] of the set."""
    funsd = label_file(data / "funsd_train" / "det_gt.txt")
    sroie = dict(label_file(data / "sroie_train" / "det_gt.txt"))
    if which == "tune":
        f = funsd[:6]
        s = [f"images/{n}.jpg" for n in range(450, 459)]
    else:
        f = funsd[-FUNSD_HELD_OUT:]
        s = [f"images/{n}.jpg" for n in range(466, 500, 3)]
    pages = [("funsd", data / "funsd_train" / n, t) for n, t in f]
    pages += [("sroie", data / "sroie_train" / n, sroie[n]) for n in s]
    return pages


def source_dpi(source, im):
    return im.height / 11.0 if source == "funsd" else im.width / (80 / 25.4)


def make_pdfs(pages, levels, work):
    """{(source, level): (pdf, [label words per page], [ppi per page])}."""
    from PIL import Image
    import img2pdf

    out = {}
    for level in levels:
        for source in sorted({p[0] for p in pages}):
            d = work / f"{source}_{level}"
            d.mkdir(parents=True, exist_ok=True)
            files, gts, ppis = [], [], []
            for i, (src, path, texts) in enumerate(p for p in pages if p[0] == source):
                with Image.open(path) as im:
                    dpi = source_dpi(source, im)
                    s = min(1.0, level / dpi)
                    page = im.resize((round(im.width * s), round(im.height * s)), Image.BOX) if s < 1 else im.copy()
                ppi = dpi * page.width / im.width
                f = d / f"{i:02d}_{path.stem}.{'png' if source == 'funsd' else 'jpg'}"
                if source == "funsd":
                    page.save(f, dpi=(ppi, ppi))
                else:
                    page.convert("RGB").save(f, dpi=(round(ppi), round(ppi)), quality=85)
                files.append(os.fspath(f))
                gts.append([t for t in texts if t not in IGNORED])
                ppis.append(ppi)
            pdf = work / f"{source}_{level}.pdf"
            pdf.write_bytes(img2pdf.convert(files))
            out[(source, level)] = (pdf, gts, ppis)
    return out


def sides(args):
    base = ["ocrmypdf", "-q", "--jobs", str(args.jobs), "--output-type", "pdf", "--optimize", "0", "-l", "eng"]
    plug = ["--plugin", os.fspath(PLUGIN), "--ocrforge-binary", os.fspath(args.ocrforge)]
    out = {
        "tesseract": base,
        "before": (base + ["--plugin", os.fspath(args.before_plugin), "--ocrforge-binary", os.fspath(args.ocrforge)]
                   if args.before_plugin else base + plug + ["--ocrforge-min-dpi", "0", "--ocrforge-args", "--lang ch"]),
        "en": base + plug + ["--ocrforge-min-dpi", "0"],
        "after": base + plug,
    }
    for spec in args.side:
        label, flags = spec.split("=", 1)
        out[label] = base + plug + shlex.split(flags)
    return {k: out[k] for k in args.sides.split(",") + [s.split("=", 1)[0] for s in args.side]}


def page_texts(pdf):
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", os.fspath(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return text.split("\f")


def score(gts, texts, keep_case):
    tp = n_pred = n_gt = 0
    for i, g in enumerate(gts):
        gw = Counter(w for t in g for w in words(t, keep_case))
        pw = Counter(words(texts[i] if i < len(texts) else "", keep_case))
        tp += sum((gw & pw).values())
        n_pred += sum(pw.values())
        n_gt += sum(gw.values())
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gt if n_gt else 0.0
    return {"gt": n_gt, "pred": n_pred, "matched": tp, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--work", type=Path, default=Path("/tmp/ocrmypdf_bench"))
    ap.add_argument("--set", choices=("tune", "report"), default="report")
    ap.add_argument("--dpi", default="72,100", help="scan resolutions, comma-separated")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="ocrmypdf --jobs")
    ap.add_argument("--sides", default="tesseract,before,en,after")
    ap.add_argument("--side", action="append", default=[], help="LABEL=PLUGIN FLAGS (repeatable)")
    ap.add_argument("--before-plugin", type=Path, help="an older plugin file for the 'before' side")
    ap.add_argument("--ocrforge", type=Path, default=ROOT / "build" / "ocrforge")
    ap.add_argument("--make-only", action="store_true", help="write the PDFs, run nothing")
    args = ap.parse_args()

    work = args.work / args.set
    levels = [int(x) for x in args.dpi.split(",")]
    pdfs = make_pdfs(pick(args.data, args.set), levels, work)
    for (source, level), (pdf, gts, ppis) in sorted(pdfs.items()):
        print(f"{pdf}: {len(gts)} pages, {min(ppis):.0f}-{max(ppis):.0f} ppi", file=sys.stderr)
    if args.make_only:
        return
    cmds = sides(args)
    names = list(cmds)
    env = dict(os.environ, OMP_THREAD_LIMIT=os.environ.get("OMP_THREAD_LIMIT", "1"))
    load_start = os.getloadavg()
    times = {}
    texts = {}
    for r in range(args.rounds):
        for key in sorted(pdfs):
            pdf, gts, _ = pdfs[key]
            for k in range(len(names)):
                name = names[(k + r) % len(names)]
                out = work / f"out_{name}_{key[0]}_{key[1]}.pdf"
                t0 = time.monotonic()
                proc = subprocess.run(cmds[name] + [os.fspath(pdf), os.fspath(out)], capture_output=True, text=True,
                                      env=env, cwd=ROOT)
                dt = time.monotonic() - t0
                if proc.returncode != 0:
                    sys.exit(f"{name} failed on {pdf} ({proc.returncode}): {proc.stderr}")
                times.setdefault((name, key), []).append(dt / len(gts))
                t = page_texts(out)
                if (name, key) in texts and texts[(name, key)] != t:
                    print(f"note: {name} read {pdf.name} differently in round {r + 1}", file=sys.stderr)
                texts[(name, key)] = t
                print(f"round {r + 1} {name} {pdf.name}: {dt / len(gts):.2f} s/page", file=sys.stderr)
    load_end = os.getloadavg()

    results = []
    for level in levels:
        for source in ("funsd", "sroie", "all"):
            keys = [k for k in sorted(pdfs) if k[1] == level and source in ("all", k[0])]
            if not keys:
                continue
            for name in names:
                row = {"ppi": level, "pages": source, "side": name}
                for case in (False, True):
                    gts = [g for k in keys for g in pdfs[k][1]]
                    tx = [t for k in keys for t in (texts[(name, k)] + [""] * len(pdfs[k][1]))[:len(pdfs[k][1])]]
                    row["case" if case else "nocase"] = score(gts, tx, case)
                n = sum(len(pdfs[k][1]) for k in keys)
                row["n"] = n
                # seconds per page: page-weighted over the PDFs, median over rounds
                row["s_per_page"] = statistics.median(
                    sum(times[(name, k)][r] * len(pdfs[k][1]) for k in keys) / n for r in range(args.rounds))
                results.append(row)
    (work / "results.json").write_text(json.dumps({"load_start": load_start, "load_end": load_end, "rows": results},
                                                  indent=1))
    print(f"load average {load_start[0]:.2f} at the start, {load_end[0]:.2f} at the end; "
          f"{args.rounds} round(s), ocrmypdf --jobs {args.jobs}")
    print("| scan | pages | side | words (labels) | read | matched | F1 | F1 case | s / page |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|")
    for row in results:
        a, c = row["nocase"], row["case"]
        case = f"{c['f1']:.3f}" if row["pages"] == "funsd" else "-"
        print(f"| {row['ppi']} ppi | {row['pages']} ({row['n']}) | {row['side']} | {a['gt']} | {a['pred']} | "
              f"{a['matched']} | {a['f1']:.3f} | {case} | {row['s_per_page']:.2f} |")


if __name__ == "__main__":
    main()
