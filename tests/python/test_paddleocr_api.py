"""PaddleOCR's two APIs read what `ocrforge ocr` reads on the same images."""
import json
import os

import numpy as np

from conftest import IMAGES, SAMPLES


def int_points(box):
    # system_results.txt holds integer points (truncated, as PaddleOCR's astype).
    return [[int(x), int(y)] for x, y in box]


def test_ocr_2x_gives_the_cli_texts_and_boxes(ocr, sample_paths, cli_results):
    for path in sample_paths:
        result = ocr.ocr(path, cls=True)
        assert isinstance(result, list) and len(result) == 1  # one page per image
        page = result[0]
        expected = cli_results[os.path.basename(path)]
        if not expected:
            assert page is None  # PaddleOCR 2.x: None for a page where nothing was read
            continue
        assert [(text, int_points(box)) for box, (text, _) in page] == expected
        for box, line in page:
            assert isinstance(line, tuple) and isinstance(line[0], str) and isinstance(line[1], float)
            assert 0.5 <= line[1] <= 1.0  # drop_score 0.5
            assert len(box) == 4 and all(isinstance(v, float) for p in box for v in p)


def test_predict_3x_gives_the_cli_texts_and_boxes(ocr, sample_paths, cli_results):
    results = ocr.predict(sample_paths, text_rec_score_thresh=0.5)
    assert len(results) == len(sample_paths)
    for path, res in zip(sample_paths, results):
        expected = cli_results[os.path.basename(path)]
        assert res["input_path"] == path
        assert res["rec_texts"] == [t for t, _ in expected]
        assert [p.tolist() for p in res["rec_polys"]] == [pts for _, pts in expected]
        assert res.rec_texts is res["rec_texts"]  # keys are attributes too
        # As PaddleX: dt_polys / rec_polys lists of (4, 2) int16 arrays, rec_boxes one (n, 4) array.
        for polys in (res["dt_polys"], res["rec_polys"]):
            assert isinstance(polys, list)
            assert all(p.shape == (4, 2) and p.dtype == np.int16 for p in polys)
        assert isinstance(res["rec_scores"], np.ndarray) and np.all(res["rec_scores"] >= 0.5)
        assert res["rec_boxes"].shape == (len(expected), 4) and res["rec_boxes"].dtype == np.int16
        for box, poly in zip(res["rec_boxes"], res["rec_polys"]):
            assert box.tolist() == [poly[:, 0].min(), poly[:, 1].min(), poly[:, 0].max(), poly[:, 1].max()]
        assert len(res["dt_polys"]) == len(res["dt_scores"]) == len(res["textline_orientation_angles"])
        assert len(res["dt_polys"]) >= len(res["rec_polys"])
        assert set(res["textline_orientation_angles"].tolist()) <= {0, 1}  # classifier on: class index
        assert res["model_settings"] == {"use_doc_preprocessor": False, "use_textline_orientation": True}
        assert res["text_det_params"]["box_thresh"] == 0.6 and res["text_det_params"]["limit_type"] == "max"


def test_predict_keeps_every_detected_line_by_default(ocr, sample_paths):
    # PaddleOCR 3.x's text_rec_score_thresh defaults to 0.0: nothing is dropped.
    res = ocr.predict(sample_paths[0])[0]
    assert res["text_rec_score_thresh"] == 0.0
    assert len(res["rec_texts"]) == len(res["dt_polys"])
    assert [p.tolist() for p in res["rec_polys"]] == [p.tolist() for p in res["dt_polys"]]


def test_predict_reads_a_folder_in_name_order(ocr, sample_paths):
    folder = os.path.dirname(sample_paths[0])
    results = ocr.predict(folder, text_rec_score_thresh=0.5)
    assert [os.path.basename(r["input_path"]) for r in results] == sorted(IMAGES)


def test_result_files_and_json(ocr, sample_paths, tmp_path):
    res = ocr.predict(sample_paths[0])[0]
    json_path = res.save_to_json(str(tmp_path))
    img_path = res.save_to_img(str(tmp_path))
    assert json_path == str(tmp_path / "imgs_11_res.json")
    assert img_path == str(tmp_path / "imgs_11_ocr_res_img.jpg")
    with open(json_path, encoding="utf-8") as f:
        saved = json.load(f)
    assert saved == res.json
    assert saved["res"]["rec_texts"] == res["rec_texts"]
    assert saved["res"]["rec_polys"] == [p.tolist() for p in res["rec_polys"]]
    assert saved["res"]["rec_boxes"] == res["rec_boxes"].tolist() and res["rec_boxes"].shape == (len(res["rec_texts"]), 4)
    assert os.path.getsize(img_path) > 1000
    vis = res._visualisation()
    h, w = res._image.shape[:2]
    assert vis.shape == (h, 2 * w, 3)  # image with boxes left, texts right
    # A file name given explicitly is used as it is.
    assert res.save_to_json(str(tmp_path / "x.json")) == str(tmp_path / "x.json")


def test_detection_only_and_recognition_only(ocr, sample_paths):
    path = sample_paths[0]
    boxes = ocr.ocr(path, rec=False)[0]
    full = ocr.predict(path)[0]
    # The detector's own order (PaddleOCR's ocr(rec=False)), the same boxes as the pipeline's.
    assert sorted(int_points(b) for b in boxes) == sorted(p.tolist() for p in full["dt_polys"])
    # A word image as one text line.
    rec = ocr.ocr(os.path.join(SAMPLES, "ch_word_3.jpg"), det=False, cls=True)
    assert len(rec) == 1 and len(rec[0]) == 1
    text, score = rec[0][0]
    assert isinstance(text, str) and text and 0 < score <= 1
    cls = ocr.ocr(os.path.join(SAMPLES, "ch_word_3.jpg"), det=False, rec=False, cls=True)
    assert len(cls[0]) == 1 and cls[0][0][0] in ("0", "180") and 0 < cls[0][0][1] <= 1
