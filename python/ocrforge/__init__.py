"""ocrforge: PaddleOCR's Python API on ocrforge's C++ engine.

Reads text with the PP-OCRv4 models on ONNX Runtime: no Paddle, no LibTorch.

    from ocrforge import PaddleOCR
    ocr = PaddleOCR(use_angle_cls=True, lang="ch")
    result = ocr.ocr("sign.jpg", cls=True)     # 2.x: [[[box, (text, score)], ...]] per page
    for res in ocr.predict("sign.jpg"):        # 3.x: OCRResult (rec_texts, rec_scores, rec_polys, ...)
        res.print()
        res.save_to_json("output")

See docs/python.md of the ocrforge repository for every keyword.
"""
from ._ocrforge import __version__
from ._paddleocr import PaddleOCR
from ._result import OCRResult

__all__ = ["PaddleOCR", "OCRResult", "__version__"]
