"""Fixtures of the Python tests: the build-tree package (PYTHONPATH set by
CTest, tests/python/CMakeLists.txt), a few sample images and what the
`ocrforge ocr` binary of the same build reads on them."""
import json
import os
import shutil
import subprocess

import pytest

SOURCE_DIR = os.environ.get("OCRFORGE_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
BINARY_DIR = os.environ.get("OCRFORGE_BINARY_DIR", os.path.join(SOURCE_DIR, "build"))
SAMPLES = os.path.join(SOURCE_DIR, "tests", "data", "samples")
# Few and small, so the whole file set stays well under a minute on 2 cores:
# Chinese lines (some 180-degree-ambiguous), German, English, a scanned form,
# and a word image on which nothing is detected (a None page).
IMAGES = ["imgs_11.jpg", "imgs_ger_1.jpg", "imgs_en_img623.jpg", "imgs_00009282.jpg", "ch_word_2.jpg"]


@pytest.fixture(scope="session")
def sample_paths(tmp_path_factory):
    d = tmp_path_factory.mktemp("in")
    paths = []
    for name in IMAGES:
        shutil.copy(os.path.join(SAMPLES, name), d / name)
        paths.append(str(d / name))
    return paths


@pytest.fixture(scope="session")
def cli_results(sample_paths, tmp_path_factory):
    """name -> [(transcription, points)] from `ocrforge ocr`'s system_results.txt."""
    out = tmp_path_factory.mktemp("cli_out")
    binary = os.path.join(BINARY_DIR, "ocrforge")
    cmd = [binary, "ocr", "--image_dir", os.path.dirname(sample_paths[0]), "--use_angle_cls", "true",
           "--draw_img_save_dir", str(out), "--visualize", "false"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    results = {}
    with open(out / "system_results.txt", encoding="utf-8") as f:
        for line in f:
            name, payload = line.rstrip("\n").split("\t", 1)
            results[name] = [(d["transcription"], d["points"]) for d in json.loads(payload)]
    assert set(results) == set(IMAGES)
    return results


@pytest.fixture(scope="session")
def ocr():
    """One object for the session, as the CLI run above (direction classifier on)."""
    from ocrforge import PaddleOCR

    return PaddleOCR(use_angle_cls=True, lang="ch", show_log=False)
