"""PaddleOCR's constructor keywords, each honoured or refused.

The names are those PaddleOCR documents for ``PaddleOCR(...)``: 2.x (the
inference arguments of tools/infer/utility.py and the extra arguments of
paddleocr.py: lang, det, rec, type, ocr_version, ...) and 3.x (text_det_*,
use_textline_orientation, device, ...). Every one of them is either

* honoured: turned into the ``ocrforge ocr`` flag that means the same thing
  (the C++ flag parser then checks ranges, exactly as on the command line) or
  into an option of the Python layer (show_log, warmup, save_crop_res, ...);
* or refused with a ValueError naming it and saying why, when it asks for
  something ocrforge does not do. Such keywords are accepted only at the
  value that asks for nothing (PaddleOCR's default, or False / None), so that
  a script passing the default runs unchanged.

``None`` always means "the default", as in PaddleOCR 3.x. A keyword not in
the table is refused too ("Unknown argument", as PaddleOCR 3.x says).
3.x names and their 2.x counterparts may not be given together (PaddleOCR
3.x's rule). The table is the documentation: docs/python.md lists it.
"""
import difflib
import numbers
import os
import re

from . import _ocrforge

# ---------------------------------------------------------------- settings


class Settings:
    """What the keywords resolve to: `ocrforge ocr` flags plus Python options."""

    def __init__(self):
        self.flags = {}  # flag name (no dashes) -> value text, in the order set
        self.keyword_of = {}  # flag name -> the keyword that set it (for messages)
        self.lang = "ch"
        self.show_log = True
        self.warmup = False
        self.save_crop_res = False
        self.crop_res_save_dir = "./output"
        self.vis_font_path = ""
        self.text_rec_score_thresh = 0.0  # predict()'s filter (PaddleOCR 3.x default: keep all)
        self.rec_algorithm = "SVTR_LCNet"


# ---------------------------------------------------------------- converters


def _bool(name, v):
    if isinstance(v, bool) or type(v).__name__ == "bool_":  # numpy.bool_
        return bool(v)
    raise ValueError(f"{name}={v!r}: expected True or False")


def _int(name, v):
    if isinstance(v, bool):
        raise ValueError(f"{name}={v!r}: expected a whole number")
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, numbers.Real) and float(v).is_integer():
        return int(v)  # PaddleOCR 2.x declares det_limit_side_len as a float (960.0)
    raise ValueError(f"{name}={v!r}: expected a whole number")


def _float(name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise ValueError(f"{name}={v!r}: expected a number")
    return float(v)


def _str(name, v):
    if not isinstance(v, str):
        raise ValueError(f"{name}={v!r}: expected a string")
    return v


def _path(name, v):
    if not isinstance(v, (str, os.PathLike)):
        raise ValueError(f"{name}={v!r}: expected a path (str or os.PathLike)")
    p = os.fspath(v)
    if not os.path.exists(p):
        raise FileNotFoundError(f"{name}={p!r}: no such file or folder")
    return p


def _shape(name, v):
    if isinstance(v, str):
        return v  # "3, 48, 320": checked by the flag parser
    if isinstance(v, (list, tuple)) and len(v) == 3:
        return ", ".join(str(_int(name, x)) for x in v)
    raise ValueError(f"{name}={v!r}: expected \"3, H, W\" or a tuple (3, H, W)")


def _str_list(name, v):
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, str) for x in v):
        return "[" + ", ".join(repr(x) for x in v) + "]"
    raise ValueError(f"{name}={v!r}: expected a list of strings such as ['0', '180']")


_FLAG_TEXT = {
    "bool": lambda n, v: "True" if _bool(n, v) else "False",
    "int": lambda n, v: str(_int(n, v)),
    "float": lambda n, v: repr(_float(n, v)),
    "str": _str,
    "path": _path,
    "shape": _shape,
    "list": _str_list,
}

# ---------------------------------------------------------------- handlers


def _flag(flag, kind):
    """Honoured: the `ocrforge ocr` flag `flag`."""

    def apply(s, name, v):
        s.flags[flag] = _FLAG_TEXT[kind](name, v)
        s.keyword_of[flag] = name

    apply.kind = f"flag --{flag}"
    return apply


def _option(attr, convert):
    """Honoured by the Python layer."""

    def apply(s, name, v):
        setattr(s, attr, convert(name, v))

    apply.kind = "python"
    return apply


def _only(allowed, why):
    """Refused unless the value is one of `allowed` (which ask for nothing)."""

    def apply(s, name, v):
        for a in allowed:
            if type(v) is type(a) and v == a:
                return
            if isinstance(v, (list, tuple)) and isinstance(a, (list, tuple)) and list(v) == list(a):
                return
        raise ValueError(f"{name}={v!r} is not supported: {why}")

    apply.kind = "refused unless " + " / ".join(repr(a) for a in allowed)
    apply.why = why
    return apply


def _never(why):
    """Refused whenever given (None aside)."""
    return _only((), why)


def _cli_only(*defaults, use="ocrforge ocr"):
    why = (
        "it is an option of PaddleOCR's command-line script and does nothing in the PaddleOCR class; "
        f"use `{use}`"
    )
    return _only(defaults, why)


def _lang(s, name, v):
    # Checked against the shipped model sets when the models are chosen
    # (_locations.lang_models): a recogniser given with rec_model_dir= needs
    # no model set of its own.
    s.lang = _str(name, v)


_lang.kind = "python: a shipped model set ('ch', 'en'; _ocrforge.available_langs())"


def _ocr_version(s, name, v):
    if _str(name, v) != "PP-OCRv4":
        raise ValueError(
            f"{name}={v!r} is not available: ocrforge ships the PP-OCRv4 models only. Available: ['PP-OCRv4']"
        )


_ocr_version.kind = "python: only 'PP-OCRv4'"


def _rec_algorithm(s, name, v):
    v = _str(name, v)
    if v not in ("SVTR_LCNet", "CRNN"):
        raise ValueError(
            f"{name}={v!r} is not supported: ocrforge decodes CTC recognisers only (SVTR_LCNet, CRNN)"
        )
    s.rec_algorithm = v


_rec_algorithm.kind = "python: SVTR_LCNet or CRNN"


def _device(s, name, v):
    v = _str(name, v)
    m = re.fullmatch(r"(cpu|gpu)(?::(\d+))?", v)
    if not m or (m.group(1) == "cpu" and m.group(2)):
        raise ValueError(
            f"{name}={v!r} is not supported: ocrforge runs on 'cpu', or 'gpu' / 'gpu:N' with an ONNX Runtime "
            "built with CUDA (npu, xpu, mlu, dcu are not available)"
        )
    s.flags["use_gpu"] = "True" if m.group(1) == "gpu" else "False"
    s.keyword_of["use_gpu"] = name
    if m.group(2):
        s.flags["gpu_id"] = m.group(2)
        s.keyword_of["gpu_id"] = name


_device.kind = "flags --use_gpu / --gpu_id"


def _onnx_providers(s, name, v):
    if v is False or (isinstance(v, (list, tuple)) and len(v) == 0):
        return  # PaddleOCR's default (False): ocrforge picks the provider from use_gpu
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"{name}={v!r}: expected a list of ONNX Runtime provider names")
    known = {"CPUExecutionProvider": "False", "CUDAExecutionProvider": "True"}
    for p in v:
        if p not in known:
            raise ValueError(f"{name}: provider {p!r} is not supported (CPUExecutionProvider, CUDAExecutionProvider)")
    s.flags["use_gpu"] = known[v[0]]
    s.keyword_of["use_gpu"] = name


_onnx_providers.kind = "flag --use_gpu (first provider)"


def _score_thresh(s, name, v):
    v = _float(name, v)
    if not 0.0 <= v <= 1.0:
        raise ValueError(f"{name}={v!r} is out of range: it must be between 0 and 1")
    s.text_rec_score_thresh = v


_score_thresh.kind = "python: predict()'s score filter"

_TENSORRT = "it is only used with TensorRT, which ocrforge does not run (ONNX Runtime CPU / CUDA)"
_NO_DEVICE = "ocrforge runs on the CPU or a CUDA GPU through ONNX Runtime only"
_STRUCTURE = "PP-Structure (layout, tables, formulas, KIE, recovery) is not part of ocrforge"

# ---------------------------------------------------------------- the table

KEYWORDS = {
    # --- 2.x: global (tools/infer/utility.py, docs "inference_args")
    "image_dir": _cli_only(use="ocrforge ocr --image_dir DIR, or pass the image to ocr() / predict()"),
    "page_num": _flag("page_num", "int"),
    "vis_font_path": _option("vis_font_path", _path),
    "use_pdserving": _only((False,), "Paddle Serving is not part of ocrforge"),
    "warmup": _option("warmup", _bool),
    "draw_img_save_dir": _cli_only("./inference_results", use="ocrforge ocr --draw_img_save_dir, or save_to_img()"),
    "save_crop_res": _option("save_crop_res", _bool),
    "crop_res_save_dir": _option("crop_res_save_dir", lambda n, v: os.fspath(v)),
    "use_mp": _cli_only(False),
    "total_process_num": _cli_only(1, 6),
    "process_id": _cli_only(0),
    "benchmark": _cli_only(False, use="ocrforge ocr --benchmark=True"),
    "save_log_path": _cli_only("./log_output/"),
    "show_log": _option("show_log", _bool),
    # ocrforge always runs ONNX models, so both values ask for what happens:
    # True (the models are .onnx files) and False (PaddleOCR's default: the
    # built-in models, which ocrforge ships as ONNX).
    "use_onnx": _only((True, False), "expected True or False"),
    "onnx_providers": _onnx_providers,
    "onnx_sess_options": _only((False,), "ocrforge sets ONNX Runtime's session options itself (cpu_threads, ir_optim)"),
    # --- 2.x: prediction engine
    "use_gpu": _flag("use_gpu", "bool"),
    "use_xpu": _only((False,), _NO_DEVICE),
    "use_npu": _only((False,), _NO_DEVICE),
    "use_mlu": _only((False,), _NO_DEVICE),
    "use_gcu": _only((False,), _NO_DEVICE),
    "use_metax_gpu": _only((False,), _NO_DEVICE),
    "ir_optim": _flag("ir_optim", "bool"),
    "use_tensorrt": _flag("use_tensorrt", "bool"),
    "min_subgraph_size": _only((15, 3), _TENSORRT),
    "precision": _flag("precision", "str"),
    "gpu_mem": _only((500, 8000), "ONNX Runtime's CUDA allocator grows as needed; there is no fixed pool to size"),
    "gpu_id": _flag("gpu_id", "int"),
    "enable_mkldnn": _only(
        (False,), "ocrforge has no MKL-DNN (oneDNN) switch: ONNX Runtime's own CPU kernels always run; leave it unset"
    ),
    "cpu_threads": _flag("cpu_threads", "int"),
    # --- 2.x: detection
    "det_algorithm": _flag("det_algorithm", "str"),
    "det_model_dir": _flag("det_model_dir", "path"),
    "max_batch_size": _only((10,), _TENSORRT),
    # --- 2.x: recognition
    "rec_algorithm": _rec_algorithm,
    "rec_model_dir": _flag("rec_model_dir", "path"),
    "rec_image_inverse": _only((True,), "it is only used by the CAN recogniser, which ocrforge does not run"),
    "rec_image_shape": _flag("rec_image_shape", "shape"),
    "max_text_length": _only(
        (25,), "it is only used by attention decoders (SRN, SAR, ...); ocrforge's CTC decoding has no length cap"
    ),
    "rec_char_dict_path": _flag("rec_char_dict_path", "path"),
    "return_word_box": _only((False,), "word boxes are not yet supported by ocrforge"),
    # --- 2.x: direction classifier
    "cls_model_dir": _flag("cls_model_dir", "path"),
    "cls_image_shape": _flag("cls_image_shape", "shape"),
    "label_list": _flag("label_list", "list"),
    # --- 2.x: image preprocessing (command line; the class takes them in ocr())
    "invert": _cli_only(False, use="ocr(img, inv=True)"),
    "binarize": _cli_only(False, use="ocr(img, bin=True)"),
    "alphacolor": _cli_only((255, 255, 255), use="ocr(img, alpha_color=(R, G, B))"),
    # --- 2.x: paddleocr.py's own arguments
    "lang": _lang,
    "det": _cli_only(True, use="ocr(img, det=False)"),
    "rec": _cli_only(True, use="ocr(img, rec=False)"),
    "type": _only(("ocr",), _STRUCTURE),
    "savefile": _cli_only(False),
    "output": _cli_only("./output"),
    "ocr_version": _ocr_version,
    "structure_version": _only(("PP-StructureV2",), _STRUCTURE),
    # --- 3.x: PaddleOCR(...) (docs/version3.x/pipeline_usage/OCR)
    "doc_orientation_classify_model_name": _never("ocrforge has no document orientation model"),
    "doc_orientation_classify_model_dir": _never("ocrforge has no document orientation model"),
    "doc_unwarping_model_name": _never("ocrforge has no document unwarping model"),
    "doc_unwarping_model_dir": _never("ocrforge has no document unwarping model"),
    "use_doc_orientation_classify": _only((False,), "ocrforge has no document orientation model"),
    "use_doc_unwarping": _only((False,), "ocrforge has no document unwarping model"),
    "text_detection_model_name": _only(
        ("PP-OCRv4_mobile_det",), "the shipped detector is PP-OCRv4_mobile_det; pass text_detection_model_dir= for another"
    ),
    "text_detection_model_dir": _flag("det_model_dir", "path"),
    "textline_orientation_model_name": _never(
        "the shipped classifier is ch_ppocr_mobile_v2.0_cls; pass textline_orientation_model_dir= for another"
    ),
    "textline_orientation_model_dir": _flag("cls_model_dir", "path"),
    "text_recognition_model_name": _only(
        ("PP-OCRv4_mobile_rec",), "the shipped recogniser is PP-OCRv4_mobile_rec; pass text_recognition_model_dir= for another"
    ),
    "text_recognition_model_dir": _flag("rec_model_dir", "path"),
    "text_det_input_shape": _never("a fixed detector input is not supported; text_det_limit_side_len sizes it"),
    "text_rec_score_thresh": _score_thresh,
    "text_rec_input_shape": _flag("rec_image_shape", "shape"),
    "device": _device,
    "enable_hpi": _only((False,), "PaddleX's high-performance inference plugin is not part of ocrforge"),
    "mkldnn_cache_capacity": _never("ocrforge has no MKL-DNN (oneDNN) switch"),
    "enable_cinn": _only((False,), "the CINN compiler is not part of ocrforge"),
    "paddlex_config": _never("PaddleX pipeline configs are not read; pass the keywords themselves"),
    # --- ocrforge's own (the `ocrforge ocr` flags of the same names)
    "rec_workers": _flag("rec_workers", "int"),
    "inter_op_threads": _flag("inter_op_threads", "int"),
    "int8_cache_dir": _flag("int8_cache_dir", "str"),
    "int8_calibration_dir": _flag("int8_calibration_dir", "path"),
    "shared_arena": _flag("shared_arena", "bool"),
    "max_image_pixels": _flag("max_image_pixels", "int"),
    "rec_lexicon": _flag("rec_lexicon", "path"),
    # documents (PDF, multi-page TIFF): the `ocrforge ocr` flags of the same names
    "pdf_dpi": _flag("pdf_dpi", "float"),
    "pages": _flag("pages", "str"),
    "max_pages": _flag("max_pages", "int"),
}

for _n in ("det_east_score_thresh", "det_east_cover_thresh", "det_east_nms_thresh"):
    KEYWORDS[_n] = _never("it is only used by det_algorithm='EAST'; ocrforge runs DB detectors only")
for _n in ("det_sast_score_thresh", "det_sast_nms_thresh", "det_sast_polygon"):
    KEYWORDS[_n] = _never("it is only used by det_algorithm='SAST'; ocrforge runs DB detectors only")
for _n in ("det_pse_thresh", "det_pse_box_thresh", "det_pse_min_area", "det_pse_scale"):
    KEYWORDS[_n] = _never("it is only used by det_algorithm='PSE'; ocrforge runs DB detectors only")
for _n in ("scales", "alpha", "beta", "fourier_degree"):
    KEYWORDS[_n] = _never("it is only used by det_algorithm='FCE'; ocrforge runs DB detectors only")
for _n in (
    "e2e_algorithm", "e2e_model_dir", "e2e_limit_side_len", "e2e_limit_type", "e2e_pgnet_score_thresh",
    "e2e_char_dict_path", "e2e_pgnet_valid_set", "e2e_pgnet_mode",
):
    KEYWORDS[_n] = _never("end-to-end (PGNet) models are not supported by ocrforge")
for _n in ("sr_model_dir", "sr_image_shape", "sr_batch_num"):
    KEYWORDS[_n] = _never("text super-resolution models are not supported by ocrforge")
for _n in (
    "table_max_len", "table_algorithm", "table_model_dir", "merge_no_span_structure", "table_char_dict_path",
    "formula_algorithm", "formula_model_dir", "formula_char_dict_path", "formula_batch_num", "layout_model_dir",
    "layout_dict_path", "layout_score_threshold", "layout_nms_threshold", "kie_algorithm", "ser_model_dir",
    "re_model_dir", "use_visual_backbone", "ser_dict_path", "ocr_order_method", "mode", "image_orientation",
    "layout", "table", "formula", "ocr", "recovery", "recovery_to_markdown", "use_pdf2docx_api",
):
    KEYWORDS[_n] = _never(_STRUCTURE)

# The library's table of OCR parameters (ocrforge/infer/ocr_param_table.h):
# each flag is a 2.x keyword of the same name and each 3.x keyword maps onto
# the same flag, so a parameter added there reaches Python with no edit here.
# Entries above win (a keyword with its own handling, e.g. text_rec_score_thresh).
for _spec in _ocrforge.ocr_param_table():
    KEYWORDS.setdefault(_spec["flag"], _flag(_spec["flag"], _spec["kind"]))
    if _spec["keyword3"]:
        KEYWORDS.setdefault(_spec["keyword3"], _flag(_spec["flag"], _spec["kind"]))

# PaddleOCR 3.x's renamed keywords (its _DEPRECATED_PARAM_NAME_MAPPING, plus
# the pairs that reach the same flag): both names at once is an error there.
ALIASES = {
    "det_model_dir": "text_detection_model_dir",
    "det_limit_side_len": "text_det_limit_side_len",
    "det_limit_type": "text_det_limit_type",
    "det_db_thresh": "text_det_thresh",
    "det_db_box_thresh": "text_det_box_thresh",
    "det_db_unclip_ratio": "text_det_unclip_ratio",
    "rec_model_dir": "text_recognition_model_dir",
    "rec_batch_num": "text_recognition_batch_size",
    "use_angle_cls": "use_textline_orientation",
    "cls_model_dir": "textline_orientation_model_dir",
    "cls_batch_num": "textline_orientation_batch_size",
    "det_max_side_limit": "text_det_max_side_limit",
    "rec_image_shape": "text_rec_input_shape",
    "use_gpu": "device",
}


def resolve(kwargs):
    """Keywords -> Settings; raises ValueError / FileNotFoundError."""
    for old, new in ALIASES.items():
        if kwargs.get(old) is not None and kwargs.get(new) is not None:
            raise ValueError(f"`{old}` and `{new}` are mutually exclusive.")
    s = Settings()
    for name, value in kwargs.items():
        handler = KEYWORDS.get(name)
        if handler is None:
            close = difflib.get_close_matches(name, KEYWORDS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"Unknown argument: {name}{hint}")
        if value is None:
            continue
        handler(s, name, value)
    return s


def name_keywords(message, keyword_of):
    """A C++ message names flags ("--det_db_box_thresh=1.5 ..."): name the
    keywords instead, the one the caller used when it is known."""
    return re.sub(r"--([A-Za-z0-9_]+)", lambda m: keyword_of.get(m.group(1), m.group(1)), message)


def describe():
    """(keyword, how it is handled) for every keyword, for the docs."""
    return [(name, getattr(h, "kind", "?")) for name, h in KEYWORDS.items()]
