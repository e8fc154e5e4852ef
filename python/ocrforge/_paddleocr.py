"""PaddleOCR's Python API on ocrforge's engine.

One class serves both PaddleOCR generations: ``ocr()`` is 2.x's (nested lists
per page), ``predict()`` / ``predict_iter()`` are 3.x's (OCRResult objects).
The constructor takes both generations' keywords (_keywords.py: each
honoured or refused with a ValueError). Detection and recognition run in
C++ (ocrforge._ocrforge) without the GIL; one object may be used from
several threads at once (each call leases its own pipeline).
"""
import contextlib
import logging
import os
import sys
import threading

import numpy as np

from . import _inputs, _keywords, _locations, _ocrforge, _result

logger = logging.getLogger("ocrforge")

# The default --pdf_dpi of the Python API: PaddleOCR 2.x renders PDF pages
# with PyMuPDF at zoom 2, PaddleX (3.x) with pypdfium2 at scale 2: 144 dpi.
PDF_DPI = "144"


def _brings_dict(rec_dir):
    return rec_dir is not None and os.path.isfile(os.path.join(rec_dir, "inference.yml"))


def _configure_logging(show_log):
    # As PaddleOCR's ppocr logger: its own handler, DEBUG lines (per-image
    # counts and times) unless show_log=False. On stderr, so stdout keeps
    # only what the program prints.
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("[%(asctime)s] %(name)s %(levelname)s: %(message)s", "%Y/%m/%d %H:%M:%S"))
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(logging.DEBUG if show_log else logging.INFO)


def _alpha_color(value):
    try:
        rgb = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        rgb = ()
    if len(rgb) != 3 or not all(0 <= v <= 255 for v in rgb):
        raise ValueError(f"alpha_color={value!r}: expected three integers in [0, 255] (R, G, B)")
    return rgb


class PaddleOCR:
    """PaddleOCR(**kwargs): the models are loaded here.

    Keywords are PaddleOCR's (2.x: ``use_angle_cls=True, lang="ch",
    det_db_box_thresh=0.6, ...``; 3.x: ``use_textline_orientation=True,
    text_det_box_thresh=0.6, ...``), mapped to ``ocrforge ocr``'s flags of the
    same meaning; those ocrforge cannot honour raise ValueError naming them
    (docs/python.md lists every keyword). Defaults are ocrforge's (those of
    ``ocrforge ocr``: PP-OCRv4 models, direction classifier off, CPU).
    Raises FileNotFoundError for a missing model or dictionary, ValueError
    for a bad or unsupported value, RuntimeError for a model ocrforge cannot
    run.
    """

    def __init__(self, **kwargs):
        settings = _keywords.resolve(kwargs)
        self._settings = settings
        _configure_logging(settings.show_log)
        self._base = self._model_flags(settings.flags, settings.lang)
        self._base.update(settings.flags)
        # PDF pages at PaddleOCR's resolution (PyMuPDF / pypdfium2 at zoom 2),
        # so that boxes fall on the page images its examples draw on.
        self._base.setdefault("pdf_dpi", PDF_DPI)
        # Always explicit, so that ocr(cls=...) and predict(use_textline_orientation=...)
        # asking for the constructor's choice find the constructor's pool.
        self._base["use_angle_cls"] = settings.flags.get("use_angle_cls", "False")
        if self._base.get("precision") == "int8" and "int8_calibration_dir" not in self._base:
            calibration = _locations.calibration_dir()
            if calibration:
                self._base["int8_calibration_dir"] = calibration
        self._engine = _ocrforge.Engine()
        self._pools = {}
        self._crop_lock = threading.Lock()
        self._crop_index = 0
        pool = self._pool()  # loads the models: errors surface here
        self._params = pool.params
        logger.debug("ocrforge %s, parameters: %s", _ocrforge.__version__, self._params)
        if settings.warmup:
            # PaddleOCR's warmup: the models run on a random image first.
            rng = np.random.default_rng(0)
            noise = rng.integers(0, 256, size=(640, 640, 3), dtype=np.uint8)
            for _ in range(2):
                pool.ocr(noise)

    @staticmethod
    def _model_flags(given, lang):
        """The shipped models of `lang` for every model flag the caller did not give."""
        need = [f for f in ("det_model_dir", "rec_model_dir", "cls_model_dir") if f not in given]
        # An `ocrforge export` folder (models/en/rec is one) brings its own dictionary (inference.yml).
        if "rec_char_dict_path" not in given and not _brings_dict(given.get("rec_model_dir")):
            need.append("rec_char_dict_path")
        if not need:
            return {}
        if "rec_model_dir" in given and lang not in _ocrforge.available_langs():
            lang = _ocrforge.available_langs()[0]  # the caller's recogniser, the default det / cls
        models = _locations.lang_models(lang)
        if "rec_model_dir" in need and "rec_char_dict_path" in need and _brings_dict(models["rec_model_dir"]):
            need.remove("rec_char_dict_path")
        # The set's word list goes with the set's own recognizer (as `ocrforge ocr --lang`).
        if "rec_model_dir" in need and "rec_lexicon" not in given and models.get("rec_lexicon"):
            need.append("rec_lexicon")
        # ... and its detector setting with the shipped detector.
        if "det_model_dir" in need and "det_db_box_thresh" not in given and lang != _ocrforge.available_langs()[0]:
            need.append("det_db_box_thresh")
        return {flag: models[flag] for flag in need}

    def _pool(self, keyword_of=None, **overrides):
        """The C++ pipeline pool for the base flags with `overrides` (flag -> text)."""
        flags = dict(self._base)
        flags.update(overrides)
        key = tuple(flags.items())
        pool = self._pools.get(key)
        if pool is None:
            if self._engine is None:
                raise RuntimeError("this PaddleOCR object was closed (close()); create a new one")
            try:
                pool = self._engine.pool([f"--{k}={v}" for k, v in flags.items()])
            except (ValueError, RuntimeError) as e:
                names = dict(self._settings.keyword_of)
                names.update(keyword_of or {})
                raise type(e)(_keywords.name_keywords(str(e), names)) from None
            self._pools[key] = pool
        return pool

    @property
    def use_angle_cls(self):
        """Whether the direction classifier was loaded (use_angle_cls / use_textline_orientation)."""
        return bool(self._params["use_angle_cls"])

    # ------------------------------------------------------------ 2.x

    def ocr(self, img, det=True, rec=True, cls=True, bin=False, inv=False, alpha_color=(255, 255, 255), slice={}):  # noqa: A002, B006 (PaddleOCR's names)
        """PaddleOCR 2.x's ocr(): one result per page.

        img: a path or bytes of an image, a PDF or a TIFF (every selected
        page: page_num=N at construction keeps the first N; pages read one
        at a time), a NumPy uint8 array (BGR, as cv2.imread gives; grey and
        BGRA are converted), a PIL image, or with det=False a list of arrays
        or PIL images (text-line crops). An image is one page.
        det and rec: [[box, (text, score)], ...] per page, box = 4 [x, y]
          points clockwise from top-left, lines below drop_score left out;
          None for a page where nothing was read.
        det only (rec=False): [box, ...] per page (detector order), or None.
        rec only (det=False): [(text, score), ...] per page.
        det=False, rec=False: the classifier's [[label, score], ...].
        cls: run the direction classifier when it was loaded (use_angle_cls).
        bin / inv / alpha_color: binarise, invert, background for transparent
        pixels (R, G, B), as PaddleOCR. slice (sliding windows) is not yet
        supported: a non-empty dict raises ValueError.
        """
        if slice:
            raise ValueError("slice: sliding-window inference is not yet supported by ocrforge")
        if isinstance(img, (list, tuple)) and det:
            raise ValueError("When input a list of images, det must be false")
        rgb = _alpha_color(alpha_color)
        use_cls = bool(cls) and self.use_angle_cls
        if cls and not self.use_angle_cls:
            logger.debug("Since the angle classifier is not initialized, it will not be used during the forward process")
        pool = self._pool(use_angle_cls="True" if use_cls else "False")
        if not det and not rec and not use_cls:
            raise ValueError(
                "det=False, rec=False runs the direction classifier only: construct PaddleOCR(use_angle_cls=True) "
                "and pass cls=True"
            )
        if isinstance(img, (list, tuple)):
            crops = [_inputs.image_arg(c, "img[]") for c in img]
            if not all(isinstance(c, np.ndarray) for c in crops):
                raise TypeError("img: a list must hold NumPy arrays or PIL images (text-line images)")
            cls_res, rec_res = pool.recognize(crops, use_cls, bool(rec))
            return [rec_res] if rec else [[list(c) for c in cls_res]]
        result = []
        with self._keyword_names():
            # One page decoded at a time: a page's image is gone before the next is read.
            for _, page in self._pages(pool, _inputs.image_arg(img)):
                result.append(self._ocr_page(pool, page, det, rec, use_cls, rgb, bool(inv), bool(bin)))
        return result

    def _ocr_page(self, pool, page, det, rec, use_cls, rgb, inv, bin):  # noqa: A002
        """ocr()'s result for one page."""
        if det and rec:
            raw = pool.ocr(page, rgb, inv, bin, keep_crops=self._settings.save_crop_res)
            self._log_times(raw, use_cls)
            if self._settings.save_crop_res:
                self._save_crops(raw["lines"])
            # In float32, as the C++ pipeline compares (scores are float32 values).
            drop = np.float32(self._params["drop_score"])
            lines = [[line[0], (line[2], line[3])] for line in raw["lines"] if np.float32(line[3]) >= drop]
            return lines or None
        if det:
            boxes = pool.detect(page, rgb, inv, bin)
            logger.debug("dt_boxes num : %d", len(boxes))
            return [b[0] for b in boxes] or None
        cls_res, rec_res = pool.recognize([pool.decode(page, rgb, inv, bin)], use_cls, bool(rec))
        return rec_res if rec else [list(c) for c in cls_res]

    @contextlib.contextmanager
    def _keyword_names(self):
        """Messages of reading a document name flags (--max_image_pixels,
        --pdf_dpi): name the keywords instead."""
        try:
            yield
        except ValueError as e:
            if "--" not in str(e):
                raise
            raise ValueError(_keywords.name_keywords(str(e), dict(self._settings.keyword_of))) from None

    @staticmethod
    def _pages(pool, arg, name=""):
        """(page_index, image) for each page to read: the selected pages of a
        PDF or TIFF (page_index: 0-based page in the file; None for a TIFF of
        one page, an image), or the image itself (page_index None)."""
        doc = pool.open_document(arg, name) if isinstance(arg, (str, bytes)) else None
        if doc is None:
            yield None, arg
            return
        paged = doc.kind == "pdf" or not doc.single_page
        for i in range(len(doc)):
            yield (doc.page_index(i) if paged else None), doc.page(i)

    def _log_times(self, raw, use_cls):
        if not logger.isEnabledFor(logging.DEBUG):
            return
        n = len(raw["lines"])
        logger.debug("dt_boxes num : %d, elapsed : %.4f", n, raw["det_ms"] / 1000)
        if use_cls:
            logger.debug("cls num  : %d, elapsed : %.4f", n, raw["cls_ms"] / 1000)
        logger.debug("rec_res num  : %d, elapsed : %.4f", n, raw["rec_ms"] / 1000)

    def _save_crops(self, lines):
        # PaddleOCR's save_crop_res: every crop as mg_crop_<n>.jpg, numbered
        # across calls.
        with self._crop_lock:
            first = self._crop_index
            self._crop_index += len(lines)
        out_dir = self._settings.crop_res_save_dir
        os.makedirs(out_dir, exist_ok=True)
        for i, line in enumerate(lines):
            if line[6] is not None:
                _ocrforge.imwrite(os.path.join(out_dir, f"mg_crop_{first + i}.jpg"), line[6])
                logger.debug("%d, %s", first + i, (line[2], line[3]))

    # ------------------------------------------------------------ 3.x

    def predict_iter(self, input, *, use_doc_orientation_classify=None, use_doc_unwarping=None,  # noqa: A002
                     use_textline_orientation=None, text_det_limit_side_len=None, text_det_limit_type=None,
                     text_det_max_side_limit=None, text_det_thresh=None, text_det_box_thresh=None,
                     text_det_unclip_ratio=None, text_rec_score_thresh=None, return_word_box=None):
        """PaddleOCR 3.x's predict_iter(): an iterator of OCRResult, one per image
        or page.

        input: a path (an image, a PDF, a TIFF: one result per page, with
        its page_index), a folder (its images and PDFs, sorted by name), a
        NumPy array, a PIL image, bytes, or a list of those. The keywords override the constructor's for this
        call (a new parameter set loads its own models once). Arguments are
        checked before the iterator is returned.
        """
        per_call = _keywords.resolve({
            "use_doc_orientation_classify": use_doc_orientation_classify,
            "use_doc_unwarping": use_doc_unwarping,
            "use_textline_orientation": use_textline_orientation,
            "text_det_limit_side_len": text_det_limit_side_len,
            "text_det_limit_type": text_det_limit_type,
            "text_det_max_side_limit": text_det_max_side_limit,
            "text_det_thresh": text_det_thresh,
            "text_det_box_thresh": text_det_box_thresh,
            "text_det_unclip_ratio": text_det_unclip_ratio,
            "text_rec_score_thresh": text_rec_score_thresh,
            "return_word_box": return_word_box,
        })
        thresh = per_call.text_rec_score_thresh if text_rec_score_thresh is not None \
            else self._settings.text_rec_score_thresh
        items = _inputs.predict_inputs(input)
        pool = self._pool(per_call.keyword_of, **per_call.flags)
        params = pool.params
        font = self._settings.vis_font_path

        def results():
            for k, (path, arg) in enumerate(items):
                name = path if path is not None else f"{'ndarray' if isinstance(arg, np.ndarray) else 'bytes'}_{k}"
                # A PDF / TIFF: one result per page, as PaddleX, each page decoded when its turn comes.
                with self._keyword_names():
                    for page_index, page in self._pages(pool, arg, name):
                        raw = pool.ocr(page, keep_image=True)
                        yield _result.build(raw, path, name, params, thresh, font, page_index)

        return results()

    def predict(self, input, **kwargs):  # noqa: A002
        """PaddleOCR 3.x's predict(): a list of OCRResult, one per image or
        page (keywords as predict_iter)."""
        return list(self.predict_iter(input, **kwargs))

    def close(self):
        """Releases the loaded models (the object is unusable afterwards)."""
        self._pools.clear()
        self._engine = None
