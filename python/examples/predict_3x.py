from ocrforge import PaddleOCR  # PaddleOCR 3.x: from paddleocr import PaddleOCR

ocr = PaddleOCR(
    use_doc_orientation_classify=False,  # Disables document orientation classification model via this parameter
    use_doc_unwarping=False,  # Disables text image rectification model via this parameter
    use_textline_orientation=False,  # Disables text line orientation classification model via this parameter
)
result = ocr.predict("tests/data/samples/imgs_ger_1.jpg")
for res in result:
    res.print()
    res.save_to_img("output")
    res.save_to_json("output")
