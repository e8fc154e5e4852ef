"""The example scripts of docs/python.md (PaddleOCR's own examples with only
the import line changed) run and print what the docs show."""
import ast
import json
import os
import subprocess
import sys

from conftest import SOURCE_DIR


def run_example(name, tmp_path):
    # The scripts use PaddleOCR's relative paths: give them a tests/ folder.
    os.makedirs(tmp_path / "tests" / "data")
    os.symlink(os.path.join(SOURCE_DIR, "tests", "data", "samples"), tmp_path / "tests" / "data" / "samples")
    script = os.path.join(SOURCE_DIR, "python", "examples", name)
    import ocrforge  # the package under test, wherever it is (build tree or installed)

    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(ocrforge.__file__))))
    proc = subprocess.run([sys.executable, script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_ocr_2x_example(tmp_path):
    proc = run_example("ocr_2x.py", tmp_path)
    lines = proc.stdout.splitlines()
    first = ast.literal_eval(lines[0])  # [box, (text, score)], printed as PaddleOCR prints it
    assert first[1][0] == "纯臻营养护发素" and len(first[0]) == 4
    assert lines[-1].startswith(f"{len(lines) - 1} lines, mean score 0.")
    assert "dt_boxes num" in proc.stderr  # show_log defaults to True, as PaddleOCR's


def test_predict_3x_example(tmp_path):
    proc = run_example("predict_3x.py", tmp_path)
    printed = json.loads(proc.stdout)
    assert printed["res"]["rec_texts"][:2] == ["EPPING", "Twinned with"]
    assert sorted(os.listdir(tmp_path / "output")) == ["imgs_ger_1_ocr_res_img.jpg", "imgs_ger_1_res.json"]
