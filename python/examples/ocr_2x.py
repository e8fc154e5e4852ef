from ocrforge import PaddleOCR  # PaddleOCR 2.x: from paddleocr import PaddleOCR

ocr = PaddleOCR(use_angle_cls=True, lang="ch", det_db_box_thresh=0.6)  # need to run only once to load the models
img_path = "tests/data/samples/imgs_11.jpg"
result = ocr.ocr(img_path, cls=True)
for idx in range(len(result)):
    res = result[idx]
    for line in res:
        print(line)
scores = [line[1][1] for line in result[0]]
print(f"{len(scores)} lines, mean score {sum(scores) / len(scores):.3f}")
