"""The images ocr() and predict() accept, turned into what the C++ side reads:
a path (str), encoded bytes, or a NumPy array (read in place when its layout
allows). URLs are refused (ocrforge never downloads); PDFs are recognised by
the C++ side and refused as not yet supported."""
import os

import numpy as np

from . import _ocrforge


def _is_url(path):
    return path.startswith(("http://", "https://", "ftp://"))


def image_arg(img, what="img"):
    """One image as the C++ side takes it; TypeError / ValueError otherwise."""
    if isinstance(img, np.ndarray):
        return img
    if isinstance(img, bytes):
        return img
    if isinstance(img, (bytearray, memoryview)):
        return bytes(img)
    if isinstance(img, (str, os.PathLike)):
        path = os.fsdecode(os.fspath(img))
        if _is_url(path):
            raise ValueError(
                f"{what}={path!r}: URLs are not supported (ocrforge never downloads); "
                "download the file and pass its path or its bytes"
            )
        return path
    raise TypeError(f"{what}: expected a path, image bytes or a NumPy array, got {type(img).__name__}")


def predict_inputs(inputs):
    """predict()'s input as a list of (input_path or None, image arg), folders
    expanded into their images sorted by name (as `ocrforge ocr --image_dir`)."""
    items = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    out = []
    for item in items:
        if isinstance(item, (str, os.PathLike)) and os.path.isdir(os.fspath(item)):
            try:
                paths = _ocrforge.list_images(os.fsdecode(os.fspath(item)))
            except RuntimeError as e:  # a folder without images
                raise ValueError(str(e)) from None
            out.extend((p, p) for p in paths)
        else:
            arg = image_arg(item, "input")
            out.append((arg if isinstance(arg, str) else None, arg))
    return out
