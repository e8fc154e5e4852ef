"""PIL images wherever NumPy arrays are accepted (ocr(), ocr(det=False) lists,
predict()), converted as cv2 would read the same pixels: RGB -> BGR, 'L'
grey, 'RGBA' blended onto alpha_color, 'P' through its palette."""
import numpy as np
import pytest

from conftest import SAMPLES

Image = pytest.importorskip("PIL.Image")  # Debian's python3-pil (bootstrap installs it with ocrmypdf)

SIGN = SAMPLES + "/imgs_ger_1.jpg"


@pytest.fixture(scope="module")
def bgr(ocr):
    return ocr._pool().decode(SIGN)


def test_rgb_and_grey(ocr, bgr):
    expected = ocr.ocr(bgr)
    assert expected[0] and expected[0][0][1][0] == "EPPING"
    assert ocr.ocr(Image.fromarray(np.ascontiguousarray(bgr[:, :, ::-1]))) == expected
    grey = np.ascontiguousarray(bgr[:, :, 1])
    assert ocr.ocr(Image.fromarray(grey)) == ocr.ocr(grey)


def test_rgba_and_palette(ocr, bgr):
    rgb = np.ascontiguousarray(bgr[:, :, ::-1])
    alpha = np.full(rgb.shape[:2] + (1,), 255, np.uint8)
    alpha[:40] = 0  # a transparent band: blended onto alpha_color, as for a BGRA array
    rgba = Image.fromarray(np.concatenate([rgb, alpha], axis=2), "RGBA")
    bgra = np.concatenate([bgr, alpha], axis=2)
    assert ocr.ocr(rgba, alpha_color=(0, 0, 0)) == ocr.ocr(bgra, alpha_color=(0, 0, 0))
    palette = Image.fromarray(rgb).convert("P")
    as_rgb = np.asarray(palette.convert("RGB"))
    assert ocr.ocr(palette) == ocr.ocr(np.ascontiguousarray(as_rgb[:, :, ::-1]))


def test_predict_and_text_line_lists(ocr, bgr):
    pil = Image.fromarray(np.ascontiguousarray(bgr[:, :, ::-1]))
    res = ocr.predict([pil, bgr])
    assert res[0]["rec_texts"] == res[1]["rec_texts"] and res[0]["input_path"] is None
    line = ocr.ocr(SIGN)[0][0][0]
    x0, y0 = np.min(line, axis=0).astype(int)
    x1, y1 = np.max(line, axis=0).astype(int)
    crop = bgr[y0:y1, x0:x1]
    rec = ocr.ocr([pil.crop((x0, y0, x1, y1))], det=False)
    assert rec == ocr.ocr([np.ascontiguousarray(crop)], det=False) and rec[0][0][0] == "EPPING"
    with pytest.raises(TypeError, match="PIL image"):
        ocr.ocr(12345)
