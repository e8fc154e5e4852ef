"""Where the default models and the int8 calibration images are.

An installed package (``pip install .``) carries its own copies next to this
file; the package in a CMake build tree (``<build>/python/ocrforge``) reads
those of the source tree, whose paths CMake writes into ``_build_paths.py``.
``OCRFORGE_MODEL_DIR`` overrides both, as it does for the ``ocrforge`` binary.
"""
import os

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


def calibration_dir():
    """The int8 calibration images (precision='int8'), or None when absent."""
    for c in (_BUNDLED_CALIBRATION, _build_tree_paths()[1]):
        if c and os.path.isdir(os.path.join(c, "det")):
            return c
    return None
