"""PaddleOCR 2.x's ``draw_ocr``: the picture of a result.

The drawing is the library's (ocrforge/vision/draw_ocr.h, the one
``save_to_img()`` and ``ocrforge ocr`` draw): the image with translucent
coloured boxes on the left and, beside it, a white panel with each box's
outline and its text written into it.
"""
import logging
import math
import os

import numpy as np

from . import _inputs, _ocrforge

logger = logging.getLogger("ocrforge")


def _rgb(image):
    """The image as an (H, W, 3) uint8 RGB array: a PIL image in any mode, or
    an array taken as RGB (grey expanded, alpha dropped), as PaddleOCR's
    draw_ocr takes it."""
    if _inputs.is_pil_image(image):
        image = np.asarray(_inputs.pil_to_rgb(image))
    if not isinstance(image, np.ndarray):
        raise TypeError(f"image: expected a PIL image or a NumPy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ValueError(f"image: expected uint8 pixels, got {image.dtype}")
    if image.ndim == 2:
        return np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim == 3 and image.shape[2] in (3, 4):
        return image[:, :, :3]
    raise ValueError(f"image: expected (H, W), (H, W, 3) or (H, W, 4), got shape {image.shape}")


def _box_points(box):
    pts = np.asarray(box, dtype=np.float64).reshape(-1, 2)
    if len(pts) < 4:
        raise ValueError(f"boxes: a box needs at least 4 points, got {len(pts)}")
    return [(float(x), float(y)) for x, y in pts]


def draw_ocr(image, boxes, txts=None, scores=None, drop_score=0.5, font_path="./doc/fonts/simfang.ttf"):
    """PaddleOCR 2.x's draw_ocr(image, boxes, txts, scores, drop_score, font_path).

    image: a PIL image or a uint8 NumPy array (RGB, as PaddleOCR's example
    passes ``Image.open(p).convert('RGB')``; grey and alpha accepted).
    boxes: the 4-point boxes of ``ocr()`` (``[line[0] for line in result[0]]``)
    or 3.x's ``rec_polys``. txts / scores: the texts and scores of the same
    lines; a line whose score is below drop_score (or NaN) is not drawn.
    font_path: a TrueType / OpenType font for the texts; when the file does
    not exist (PaddleOCR's ``./doc/fonts/simfang.ttf`` outside its
    repository) the default font is used (Noto Sans CJK when installed,
    ``_ocrforge.default_font_path()``).

    Returns an RGB uint8 array: with txts, the image with its boxes and
    beside it the texts panel, (H, 2W, 3); without txts, the image with its
    boxes, (H, W, 3). ``Image.fromarray(result).save('result.jpg')`` writes it.
    """
    rgb = _rgb(image)
    boxes = list(boxes) if boxes is not None else []
    if scores is not None and len(scores) != len(boxes):
        raise ValueError(f"scores: {len(scores)} scores for {len(boxes)} boxes")
    if txts is not None and len(txts) != len(boxes):
        raise ValueError(f"txts: {len(txts)} texts for {len(boxes)} boxes")
    keep = [i for i in range(len(boxes))
            if scores is None or not (math.isnan(float(scores[i])) or float(scores[i]) < drop_score)]
    polys = [_box_points(boxes[i]) for i in keep]
    texts = [str(txts[i]) for i in keep] if txts is not None else []
    font = os.fspath(font_path) if font_path is not None else ""
    if font and not os.path.isfile(font):
        logger.debug("draw_ocr: font %r not found, using %r", font, _ocrforge.default_font_path())
        font = ""
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    out = _ocrforge.draw_ocr_box_txt(bgr, polys, texts, font)
    if txts is None:
        out = out[:, : rgb.shape[1]]  # the image with its boxes only, as PaddleOCR without texts
    return np.ascontiguousarray(out[:, :, ::-1])
