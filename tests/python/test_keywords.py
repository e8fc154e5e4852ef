"""Every PaddleOCR keyword is honoured or refused with a ValueError naming it."""
import logging

import pytest

from ocrforge import PaddleOCR, _keywords


@pytest.mark.parametrize(
    "kwargs, named",
    [
        ({"det_db_box_threshold": 0.5}, "Unknown argument: det_db_box_threshold (did you mean 'det_db_box_thresh'?)"),
        ({"lang": "fr"}, "ships the model sets ['ch', 'en']"),
        ({"ocr_version": "PP-OCRv5"}, "ocr_version='PP-OCRv5'"),
        ({"enable_mkldnn": True}, "enable_mkldnn=True"),
        ({"use_tensorrt": True}, "use_tensorrt"),
        ({"precision": "fp16"}, "precision=fp16"),
        ({"det_algorithm": "EAST"}, "det_algorithm=EAST"),
        ({"det_east_score_thresh": 0.8}, "det_east_score_thresh"),
        ({"rec_algorithm": "SRN"}, "rec_algorithm='SRN'"),
        ({"page_num": -1}, "page_num must be >= 0"),
        ({"pdf_dpi": 5}, "pdf_dpi must be 0"),
        ({"use_doc_orientation_classify": True}, "use_doc_orientation_classify=True"),
        ({"text_det_input_shape": (3, 640, 640)}, "text_det_input_shape"),
        ({"return_word_box": True}, "return_word_box=True"),
        ({"device": "npu:0"}, "device='npu:0'"),
        ({"type": "structure"}, "type='structure'"),
        ({"min_subgraph_size": 5}, "min_subgraph_size=5"),
        ({"det_db_box_thresh": 1.5}, "det_db_box_thresh=1.5 is out of range"),
        ({"text_det_box_thresh": 1.5}, "text_det_box_thresh=1.5 is out of range"),  # the caller's name
        ({"det_limit_type": "both"}, "det_limit_type must be max or min"),
        ({"cls_thresh": "high"}, "cls_thresh='high': expected a number"),
        ({"use_angle_cls": "yes"}, "use_angle_cls='yes': expected True or False"),
        ({"det_db_box_thresh": 0.5, "text_det_box_thresh": 0.5}, "`det_db_box_thresh` and `text_det_box_thresh` are mutually exclusive."),
        ({"image_dir": "photos/"}, "image_dir='photos/'"),
        ({"table_model_dir": "t/"}, "table_model_dir"),
    ],
)
def test_refused_with_the_keyword_named(kwargs, named):
    with pytest.raises(ValueError) as e:
        PaddleOCR(show_log=False, **kwargs)
    assert named in str(e.value)


def test_defaults_of_refused_keywords_are_accepted():
    # A script that spells out PaddleOCR's defaults runs unchanged.
    ocr = PaddleOCR(use_gpu=False, enable_mkldnn=False, use_onnx=False, gpu_mem=500, max_batch_size=10,
                    min_subgraph_size=15, use_mp=False, total_process_num=1, det=True, rec=True, type="ocr",
                    lang="ch", ocr_version="PP-OCRv4", max_text_length=25, use_tensorrt=False, show_log=False,
                    use_doc_orientation_classify=False, use_doc_unwarping=None, det_algorithm="DB",
                    rec_algorithm="SVTR_LCNet", page_num=0, return_word_box=False)
    assert ocr.use_angle_cls is False


def test_every_keyword_has_a_handler():
    kinds = dict(_keywords.describe())
    for name in ("use_angle_cls", "det_db_box_thresh", "text_det_box_thresh", "use_textline_orientation", "device",
                 "lang", "show_log", "rec_batch_num", "text_recognition_batch_size", "drop_score",
                 "text_rec_score_thresh", "cpu_threads", "enable_mkldnn", "use_onnx"):
        assert name in kinds and kinds[name] != "?"
    assert kinds["det_db_box_thresh"] == kinds["text_det_box_thresh"] == "flag --det_db_box_thresh"


def test_honoured_keywords_change_the_result(ocr, sample_paths):
    path = sample_paths[3]  # the scanned form: many boxes
    default = ocr.predict(path)[0]
    strict = PaddleOCR(use_angle_cls=True, det_db_box_thresh=0.9, show_log=False).predict(path)[0]
    strict3 = PaddleOCR(use_textline_orientation=True, text_det_box_thresh=0.9, show_log=False).predict(path)[0]
    assert 0 < len(strict["dt_polys"]) < len(default["dt_polys"])
    assert strict["rec_texts"] == strict3["rec_texts"]  # the 2.x and 3.x names mean the same
    assert strict["text_det_params"]["box_thresh"] == pytest.approx(0.9)
    # Per call (3.x): a new parameter set for this call only.
    assert ocr.predict(path, text_det_box_thresh=0.9)[0]["rec_texts"] == strict["rec_texts"]
    assert ocr.predict(path)[0]["rec_texts"] == default["rec_texts"]
    kept = PaddleOCR(drop_score=0.95, show_log=False).ocr(path)[0]
    assert all(score >= 0.95 for _, (_, score) in kept)
    assert len(kept) < len(ocr.ocr(path)[0])


def test_classifier_switches(ocr, sample_paths):
    plain = PaddleOCR(show_log=False)
    assert plain.use_angle_cls is False and ocr.use_angle_cls is True
    res = plain.predict(sample_paths[1])[0]
    assert set(res["textline_orientation_angles"].tolist()) == {-1}  # not run
    with_cls = plain.predict(sample_paths[1], use_textline_orientation=True)[0]
    assert set(with_cls["textline_orientation_angles"].tolist()) <= {0, 1}
    # ocr(cls=False) skips a loaded classifier, as PaddleOCR's.
    assert ocr.ocr(sample_paths[1], cls=False) == plain.ocr(sample_paths[1])


def test_show_log_prints_paddleocr_debug_lines(sample_paths):
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    log = logging.getLogger("ocrforge")
    keep = Keep()
    log.addHandler(keep)
    try:
        PaddleOCR(show_log=True).ocr(sample_paths[2])
        assert any(m.startswith("dt_boxes num : ") for m in records)
        records.clear()
        PaddleOCR(show_log=False).ocr(sample_paths[2])
        assert not any(m.startswith("dt_boxes num") for m in records)
    finally:
        log.removeHandler(keep)


def test_save_crop_res(sample_paths, tmp_path):
    ocr = PaddleOCR(save_crop_res=True, crop_res_save_dir=str(tmp_path), show_log=False)
    raw = ocr.predict(sample_paths[2])[0]
    ocr.ocr(sample_paths[2])
    ocr.ocr(sample_paths[2])
    files = sorted(p.name for p in tmp_path.iterdir())
    n = len(raw["dt_polys"])
    assert files == sorted(f"mg_crop_{i}.jpg" for i in range(2 * n))  # numbered across calls
