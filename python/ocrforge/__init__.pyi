# Type stubs of the public API (PaddleOCR 2.x ocr(), 3.x predict()).
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Point = List[float]                      # [x, y]
Box = List[Point]                        # 4 points clockwise from top-left (more with det_box_type="poly")
ImageInput = Union[str, "os.PathLike[str]", bytes, npt.NDArray[np.uint8], Any]  # Any: a PIL.Image.Image
PredictInput = Union[ImageInput, Sequence[ImageInput]]

class OCRResult(Dict[str, Any]):
    input_path: Optional[str]
    page_index: Optional[int]
    model_settings: Dict[str, bool]
    dt_polys: List[npt.NDArray[np.int16]]
    dt_scores: List[float]
    text_det_params: Dict[str, Union[int, float, str]]
    text_type: str
    textline_orientation_angles: npt.NDArray[np.int64]
    text_rec_score_thresh: float
    rec_texts: List[str]
    rec_scores: npt.NDArray[np.float64]
    rec_polys: List[npt.NDArray[np.int16]]
    rec_boxes: npt.NDArray[np.int16]
    @property
    def json(self) -> Dict[str, Any]: ...
    @property
    def img(self) -> Dict[str, Any]: ...
    def print(self, format_json: bool = ..., indent: int = ..., ensure_ascii: bool = ...) -> None: ...
    def save_to_json(self, save_path: Union[str, "os.PathLike[str]"], indent: int = ..., ensure_ascii: bool = ...) -> str: ...
    def save_to_img(self, save_path: Union[str, "os.PathLike[str]"]) -> str: ...

def draw_ocr(
    image: Any,
    boxes: Sequence[Any],
    txts: Optional[Sequence[str]] = ...,
    scores: Optional[Sequence[float]] = ...,
    drop_score: float = ...,
    font_path: Optional[str] = ...,
) -> npt.NDArray[np.uint8]: ...

class PaddleOCR:
    def __init__(self, **kwargs: Any) -> None: ...
    @property
    def use_angle_cls(self) -> bool: ...
    def ocr(
        self,
        img: Union[ImageInput, List[Any]],
        det: bool = ...,
        rec: bool = ...,
        cls: bool = ...,
        bin: bool = ...,
        inv: bool = ...,
        alpha_color: Tuple[int, int, int] = ...,
        slice: Dict[str, int] = ...,
    ) -> List[Any]: ...
    def predict_iter(
        self,
        input: PredictInput,
        *,
        use_doc_orientation_classify: Optional[bool] = ...,
        use_doc_unwarping: Optional[bool] = ...,
        use_textline_orientation: Optional[bool] = ...,
        text_det_limit_side_len: Optional[int] = ...,
        text_det_limit_type: Optional[str] = ...,
        text_det_max_side_limit: Optional[int] = ...,
        text_det_thresh: Optional[float] = ...,
        text_det_box_thresh: Optional[float] = ...,
        text_det_unclip_ratio: Optional[float] = ...,
        text_rec_score_thresh: Optional[float] = ...,
        return_word_box: Optional[bool] = ...,
    ) -> Iterator[OCRResult]: ...
    def predict(
        self,
        input: PredictInput,
        *,
        use_doc_orientation_classify: Optional[bool] = ...,
        use_doc_unwarping: Optional[bool] = ...,
        use_textline_orientation: Optional[bool] = ...,
        text_det_limit_side_len: Optional[int] = ...,
        text_det_limit_type: Optional[str] = ...,
        text_det_max_side_limit: Optional[int] = ...,
        text_det_thresh: Optional[float] = ...,
        text_det_box_thresh: Optional[float] = ...,
        text_det_unclip_ratio: Optional[float] = ...,
        text_rec_score_thresh: Optional[float] = ...,
        return_word_box: Optional[bool] = ...,
    ) -> List[OCRResult]: ...
    def close(self) -> None: ...
