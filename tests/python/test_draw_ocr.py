"""draw_ocr: PaddleOCR 2.x's signature and return, drawn by the library's
draw_ocr_box_txt (ocrforge/vision/draw_ocr.h)."""
import numpy as np
import pytest

import ocrforge
from ocrforge import _ocrforge, draw_ocr
from conftest import SAMPLES

SIGN = SAMPLES + "/imgs_ger_1.jpg"


@pytest.fixture(scope="module")
def sign(ocr):
    """The street sign as RGB (as Image.open(p).convert('RGB') gives) and its lines."""
    bgr = ocr._pool().decode(SIGN)
    page = ocr.ocr(SIGN)[0]
    return np.ascontiguousarray(bgr[:, :, ::-1]), page


def library_drawing(rgb, boxes, txts):
    """The C++ drawing of the same boxes and texts, as RGB."""
    polys = [[tuple(p) for p in b] for b in boxes]
    return _ocrforge.draw_ocr_box_txt(np.ascontiguousarray(rgb[:, :, ::-1]), polys, list(txts), "")[:, :, ::-1]


def test_draw_ocr_is_exported():
    assert ocrforge.draw_ocr is draw_ocr and "draw_ocr" in ocrforge.__all__


def test_image_with_boxes_beside_the_texts(sign):
    rgb, page = sign
    boxes = [line[0] for line in page]
    txts = [line[1][0] for line in page]
    scores = [line[1][1] for line in page]
    # PaddleOCR's quickstart passes a font of its own repository: missing here, the default font is used.
    out = draw_ocr(rgb, boxes, txts, scores, font_path="./fonts/simfang.ttf")
    h, w = rgb.shape[:2]
    assert out.shape == (h, 2 * w, 3) and out.dtype == np.uint8
    assert np.array_equal(out, library_drawing(rgb, boxes, txts))
    # Left: the image, tinted inside the boxes only; right: white but for the boxes and their texts.
    x0, y0 = np.min(boxes[0], axis=0).astype(int)
    x1, y1 = np.max(boxes[0], axis=0).astype(int)
    assert np.array_equal(out[:5, :5], rgb[:5, :5])
    assert not np.array_equal(out[y0 + 3:y1 - 3, x0 + 3:x1 - 3], rgb[y0 + 3:y1 - 3, x0 + 3:x1 - 3])
    right = out[:, w:]
    assert (right[:5, :5] == 255).all()
    assert (right[y0 + 3:y1 - 3, x0 + 3:x1 - 3] < 128).any()  # text drawn in the first box


def test_drop_score_and_no_texts(sign):
    rgb, page = sign
    boxes = [line[0] for line in page]
    txts = [line[1][0] for line in page]
    scores = [line[1][1] for line in page]
    low = [0.3] + scores[1:]  # the first line under drop_score 0.5: not drawn
    assert np.array_equal(draw_ocr(rgb, boxes, txts, low), library_drawing(rgb, boxes[1:], txts[1:]))
    assert np.array_equal(draw_ocr(rgb, boxes, txts, [float("nan")] + scores[1:]),
                          library_drawing(rgb, boxes[1:], txts[1:]))
    assert np.array_equal(draw_ocr(rgb, boxes, txts, low, drop_score=0.2), library_drawing(rgb, boxes, txts))
    # Without texts: the image with its boxes, its own size.
    only = draw_ocr(rgb, boxes)
    assert only.shape == rgb.shape
    assert np.array_equal(only, draw_ocr(rgb, boxes, txts)[:, : rgb.shape[1]])
    # 3.x's rec_polys (int16 arrays) draw as 2.x's float boxes do.
    res = {"rec_polys": [np.asarray(b, dtype=np.int16) for b in boxes]}
    assert draw_ocr(rgb, res["rec_polys"], txts).shape == (rgb.shape[0], 2 * rgb.shape[1], 3)
    with pytest.raises(ValueError, match="2 texts for 3 boxes"):
        draw_ocr(rgb, boxes, txts[:2])


def test_pil_and_grey_images(sign):
    Image = pytest.importorskip("PIL.Image")
    rgb, page = sign
    boxes = [line[0] for line in page]
    txts = [line[1][0] for line in page]
    expected = draw_ocr(rgb, boxes, txts)
    assert np.array_equal(draw_ocr(Image.fromarray(rgb), boxes, txts), expected)
    rgba = np.concatenate([rgb, np.full(rgb.shape[:2] + (1,), 255, np.uint8)], axis=2)
    assert np.array_equal(draw_ocr(Image.fromarray(rgba, "RGBA"), boxes, txts), expected)
    grey = rgb[:, :, 1].copy()
    assert np.array_equal(draw_ocr(grey, boxes, txts), draw_ocr(np.repeat(grey[:, :, None], 3, axis=2), boxes, txts))
