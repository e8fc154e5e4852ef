"""ocrforge: PaddleOCR's Python API on ocrforge's C++ engine.

Reads text (images, PDFs, multi-page TIFFs) with the PP-OCRv4 models on ONNX
Runtime: no Paddle, no LibTorch.

    from ocrforge import PaddleOCR, draw_ocr
    ocr = PaddleOCR(use_angle_cls=True, lang="en")   # lang: "ch" or "en"
    result = ocr.ocr("sign.jpg", cls=True)     # 2.x: [[[box, (text, score)], ...]] per page
    picture = draw_ocr(Image.open("sign.jpg"), [l[0] for l in result[0]], [l[1][0] for l in result[0]])
    for res in ocr.predict("scan.pdf"):        # 3.x: OCRResult per page (rec_texts, rec_polys, page_index, ...)
        res.print()
        res.save_to_json("output")

See docs/python.md of the ocrforge repository for every keyword.
"""
from ._draw import draw_ocr
from ._ocrforge import __version__
from ._paddleocr import PaddleOCR
from ._result import OCRResult

__all__ = ["PaddleOCR", "OCRResult", "draw_ocr", "__version__"]
