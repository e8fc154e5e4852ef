"""Bad input raises the Python exception a Python user expects, with
ocrforge's message, and never takes the process down; the object keeps
working afterwards."""
import os

import numpy as np
import pytest


def test_missing_file(ocr, tmp_path):
    missing = str(tmp_path / "nope.jpg")
    with pytest.raises(FileNotFoundError, match="nope.jpg' does not exist"):
        ocr.ocr(missing)
    with pytest.raises(FileNotFoundError):
        ocr.predict([missing])


def test_folder_instead_of_an_image(ocr, tmp_path):
    with pytest.raises(IsADirectoryError, match="is a folder"):
        ocr.ocr(str(tmp_path))


def test_corrupt_image(ocr, sample_paths, tmp_path):
    with open(sample_paths[0], "rb") as f:
        data = f.read()
    bad = tmp_path / "cut.jpg"
    bad.write_bytes(data[:200])  # a JPEG cut after its header
    with pytest.raises(ValueError, match="corrupt or truncated JPEG"):
        ocr.ocr(str(bad))
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    with pytest.raises(ValueError, match="cannot be decoded"):
        ocr.ocr(str(text))
    with pytest.raises(ValueError, match="bytes .* cannot be decoded"):
        ocr.ocr(b"\x00\x01 not an image")
    with pytest.raises(ValueError, match="empty"):
        ocr.ocr(b"")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="empty"):
        ocr.ocr(str(empty))
    assert ocr.ocr(sample_paths[0])[0] is not None  # still working


def test_bad_arrays(ocr):
    with pytest.raises(ValueError, match="dtype uint8"):
        ocr.ocr(np.zeros((32, 32, 3), np.float32))
    with pytest.raises(ValueError, match="channels"):
        ocr.ocr(np.zeros((32, 32, 2), np.uint8))
    with pytest.raises(ValueError, match="empty"):
        ocr.ocr(np.zeros((0, 32, 3), np.uint8))
    with pytest.raises(TypeError, match="expected a path"):
        ocr.ocr(12345)


def test_urls_are_refused(ocr):
    with pytest.raises(ValueError, match="URLs are not supported"):
        ocr.ocr("https://example.com/a.jpg")


def test_call_arguments(ocr, sample_paths):
    with pytest.raises(ValueError, match="det must be false"):
        ocr.ocr([np.zeros((8, 8, 3), np.uint8)], det=True)
    with pytest.raises(ValueError, match="slice"):
        ocr.ocr(sample_paths[0], slice={"horizontal_stride": 300})
    with pytest.raises(ValueError, match="alpha_color"):
        ocr.ocr(sample_paths[0], alpha_color=(0, 0))
    with pytest.raises(TypeError):
        ocr.ocr(sample_paths[0], unknown=True)  # a method's unknown keyword: Python's own error
    with pytest.raises(ValueError, match="use_doc_unwarping"):
        ocr.predict(sample_paths[0], use_doc_unwarping=True)
    with pytest.raises(ValueError, match="text_det_box_thresh"):
        ocr.predict(sample_paths[0], text_det_box_thresh="high")


def test_missing_model(tmp_path):
    from ocrforge import PaddleOCR

    with pytest.raises(FileNotFoundError, match="det_model_dir"):
        PaddleOCR(det_model_dir=str(tmp_path / "none"), show_log=False)
    empty = tmp_path / "empty_model"
    empty.mkdir()
    with pytest.raises(RuntimeError, match="empty_model"):
        PaddleOCR(det_model_dir=str(empty), show_log=False)
    assert os.path.isdir(empty)


def test_round3_hostile_inputs(tmp_path):
    """Round 3 of docs/reliability.md: the pixel budget holds for bytes and
    arrays as for paths; a broadcast view with a side past 2^31 raises
    instead of being read as a few rows; an undecodable path is a ValueError."""
    from ocrforge import PaddleOCR

    small = PaddleOCR(lang="ch", show_log=False, max_image_pixels=10000)
    png = bytearray(open(os.path.join(os.environ["OCRFORGE_SOURCE_DIR"], "tests", "fuzz", "corpus",
                                      "image_decode", "img.png"), "rb").read())
    png[16:20] = (20000).to_bytes(4, "big")  # the IHDR claims 20000 x 16
    with pytest.raises(ValueError, match="over max_image_pixels=10000"):  # the keyword named, not the flag
        small.ocr(bytes(png))
    with pytest.raises(ValueError, match="over max_image_pixels"):
        small.ocr(np.zeros((200, 200, 3), np.uint8))
    view = np.broadcast_to(np.zeros((1, 2), np.uint8), (2 ** 32 + 5, 2))
    with pytest.raises(ValueError, match="over 2\\^31"):
        small.ocr(view)
    cut = tmp_path / "bad.jpg"
    cut.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 40)
    with pytest.raises(ValueError, match="cannot be decoded"):
        small.ocr(str(cut))
