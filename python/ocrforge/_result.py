"""PaddleOCR 3.x's result object: one per image or page of predict().

A dict (as PaddleX's results are) with PaddleOCR 3.x's keys: input_path,
page_index, model_settings, dt_polys, dt_scores, text_det_params, text_type,
textline_orientation_angles, text_rec_score_thresh, rec_texts, rec_scores,
rec_polys, rec_boxes. The keys are also attributes (res.rec_texts). Methods
and properties as PaddleOCR documents them: print(), save_to_json(),
save_to_img(), .json, .img.
"""
import json
import os
import re

import numpy as np

from . import _ocrforge


# An innermost JSON list of numbers spread over lines by indent.
_NUMBER_LIST = re.compile(r"\[\s*(-?[0-9][-0-9.eE+]*(?:,\s*-?[0-9][-0-9.eE+]*)*)\s*\]")


def _jsonable(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


class OCRResult(dict):
    """The OCR result of one image (PaddleOCR 3.x's OCRResult)."""

    def __init__(self, fields, image, scale, name, font_path):
        super().__init__(fields)
        # Kept out of the dict: the decoded image for save_to_img / .img.
        self._image = image
        self._scale = scale
        self._name = name
        self._font_path = font_path

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    @property
    def json(self):
        """The result as JSON-ready Python values: {"res": {...}} (arrays as lists)."""
        return {"res": _jsonable(dict(self))}

    def _stem_and_ext(self):
        stem, ext = os.path.splitext(os.path.basename(self._name))
        if self.get("page_index") is not None:
            stem = f"{stem}_{self['page_index']}"  # scan_0_res.json, as PaddleX names a page's files
        return stem, (ext if ext.lower() in (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff") else ".png")

    def _visualisation(self):
        """draw_ocr_box_txt of the recognised lines (BGR, 2W x H)."""
        # The image may have been decoded reduced (large JPEGs): boxes in its pixels.
        polys = [[(x / self._scale, y / self._scale) for x, y in np.asarray(p, dtype=np.float64)]
                 for p in self["rec_polys"]]
        return _ocrforge.draw_ocr_box_txt(self._image, polys, list(self["rec_texts"]), self._font_path)

    @property
    def img(self):
        """{"ocr_res_img": the visualisation}: a PIL.Image when Pillow is installed, else an RGB array."""
        rgb = np.ascontiguousarray(self._visualisation()[:, :, ::-1])
        try:
            from PIL import Image  # noqa: PLC0415 (optional)
        except ImportError:
            return {"ocr_res_img": rgb}
        return {"ocr_res_img": Image.fromarray(rgb)}

    def print(self, format_json=True, indent=4, ensure_ascii=False):
        """Prints the result: JSON with `indent` when format_json (lists of
        numbers kept on one line, so that a box is one line), else the dict."""
        if format_json:
            text = json.dumps(self.json, indent=indent, ensure_ascii=ensure_ascii)
            print(_NUMBER_LIST.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text))
        else:
            print(self.json)

    def save_to_json(self, save_path, indent=4, ensure_ascii=False):
        """Writes the JSON: to save_path itself when it ends in .json, else to
        save_path/<image stem>_res.json (folders created)."""
        save_path = os.fspath(save_path)
        if not save_path.lower().endswith(".json"):
            save_path = os.path.join(save_path, self._stem_and_ext()[0] + "_res.json")
        os.makedirs(os.path.dirname(save_path) or ".", exist_ok=True)
        with open(save_path, "w", encoding="utf-8") as f:
            json.dump(self.json, f, indent=indent, ensure_ascii=ensure_ascii)
        return save_path

    def save_to_img(self, save_path):
        """Writes the visualisation: to save_path itself when it has an image
        extension, else to save_path/<image stem>_ocr_res_img.<ext>."""
        save_path = os.fspath(save_path)
        if os.path.splitext(save_path)[1].lower() not in (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"):
            stem, ext = self._stem_and_ext()
            save_path = os.path.join(save_path, f"{stem}_ocr_res_img{ext}")
        os.makedirs(os.path.dirname(save_path) or ".", exist_ok=True)
        _ocrforge.imwrite(save_path, self._visualisation())
        return save_path

    def __repr__(self):
        return f"OCRResult({dict.__repr__(self)})"


def _int_points(poly):
    """Integer pixels as `ocrforge ocr` writes them (truncation, as PaddleOCR's astype)."""
    a = np.asarray(poly, dtype=np.float64)
    dtype = np.int16 if a.size == 0 or (np.abs(a).max() < 32768) else np.int32
    return a.astype(dtype)


def build(raw, input_path, name, params, score_thresh, font_path, page_index=None):
    """An OCRResult from the C++ side's result of one image or page (Pool.ocr);
    page_index: the page's 0-based number in its PDF / TIFF, None for an image."""
    lines = raw["lines"]

    def polys(ls):
        # As PaddleX: a list of (4, 2) int16 arrays ((k, 2) with det_box_type="poly").
        return [_int_points(line[0]) for line in ls]

    # In float32, as the C++ pipeline compares drop_score (scores are float32 values).
    kept = [line for line in lines if np.float32(line[3]) >= np.float32(score_thresh)]
    label_list = list(params["label_list"])
    angles = [label_list.index(line[4]) if line[4] in label_list else -1 for line in lines]
    rec_polys = polys(kept)
    # (n, 4) [x_min, y_min, x_max, y_max] in the polygons' dtype, as PaddleX's convert_points_to_boxes.
    boxes = np.array([[p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()] for p in rec_polys],
                     dtype=np.result_type(np.int16, *[p.dtype for p in rec_polys])).reshape(-1, 4)
    fields = {
        "input_path": input_path,
        "page_index": page_index,
        "model_settings": {"use_doc_preprocessor": False, "use_textline_orientation": params["use_angle_cls"]},
        "dt_polys": polys(lines),
        "dt_scores": [line[1] for line in lines],
        "text_det_params": {
            "limit_side_len": params["limit_side_len"],
            "limit_type": params["limit_type"],
            "thresh": params["thresh"],
            "max_side_limit": params["max_side_limit"],
            "box_thresh": params["box_thresh"],
            "unclip_ratio": params["unclip_ratio"],
        },
        "text_type": "general",
        "textline_orientation_angles": np.array(angles, dtype=np.int64),
        "text_rec_score_thresh": score_thresh,
        "rec_texts": [line[2] for line in kept],
        "rec_scores": np.array([line[3] for line in kept], dtype=np.float64),
        "rec_polys": rec_polys,
        "rec_boxes": boxes,
    }
    return OCRResult(fields, raw["image"], raw["scale"], name, font_path)
