"""Where the shipped models and the int8 calibration images are.

An installed package (``pip install .``) carries its own copies next to this
file (``models/PP-OCRv4``, ``models/en``, ...: every model set of
``_ocrforge.available_langs()``); the package in a CMake build tree
(``<build>/python/ocrforge``) reads those of the source tree, whose paths
CMake writes into ``_build_paths.py``. ``OCRFORGE_MODEL_DIR`` (the
PP-OCRv4 folder; the other sets beside it) overrides both, as it does for the
``ocrforge`` binary. Which files a language uses is the library's
(ocrforge/infer/lang_models.h, ``_ocrforge.lang_models``).
"""
import os

from . import _ocrforge

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_BUNDLED_MODELS = os.path.join(_PACKAGE, "models", "PP-OCRv4")
_BUNDLED_CALIBRATION = os.path.join(_PACKAGE, "data", "int8_calibration")


def _is_model_root(path):
    return os.path.isfile(os.path.join(path, "det", "inference.onnx")) and os.path.isfile(
        os.path.join(path, "rec", "inference.onnx")
    )


def _build_tree_paths():
    try:
        from . import _build_paths  # noqa: PLC0415 (only in a CMake build tree)
    except ImportError:
        return None, None
    return _build_paths.MODEL_DIR, _build_paths.CALIBRATION_DIR


def model_root():
    """The folder holding det/, rec/, cls/ and ppocr_keys_v1.txt.

    Raises FileNotFoundError saying how to get the models when none is found.
    """
    env = os.environ.get("OCRFORGE_MODEL_DIR")
    if env:
        if not _is_model_root(env):
            raise FileNotFoundError(
                f"OCRFORGE_MODEL_DIR={env!r} does not hold det/inference.onnx and rec/inference.onnx"
            )
        return env
    candidates = [_BUNDLED_MODELS, _build_tree_paths()[0]]
    for c in candidates:
        if c and _is_model_root(c):
            return c
    raise FileNotFoundError(
        "ocrforge: the default PP-OCRv4 models were not found (looked in "
        + ", ".join(repr(c) for c in candidates if c)
        + "); run `bash scripts/bootstrap.sh` in the ocrforge repository before building or installing, "
        "set OCRFORGE_MODEL_DIR, or pass det_model_dir / rec_model_dir / cls_model_dir / rec_char_dict_path"
    )


def models_dir():
    """The folder holding every model set (PP-OCRv4/, en/, ...)."""
    return os.path.dirname(os.path.abspath(model_root()))


def lang_models(lang):
    """{det_model_dir, rec_model_dir, cls_model_dir, rec_char_dict_path} of a
    shipped language. ValueError listing the shipped languages for another
    one; FileNotFoundError naming the file when one of its models is missing."""
    langs = _ocrforge.available_langs()
    if lang not in langs:
        raise ValueError(
            f"lang={lang!r} is not available: this ocrforge ships the model sets {shipped_langs()!r} "
            "(ch: PP-OCRv4, Chinese and English; en: its recogniser fine-tuned on English/Latin documents). "
            "For another language, convert its PaddleOCR recogniser to ONNX and pass rec_model_dir= and "
            "rec_char_dict_path="
        )
    root = models_dir()
    try:
        return _ocrforge.lang_models(lang, root)
    except RuntimeError as e:
        raise FileNotFoundError(f"lang={lang!r}: {e} (shipped here: {shipped_langs()!r})") from None


def shipped_langs():
    """The languages whose model files are all present, the default first."""
    try:
        root = models_dir()
    except FileNotFoundError:
        return []
    out = []
    for lang in _ocrforge.available_langs():
        try:
            _ocrforge.lang_models(lang, root)
        except RuntimeError:
            continue
        out.append(lang)
    return out


def calibration_dir():
    """The int8 calibration images (precision='int8'), or None when absent."""
    for c in (_BUNDLED_CALIBRATION, _build_tree_paths()[1]):
        if c and os.path.isdir(os.path.join(c, "det")):
            return c
    return None
