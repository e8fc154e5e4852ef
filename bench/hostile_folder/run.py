#!/usr/bin/env python3
"""The 1,000-image hostile-folder check of docs/reliability.md (not a CTest test).

    python3 bench/hostile_folder/run.py [--ocrforge build/ocrforge] [--good 980] [--threads 2]

Builds two folders in a temp dir: GOOD small real images (copies of
tests/data/rec_toy and tests/data/samples/ch_word_*; 8 of them carry an EXIF
orientation tag, 1 to 8), and the same plus 24 hostile files of the kinds in
docs/reliability.md (decompression-bomb headers, symlink loops, dangling
links, empty, text, truncated, GIF, a newline or a terminal escape sequence in
the name). Runs `ocrforge ocr` on each folder (clean first, then hostile), and
checks:
  - exit code 0 (clean) / 1 (hostile),
  - system_results.txt has one valid JSON line per good image, none for the others,
  - every `_res.json` gives the image size as read: upright, the stored width
    and height swapped for EXIF orientations 5-8,
  - stderr has one named error per hostile file, and no raw control character,
  - peak RSS (GNU time's %M) of the hostile run within 10% of the clean run.
Then two quick runs: `--save_label` naming an input image (exit 2, the image
untouched) and `--cpu_threads 100000` on one image (capped with a warning).
Prints the figures and exits 1 if a check fails.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def good_sources():
    data = os.path.join(ROOT, "tests", "data")
    out = [os.path.join(data, "rec_toy", "imgs", n) for n in sorted(os.listdir(os.path.join(data, "rec_toy", "imgs")))]
    out += [os.path.join(data, "samples", n) for n in ("ch_word_2.jpg", "ch_word_3.jpg", "ch_word_4.jpg")]
    return out


def png_claiming(src_png_bytes, w, h):
    b = bytearray(src_png_bytes)
    b[16:20] = w.to_bytes(4, "big")
    b[20:24] = h.to_bytes(4, "big")
    return bytes(b)


def jpeg_claiming(jpeg, w, h):
    b = bytearray(jpeg)
    sof = b.find(b"\xff\xc0")
    if sof < 0:
        sof = b.find(b"\xff\xc2")
    b[sof + 5:sof + 7] = h.to_bytes(2, "big")
    b[sof + 7:sof + 9] = w.to_bytes(2, "big")
    return bytes(b)


# A 1x1 PNG (valid signature + IHDR) whose size fields are then rewritten.
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
    "0000000c4944415408d763f8ffff3f0005fe02fea7d6a4f00000000049454e44ae426082")


def make_hostile(folder, jpeg):
    """20 files, each of which must fail by name. Returns their names."""
    names = []

    def put(name, data):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        names.append(name)

    for i in range(3):
        put(f"bomb_png_{i}.png", png_claiming(TINY_PNG, 20000, 20000))
    for i in range(3):
        put(f"bomb_jpg_{i}.jpg", jpeg_claiming(jpeg, 60000, 60000))
    os.symlink("loop_b.jpg", os.path.join(folder, "loop_a.jpg"))
    os.symlink("loop_a.jpg", os.path.join(folder, "loop_b.jpg"))
    names += ["loop_a.jpg", "loop_b.jpg"]
    for i in range(2):
        os.symlink(f"gone_{i}.jpg", os.path.join(folder, f"dangling_{i}.jpg"))
        names.append(f"dangling_{i}.jpg")
    for i in range(3):
        put(f"empty_{i}.jpg", b"")
    for i in range(3):
        put(f"text_{i}.png", b"this is a text file, not a picture\n" * 10)
    for i in range(2):
        put(f"truncated_{i}.jpg", jpeg[:120])
    for i in range(2):
        put(f"anim_{i}.webp", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")  # a GIF under an image extension
    for i in range(2):
        put(f"newline_{i}\nname.jpg", jpeg)  # would split its system_results.txt line
    for i in range(2):
        put(f"escape_{i}\x1b]0;pwned\x07.jpg", jpeg)  # would retitle the terminal
    assert len(names) == 24, len(names)
    return names


def printable(name):
    """How ocrforge prints a name (core/control_chars.h)."""
    out = ""
    for c in name:
        if c == "\n":
            out += "\\n"
        elif c == "\t":
            out += "\\t"
        elif c == "\r":
            out += "\\r"
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out += "\\x%02x" % ord(c)
        else:
            out += c
    return out


def with_orientation(jpeg, orientation):
    """The JPEG with an APP1 EXIF segment holding one Orientation tag after SOI."""
    tiff = b"II*\x00\x08\x00\x00\x00" + b"\x01\x00" + b"\x12\x01\x03\x00\x01\x00\x00\x00" + \
        bytes([orientation, 0, 0, 0]) + b"\x00\x00\x00\x00"
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + jpeg[2:]


def jpeg_stored_size(jpeg):
    """(width, height) from the first start-of-frame marker."""
    i = 2
    while i + 9 < len(jpeg):
        marker, length = jpeg[i + 1], int.from_bytes(jpeg[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(jpeg[i + 7:i + 9], "big"), int.from_bytes(jpeg[i + 5:i + 7], "big")
        i += 2 + length
    raise ValueError("no SOF")


def run(ocrforge, folder, out, threads):
    cmd = [ocrforge, "ocr", "--image_dir", folder, "--draw_img_save_dir", out, "--cpu_threads", str(threads),
           "--visualize=False"]
    # GNU time reports this run's own peak RSS (KiB) on the last stderr line.
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "MAXRSS_KIB %M"] + cmd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    wall = time.time() - t0
    err_lines = p.stderr.rstrip("\n").split("\n")
    peak_kib = int(err_lines[-1].split()[1])
    p.stderr = "\n".join(err_lines[:-1]) + "\n"
    return p, wall, peak_kib / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ocrforge", default=os.path.join(ROOT, "build", "ocrforge"))
    ap.add_argument("--good", type=int, default=980)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    srcs = good_sources()
    jpeg = open(srcs[0], "rb").read()
    tmp = tempfile.mkdtemp(prefix="ocrforge_hostile_")
    try:
        clean, hostile = os.path.join(tmp, "clean"), os.path.join(tmp, "hostile")
        os.makedirs(clean)
        os.makedirs(hostile)
        good, upright = [], {}
        jpegs = [x for x in srcs if x.endswith(".jpg")]
        for i in range(a.good):
            src = srcs[i % len(srcs)]
            name = f"good_{i:04d}{os.path.splitext(src)[1]}"
            if i < 8:  # phone photos: EXIF orientation 1..8
                data = with_orientation(open(jpegs[i % len(jpegs)], "rb").read(), i + 1)
                name = f"good_{i:04d}_exif{i + 1}.jpg"
                w, h = jpeg_stored_size(data)
                upright[name] = (h, w) if i + 1 >= 5 else (w, h)
                for folder in (clean, hostile):
                    with open(os.path.join(folder, name), "wb") as f:
                        f.write(data)
            else:
                shutil.copyfile(src, os.path.join(clean, name))
                shutil.copyfile(src, os.path.join(hostile, name))
            good.append(name)
        bad = make_hostile(hostile, jpeg)

        pc, wc, rss_c = run(a.ocrforge, clean, os.path.join(tmp, "out_clean"), a.threads)
        ph, wh, rss_h = run(a.ocrforge, hostile, os.path.join(tmp, "out_hostile"), a.threads)

        failures = []
        if pc.returncode != 0:
            failures.append(f"clean run exit {pc.returncode}: {pc.stderr[-2000:]}")
        if ph.returncode != 1:
            failures.append(f"hostile run exit {ph.returncode} (expected 1): {ph.stderr[-2000:]}")
        with open(os.path.join(tmp, "out_hostile", "system_results.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        names = []
        for l in lines:
            if "\t" not in l:
                failures.append(f"system_results.txt has a line without a tab (a name split it?): {l[:80]!r}")
                continue
            name, js = l.split("\t", 1)
            json.loads(js)  # raises on a cut line
            names.append(name)
        if sorted(names) != sorted(good):
            failures.append(f"system_results.txt lists {len(names)} images, expected the {len(good)} good ones")
        for name, size in upright.items():
            stem = os.path.splitext(name)[0]
            with open(os.path.join(tmp, "out_hostile", stem + "_res.json"), encoding="utf-8") as f:
                got = tuple(json.load(f)["res"]["image_size"])
            if got != size:
                failures.append(f"{name}: image_size {got}, expected the upright {size}")
        errors = [l for l in ph.stderr.splitlines() if l.startswith("ocrforge ocr: error:")]
        unnamed = [b for b in bad if not any(printable(b) in e for e in errors)]
        if len(errors) != len(bad) or unnamed:
            failures.append(f"{len(errors)} error lines for {len(bad)} hostile files; not named: {unnamed}")
        raw = [c for c in ph.stderr if (ord(c) < 0x20 and c != "\n") or ord(c) == 0x7F]
        if raw:
            failures.append(f"{len(raw)} raw control characters reached stderr")

        # --save_label naming an input: refused before anything is read.
        victim = os.path.join(hostile, good[-1])
        before = open(victim, "rb").read()
        pl = subprocess.run([a.ocrforge, "ocr", "--image_dir", hostile, "--draw_img_save_dir",
                             os.path.join(tmp, "out_label"), "--save_label", victim],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if pl.returncode != 2 or open(victim, "rb").read() != before:
            failures.append(f"--save_label over an input: exit {pl.returncode}, image intact: "
                            f"{open(victim, 'rb').read() == before}")
        # --cpu_threads 100000: capped with a warning (under a 4 GB limit, in case it is not).
        pt = subprocess.run(["bash", "-c", "ulimit -v 4000000; exec timeout 60 \"$@\"", "_", a.ocrforge, "ocr",
                             "--image_dir", os.path.join(hostile, good[-1]), "--draw_img_save_dir",
                             os.path.join(tmp, "out_threads"), "--cpu_threads", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if pt.returncode != 0 or "--cpu_threads=100000 is more than" not in pt.stderr:
            failures.append(f"--cpu_threads 100000: exit {pt.returncode}: {pt.stderr[-500:]}")
        ratio = rss_h / rss_c if rss_c > 0 else float("nan")
        if not ratio <= 1.10:
            failures.append(f"peak RSS {rss_h:.0f} MiB vs clean {rss_c:.0f} MiB (x{ratio:.3f} > 1.10)")

        print(f"images: {len(good)} good ({len(upright)} with EXIF orientations) + {len(bad)} hostile")
        print(f"clean run:   exit {pc.returncode}, {wc:.1f} s, peak RSS {rss_c:.0f} MiB")
        print(f"hostile run: exit {ph.returncode}, {wh:.1f} s, peak RSS {rss_h:.0f} MiB (x{ratio:.3f}),"
              f" {len(names)} results, {len(errors)} named errors")
        for e in errors[:len(bad)]:
            print("  " + e.replace(hostile + "/", ""))
        print(f"--save_label over an input: exit {pl.returncode}: {pl.stderr.strip().splitlines()[-1] if pl.stderr.strip() else ''}")
        print(f"--cpu_threads 100000: exit {pt.returncode}: {pt.stderr.strip().splitlines()[0] if pt.stderr.strip() else ''}")
        if failures:
            print("FAILED:\n  " + "\n  ".join(failures))
            return 1
        print("PASSED")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
