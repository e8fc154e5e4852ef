"""Every shipped `lang` (the library's available_langs(): ch, en) works in the
build tree and in the package layout `pip install .` makes (setup.py's
MODEL_FILES); another lang's error lists the shipped ones."""
import ast
import os
import shutil
import subprocess
import sys

import pytest

import ocrforge
from ocrforge import PaddleOCR, _locations, _ocrforge
from conftest import SAMPLES, SOURCE_DIR

SIGN = os.path.join(SAMPLES, "imgs_ger_1.jpg")


def setup_model_files():
    """setup.py's MODEL_FILES (model set folder -> files), read without running setup.py."""
    with open(os.path.join(SOURCE_DIR, "setup.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "MODEL_FILES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no MODEL_FILES")


def model_files(lang, models_dir):
    """The files lang's models read, relative to models_dir."""
    files = []
    for key, path in _ocrforge.lang_models(lang, models_dir).items():
        paths = [path] if key == "rec_char_dict_path" else [os.path.join(path, "inference.onnx"),
                                                           os.path.join(path, "inference.yml")]
        files += [os.path.relpath(p, models_dir) for p in paths if os.path.isfile(p)]
    return files


def test_available_langs():
    assert _ocrforge.available_langs()[0] == "ch" and "en" in _ocrforge.available_langs()
    assert _locations.shipped_langs() == _ocrforge.available_langs()  # all of them in the build tree


@pytest.mark.parametrize("lang", ["ch", "en"])
def test_each_lang_reads_text(lang):
    ocr = PaddleOCR(use_angle_cls=True, lang=lang, show_log=False)
    models = _locations.lang_models(lang)
    assert ocr._params["rec_model"] == models["rec_model_dir"]
    assert ocr._params["det_model"] == models["det_model_dir"]
    if lang == "en":
        assert ocr._params["rec_model"].endswith(os.path.join("models", "en", "rec"))
        assert "rec_char_dict_path" not in ocr._base  # its dictionary comes from models/en/rec/inference.yml
        assert ocr._base["rec_lexicon"] == models["rec_lexicon"]  # its word list, as `ocrforge ocr --lang en`
        assert models["rec_lexicon"].endswith(os.path.join("models", "en", "words.txt"))
        assert float(ocr._base["det_db_box_thresh"]) == 0.5  # the document set's detector setting
    else:
        assert "rec_lexicon" not in ocr._base and models["rec_lexicon"] == ""
        assert "det_db_box_thresh" not in ocr._base
    page = ocr.ocr(SIGN)[0]
    assert page[0][1][0] == "EPPING"


def test_unshipped_lang_lists_the_shipped_ones():
    with pytest.raises(ValueError, match=r"lang='fr' is not available: .*\['ch', 'en'\]"):
        PaddleOCR(lang="fr", show_log=False)
    # A recogniser of one's own needs no shipped set: the default det / cls are used with it.
    en_rec = _locations.lang_models("en")["rec_model_dir"]
    ocr = PaddleOCR(lang="fr", rec_model_dir=en_rec, show_log=False)
    assert ocr._params["rec_model"] == en_rec


def test_setup_py_ships_every_lang():
    listed = {os.path.join(s, f) for s, files in setup_model_files().items() for f in files}
    for lang in _ocrforge.available_langs():
        needed = model_files(lang, _locations.models_dir())
        assert needed and set(needed) <= listed, (lang, set(needed) - listed)


def test_installed_layout_finds_every_lang(tmp_path):
    # The package as setup.py lays it out: the Python files and the extension,
    # models/<set>/<file> for MODEL_FILES, no _build_paths.py (the build tree's).
    package = tmp_path / "ocrforge"
    built = os.path.dirname(ocrforge.__file__)
    package.mkdir()
    for name in os.listdir(built):
        if name.endswith((".py", ".so")) and name != "_build_paths.py":
            os.symlink(os.path.join(built, name), package / name)
    src_models = os.path.join(SOURCE_DIR, "models")
    for model_set, files in setup_model_files().items():
        for rel in files:
            if os.path.isfile(os.path.join(src_models, model_set, rel)):
                (package / "models" / model_set / rel).parent.mkdir(parents=True, exist_ok=True)
                os.symlink(os.path.join(src_models, model_set, rel), package / "models" / model_set / rel)
    script = (
        "import ocrforge, os\n"
        "from ocrforge import PaddleOCR, _locations\n"
        "assert _locations.models_dir() == os.path.join(os.path.dirname(ocrforge.__file__), 'models')\n"
        "print(_locations.shipped_langs())\n"
        "ocr = PaddleOCR(lang='en', show_log=False)\n"
        "print(ocr._params['rec_model'])\n"
        f"print(ocr.ocr({SIGN!r})[0][0][1][0])\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OCRFORGE_MODEL_DIR")}
    env["PYTHONPATH"] = str(tmp_path)
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    langs, rec_model, text = proc.stdout.splitlines()
    assert langs == repr(_ocrforge.available_langs())
    assert rec_model == str(package / "models" / "en" / "rec") and text == "EPPING"
    shutil.rmtree(package)
