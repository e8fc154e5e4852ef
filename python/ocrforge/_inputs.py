"""The images ocr() and predict() accept, turned into what the C++ side reads:
a path (str), encoded bytes, or a NumPy array (read in place when its layout
allows). PIL images become BGR arrays (Pillow itself is not needed unless
one is passed). URLs are refused (ocrforge never downloads). PDFs and
TIFFs, as a path or bytes, are opened page by page by the C++ side
(Pool.open_document)."""
import os

import numpy as np

from . import _ocrforge

# Extensions predict() lists from a folder besides the images.
DOCUMENT_EXTENSIONS = [".pdf"]


def _is_url(path):
    return path.startswith(("http://", "https://", "ftp://"))


def is_pil_image(img):
    """A PIL.Image.Image, recognised without importing Pillow."""
    return any(c.__module__.startswith("PIL.") and c.__name__ == "Image" for c in type(img).__mro__)


def pil_to_rgb(img):
    """A PIL image as 'RGB' (or 'RGBA' when it has transparency)."""
    if img.mode in ("RGB", "RGBA"):
        return img
    if img.mode in ("LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        return img.convert("RGBA")
    return img.convert("RGB")


def pil_to_array(img):
    """A PIL image as the array cv2 would give for the same file: BGR for
    colour, BGRA for colour with alpha (blended onto alpha_color as PaddleOCR
    does), 2-D for 'L' (grey) and 16-bit grey (its high byte); other modes ('1', 'P', 'CMYK', 'YCbCr', 'I', 'F', ...)
    converted by Pillow first."""
    mode = img.mode
    if mode == "L":
        return np.asarray(img)
    if mode in ("I;16", "I;16L", "I;16B"):
        return (np.asarray(img).astype(np.uint16) >> 8).astype(np.uint8)
    if mode in ("I", "F", "1"):
        return np.asarray(img.convert("L"))
    rgb = np.asarray(pil_to_rgb(img))
    if rgb.shape[2] == 4:
        return np.ascontiguousarray(rgb[:, :, [2, 1, 0, 3]])
    return np.ascontiguousarray(rgb[:, :, ::-1])


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
    if is_pil_image(img):
        return pil_to_array(img)
    raise TypeError(f"{what}: expected a path, image bytes, a NumPy array or a PIL image, got {type(img).__name__}")


def predict_inputs(inputs):
    """predict()'s input as a list of (input_path or None, image arg), folders
    expanded into their images and PDFs sorted by name (as `ocrforge ocr
    --image_dir`)."""
    items = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    out = []
    for item in items:
        if isinstance(item, (str, os.PathLike)) and os.path.isdir(os.fspath(item)):
            try:
                paths = _ocrforge.list_images(os.fsdecode(os.fspath(item)), DOCUMENT_EXTENSIONS)
            except RuntimeError as e:  # a folder without images
                raise ValueError(str(e)) from None
            out.extend((p, p) for p in paths)
        else:
            arg = image_arg(item, "input")
            out.append((arg if isinstance(arg, str) else None, arg))
    return out
