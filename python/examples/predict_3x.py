# Initialize PaddleOCR instance
from ocrforge import PaddleOCR  # PaddleOCR 3.x: from paddleocr import PaddleOCR
ocr = PaddleOCR(
    lang="en",
    use_doc_orientation_classify=False,
    use_doc_unwarping=False,
    use_textline_orientation=False)

# Run OCR inference on a sample PDF
result = ocr.predict(
    input="scan.pdf")

# Visualize the results and save the JSON results
for res in result:
    res.print()
    res.save_to_img("output")
    res.save_to_json("output")
