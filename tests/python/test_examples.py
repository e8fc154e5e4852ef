"""The example scripts of docs/python.md (PaddleOCR's own quickstarts with
only the import line, the input and lang='en' changed) run and print what
the docs show."""
import ast
import json
import os
import subprocess
import sys

import pytest

import sample_documents as docs
from conftest import SOURCE_DIR


def run_example(name, tmp_path):
    # The scripts use relative paths: give them a tests/ folder and scan.pdf.
    os.makedirs(tmp_path / "tests" / "data")
    os.symlink(os.path.join(SOURCE_DIR, "tests", "data", "samples"), tmp_path / "tests" / "data" / "samples")
    docs.write_pdf(str(tmp_path / "scan.pdf"), docs.SCAN_PAGES)
    script = os.path.join(SOURCE_DIR, "python", "examples", name)
    import ocrforge  # the package under test, wherever it is (build tree or installed)

    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(ocrforge.__file__))))
    proc = subprocess.run([sys.executable, script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_ocr_2x_quickstart(tmp_path):
    Image = pytest.importorskip("PIL.Image")  # the quickstart draws with Pillow
    proc = run_example("ocr_2x.py", tmp_path)
    lines = [ast.literal_eval(line) for line in proc.stdout.splitlines()]  # [box, (text, score)], as PaddleOCR prints
    assert lines[0][1][0] == "PHO CAPITAL" and len(lines[0][0]) == 4
    assert lines[-1][1][0] == "FOR YOUR BUSINESS"
    assert "dt_boxes num" in proc.stderr  # show_log defaults to True, as PaddleOCR's
    with Image.open(tmp_path / "result.jpg") as im:
        assert im.size == (2 * 700, 933)  # draw_ocr: the receipt with its boxes beside the texts


def test_ocr_2x_pdf_quickstart(tmp_path):
    proc = run_example("ocr_2x_pdf.py", tmp_path)
    texts = [ast.literal_eval(line)[1][0] for line in proc.stdout.splitlines()]
    assert texts[0] == "PHO CAPITAL" and texts[-3] == "EPPING"  # page 1, then page 2's three lines
    assert "Empty page" not in proc.stdout


def test_predict_3x_quickstart(tmp_path):
    proc = run_example("predict_3x.py", tmp_path)
    printed, at = [], 0
    while at < len(proc.stdout.rstrip()):
        obj, end = json.JSONDecoder().raw_decode(proc.stdout, at)
        printed.append(obj["res"])
        at = end + 1
    assert [(r["input_path"], r["page_index"]) for r in printed] == [("scan.pdf", 0), ("scan.pdf", 1)]
    assert printed[0]["rec_texts"][0] == "PHO CAPITAL" and printed[1]["rec_texts"][0] == "EPPING"
    assert sorted(os.listdir(tmp_path / "output")) == [
        "scan_0_ocr_res_img.png", "scan_0_res.json", "scan_1_ocr_res_img.png", "scan_1_res.json"]
