#include "py_arrays.h"

#include <cstdint>
#include <string>
#include <vector>

#include "input_errors.h"

namespace py = pybind11;

namespace ocrforge::python {

static std::string shape_text(const py::buffer_info& info) {
  std::string s = "(";
  for (size_t i = 0; i < info.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(info.shape[i]);
  return s + (info.shape.size() == 1 ? ",)" : ")");
}

cv::Mat mat_from_array(const py::array& array, bool* is_view) {
  const py::buffer_info info = array.request();
  if (info.itemsize != 1 || (info.format != "B" && info.format != "b"))
    throw BadInput("image array: expected dtype uint8 (as cv2.imread gives), got " +
                   std::string(py::str(array.dtype())) + "; convert it, e.g. arr.astype(numpy.uint8)");
  if (info.ndim != 2 && info.ndim != 3)
    throw BadInput("image array: expected shape (H, W) or (H, W, C), got " + shape_text(info));
  // Sides beyond an int (a broadcast view costs no memory whatever its
  // shape) are refused, not cut to their low 32 bits.
  for (py::ssize_t side : info.shape)
    if (side > INT32_MAX)
      throw BadInput("image array: shape " + shape_text(info) + " has a side over 2^31 - 1 pixels");
  const int rows = static_cast<int>(info.shape[0]), cols = static_cast<int>(info.shape[1]);
  const int ch = info.ndim == 3 ? static_cast<int>(info.shape[2]) : 1;
  if (rows == 0 || cols == 0) throw BadInput("image array is empty: shape " + shape_text(info));
  if (ch != 1 && ch != 3 && ch != 4)
    throw BadInput("image array: expected 1, 3 or 4 channels (grey, BGR, BGRA), got shape " + shape_text(info));
  const py::ssize_t row = info.strides[0], pix = info.strides[1], chan = info.ndim == 3 ? info.strides[2] : 1;
  const auto* base = static_cast<const unsigned char*>(info.ptr);
  if (chan == 1 && pix == ch && row >= static_cast<py::ssize_t>(cols) * ch) {
    *is_view = true;
    return cv::Mat(rows, cols, CV_8UC(ch), const_cast<unsigned char*>(base), static_cast<size_t>(row));
  }
  *is_view = false;
  cv::Mat out(rows, cols, CV_8UC(ch));
  for (int y = 0; y < rows; ++y) {
    unsigned char* dst = out.ptr<unsigned char>(y);
    for (int x = 0; x < cols; ++x)
      for (int c = 0; c < ch; ++c) *dst++ = base[y * row + x * pix + c * chan];
  }
  return out;
}

py::array array_from_mat(const cv::Mat& mat) {
  auto* owned = new cv::Mat(mat);
  py::capsule base(owned, [](void* p) { delete static_cast<cv::Mat*>(p); });
  std::vector<py::ssize_t> shape{owned->rows, owned->cols}, strides{static_cast<py::ssize_t>(owned->step[0]),
                                                                     static_cast<py::ssize_t>(owned->elemSize())};
  if (owned->channels() > 1) {
    shape.push_back(owned->channels());
    strides.push_back(static_cast<py::ssize_t>(owned->elemSize1()));
  }
  return py::array(py::dtype::of<uint8_t>(), shape, strides, owned->data, base);
}

}  // namespace ocrforge::python
