// NumPy arrays <-> cv::Mat for the module. Images come in as uint8 arrays
// (H x W, or H x W x C with C = 1, 3 or 4, BGR order as cv2.imread gives)
// and are read in place whenever the memory layout allows; images and crops
// go out as arrays that own their cv::Mat, without a copy. Call with the GIL
// held.
#pragma once
#include <opencv2/core.hpp>
#include <pybind11/numpy.h>

namespace ocrforge::python {

// The array as a cv::Mat sharing its memory when each row's pixels are
// packed (channel stride 1, pixel stride C; any positive row stride, so a
// crop of a larger image is still a view); otherwise a copy. `*is_view`
// says which. Throws BadInput for another dtype, shape or an empty array.
cv::Mat mat_from_array(const pybind11::array& array, bool* is_view);

// An array owning `mat` (kept alive by the array's base object).
pybind11::array array_from_mat(const cv::Mat& mat);

}  // namespace ocrforge::python
