"""NumPy images: the same results as the file, read in place when the layout allows."""
import numpy as np
import pytest

from ocrforge import _ocrforge


def read_bmp(path):
    """A 24-bit BMP decoded with NumPy alone (an independent decoder): rows are
    stored bottom-up, each padded to 4 bytes, so the array is a flipped view."""
    data = open(path, "rb").read()
    assert data[:2] == b"BM"
    offset = int.from_bytes(data[10:14], "little")
    w = int.from_bytes(data[18:22], "little", signed=True)
    h = int.from_bytes(data[22:26], "little", signed=True)
    assert int.from_bytes(data[28:30], "little") == 24 and h > 0
    stride = (w * 3 + 3) & ~3
    rows = np.frombuffer(data, np.uint8, count=stride * h, offset=offset).reshape(h, stride)
    return rows[::-1, : w * 3].reshape(h, w, 3)


@pytest.fixture(scope="module")
def bmp(ocr, sample_paths, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("bmp") / "imgs_00009282.bmp")
    _ocrforge.imwrite(path, ocr._pool().decode(sample_paths[3]))  # lossless copy of the JPEG's pixels
    return path


def test_array_equals_path(ocr, bmp):
    expected = ocr.ocr(bmp)
    assert expected[0] is not None and len(expected[0]) > 5
    flipped = read_bmp(bmp)  # negative row stride: copied
    assert not _ocrforge.array_is_view(flipped)
    assert ocr.ocr(flipped) == expected
    contiguous = np.ascontiguousarray(flipped)  # what cv2.imread gives: read in place
    assert _ocrforge.array_is_view(contiguous)
    assert ocr.ocr(contiguous) == expected
    padded = np.zeros((contiguous.shape[0], contiguous.shape[1] + 13, 3), np.uint8)
    padded[:, : contiguous.shape[1]] = contiguous
    inner = padded[:, : contiguous.shape[1]]  # longer rows: still read in place
    assert _ocrforge.array_is_view(inner)
    assert ocr.ocr(inner) == expected
    fortran = np.asfortranarray(contiguous)
    assert not _ocrforge.array_is_view(fortran)
    assert ocr.ocr(fortran) == expected


def test_bytes_equal_path(ocr, sample_paths):
    with open(sample_paths[1], "rb") as f:
        data = f.read()
    assert ocr.ocr(data) == ocr.ocr(sample_paths[1])


def test_grey_and_bgra_arrays(ocr, bmp):
    bgr = np.ascontiguousarray(read_bmp(bmp))
    grey = bgr[:, :, 1].copy()
    assert ocr.ocr(grey) == ocr.ocr(np.repeat(grey[:, :, None], 3, axis=2))
    opaque = np.concatenate([bgr, np.full(bgr.shape[:2] + (1,), 255, np.uint8)], axis=2)
    assert ocr.ocr(opaque) == ocr.ocr(bgr)


def test_transparent_pixels_take_alpha_color(ocr):
    bgra = np.zeros((8, 8, 4), np.uint8)
    bgra[:, :, :3] = (10, 20, 30)
    bgra[:4, :, 3] = 0      # transparent: the background
    bgra[4:, :, 3] = 255    # opaque: the pixel itself
    pool = ocr._pool()
    out = pool.decode(bgra, (200, 100, 50))  # alpha_color is R, G, B
    assert out[0, 0].tolist() == [50, 100, 200]
    assert out[7, 7].tolist() == [10, 20, 30]
    half = bgra.copy()
    half[:, :, 3] = 128
    # PaddleOCR's arithmetic: uint8(bg * (1 - a) + c * a), a = A / 255.
    a = 128 / 255
    assert pool.decode(half, (255, 255, 255))[0, 0].tolist() == [int(255 * (1 - a) + c * a) for c in (10, 20, 30)]


def test_invert_and_binarize(ocr, sample_paths):
    pool = ocr._pool()
    plain = pool.decode(sample_paths[0])
    assert np.array_equal(pool.decode(sample_paths[0], inv=True), 255 - plain)
    binary = pool.decode(sample_paths[0], bin=True)
    assert set(np.unique(binary).tolist()) <= {0, 255}
    assert ocr.ocr(sample_paths[1], inv=True, bin=True)[0] is not None  # still reads the page


def test_the_callers_array_is_not_modified(ocr, bmp):
    img = np.ascontiguousarray(read_bmp(bmp))
    before = img.copy()
    ocr.ocr(img)
    ocr.ocr([img[:48, :200]], det=False, cls=True)  # the classifier rotates crops: on a copy
    assert np.array_equal(img, before)
