"""PDFs and multi-page TIFFs, as a path or bytes: every selected page read
through the library's document layer (DocumentInputs), one page decoded at a
time; 2.x ocr() gives one list per page, 3.x predict() one result per page
with its page_index, as PaddleX."""
import json
import shutil

import pytest

import sample_documents as docs
from ocrforge import PaddleOCR


@pytest.fixture(scope="module")
def scan_pdf(tmp_path_factory):
    """Two pages: the receipt and the street sign as scanned JPEG pages at 144 dpi."""
    path = str(tmp_path_factory.mktemp("pdf") / "scan.pdf")
    docs.write_pdf(path, docs.SCAN_PAGES)
    return path


@pytest.fixture(scope="module")
def expected(ocr):
    """ocr() of each page's JPEG."""
    return [ocr.ocr(p, cls=True)[0] for p in docs.SCAN_PAGES]


@pytest.fixture(scope="module")
def scan_ocr():
    """pdf_dpi=0: a scanned page's own image, unrendered, so a page is exactly its JPEG."""
    return PaddleOCR(use_angle_cls=True, show_log=False, pdf_dpi=0)


def texts(page):
    return [text for _, (text, _) in page]


def test_ocr_2x_reads_every_pdf_page(scan_ocr, scan_pdf, expected):
    assert scan_ocr.ocr(scan_pdf, cls=True) == expected  # one list per page, each the page's own
    with open(scan_pdf, "rb") as f:
        assert scan_ocr.ocr(f.read(), cls=True) == expected  # the bytes of a PDF read the same
    boxes = scan_ocr.ocr(scan_pdf, rec=False)
    assert [len(p) for p in boxes] == [len(p) for p in expected]


def test_pdf_pages_render_at_paddleocrs_144_dpi(ocr, scan_pdf, expected):
    # The default: pages rendered by pdftoppm at 144 dpi (PaddleOCR's zoom 2),
    # so a 144-dpi scan renders at its own pixel size.
    doc = ocr._pool().open_document(scan_pdf)
    assert doc.kind == "pdf" and len(doc) == 2 and [doc.page_index(i) for i in range(2)] == [0, 1]
    for i, jpeg in enumerate(docs.SCAN_PAGES):
        assert ocr._pool().decode(doc.page(i)).shape == ocr._pool().decode(jpeg).shape
    result = ocr.ocr(scan_pdf, cls=True)
    assert len(result) == 2
    assert texts(result[1]) == texts(expected[1]) == ["EPPING", "Twinned with", "Eppingen,Germany"]
    assert texts(result[0])[0] == "PHO CAPITAL"


def test_page_num_and_pages(scan_pdf, expected):
    first = PaddleOCR(use_angle_cls=True, show_log=False, pdf_dpi=0, page_num=1)  # PaddleOCR 2.x's page_num
    assert first.ocr(scan_pdf, cls=True) == expected[:1]
    second = PaddleOCR(use_angle_cls=True, show_log=False, pdf_dpi=0, pages="2")  # ocrforge's --pages
    res = second.predict(scan_pdf, text_rec_score_thresh=0.5)
    assert [r["page_index"] for r in res] == [1]
    assert res[0]["rec_texts"] == texts(expected[1])
    with pytest.raises(ValueError, match="page_num"):
        PaddleOCR(show_log=False, page_num=-1)


def test_multi_page_tiff(ocr, tmp_path, expected):
    # Lossless pages: exactly what the JPEGs decode to.
    path = str(tmp_path / "fax.tif")
    docs.write_tiff(path, [ocr._pool().decode(p)[:, :, ::-1] for p in docs.SCAN_PAGES])
    assert ocr.ocr(path, cls=True) == expected
    res = ocr.predict(path, text_rec_score_thresh=0.5)
    assert [(r["input_path"], r["page_index"]) for r in res] == [(path, 0), (path, 1)]
    assert [r["rec_texts"] for r in res] == [texts(p) for p in expected]
    # A TIFF of one page is an image: page_index None, as for a JPEG.
    one = str(tmp_path / "one.tif")
    docs.write_tiff(one, [ocr._pool().decode(docs.SCAN_PAGES[1])[:, :, ::-1]])
    assert ocr.predict(one)[0]["page_index"] is None


def test_predict_3x_one_result_per_page(scan_ocr, scan_pdf, expected, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(scan_pdf, folder / "scan.pdf")
    shutil.copy(docs.SCAN_PAGES[1], folder / "a_sign.jpg")
    # A folder: its images and PDFs by name, each PDF page a result.
    res = scan_ocr.predict(str(folder), text_rec_score_thresh=0.5)
    pdf = str(folder / "scan.pdf")
    assert [(r["input_path"], r["page_index"]) for r in res] == [(str(folder / "a_sign.jpg"), None), (pdf, 0), (pdf, 1)]
    assert [r["rec_texts"] for r in res[1:]] == [texts(p) for p in expected]
    # PaddleX names a page's files <stem>_<page_index>_...
    assert res[1].save_to_json(str(tmp_path / "out")) == str(tmp_path / "out" / "scan_0_res.json")
    assert res[2].save_to_img(str(tmp_path / "out")) == str(tmp_path / "out" / "scan_1_ocr_res_img.png")
    with open(tmp_path / "out" / "scan_0_res.json", encoding="utf-8") as f:
        saved = json.load(f)["res"]
    assert saved["page_index"] == 0 and saved["input_path"] == pdf and saved["rec_texts"] == texts(expected[0])


def test_pages_are_decoded_one_at_a_time(tmp_path):
    # Page 1 (the sign, 97,200 pixels) fits the budget, page 2 (the receipt,
    # 653,100) does not: predict_iter gives page 1's result before page 2 is
    # read, then the error naming page 2.
    path = str(tmp_path / "two.pdf")
    docs.write_pdf(path, docs.SCAN_PAGES[::-1])
    small = PaddleOCR(show_log=False, max_image_pixels=200000)
    it = small.predict_iter(path)
    first = next(it)
    assert first["page_index"] == 0 and first["rec_texts"][0] == "EPPING"
    with pytest.raises(ValueError, match="page 2"):
        next(it)
    with pytest.raises(ValueError, match="page 2"):
        small.ocr(path)


def test_broken_and_missing_documents(ocr, tmp_path):
    empty = tmp_path / "doc.pdf"
    empty.write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")
    with pytest.raises(ValueError, match="doc.pdf"):
        ocr.ocr(str(empty))
    with pytest.raises(ValueError, match="bytes_0"):
        ocr.predict(empty.read_bytes())
    with pytest.raises(FileNotFoundError, match="does not exist"):
        ocr.ocr(str(tmp_path / "missing.pdf"))
    cut = tmp_path / "cut.tif"
    cut.write_bytes(b"II*\x00\xff\xff\x00\x00")
    with pytest.raises(ValueError, match="cut.tif"):
        ocr.ocr(str(cut))
