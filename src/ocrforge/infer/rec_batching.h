// Which recognition crops share an ORT call. PaddleOCR pads every crop of a
// batch to the widest one, so a crop's result depends on its neighbours
// (measured: bag-of-words F1 0.49 at batch 6 vs 0.52 at batch 1 on forms).
// Here each crop's input width is a function of the crop alone, and only
// crops of equal width are batched: any batch size gives every crop the
// same input tensor as batch size 1.
#pragma once
#include <cstddef>
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

// The input width of one crop: PaddleOCR's batch-of-one width,
// int(image_h * max(image_w / image_h, w / h)), and, when that exceeds
// image_w, rounded up to a multiple of width_step (>= 1) so long lines of
// similar length meet in one width. min_width (0: image_w, PaddleOCR's rule)
// lowers the padding floor: a crop whose own width int(image_h * w / h) lies
// between min_width and image_w keeps it instead of being padded to image_w.
int rec_input_width(const cv::Mat& crop, int image_h, int image_w, int width_step, int min_width = 0);

struct RecBatch {
  int width = 0;              // input width of every crop in the batch
  std::vector<size_t> items;  // indices into the crop list
};

// Groups crop indices by equal width (narrowest width first; within a width,
// ascending aspect ratio as given by `ratios`, ties in input order) and cuts
// each group into batches of at most batch_num (>= 1). Every index appears in
// exactly one batch. `widths` and `ratios` have one entry per crop.
std::vector<RecBatch> plan_rec_batches(const std::vector<int>& widths, const std::vector<float>& ratios,
                                       int batch_num);

}  // namespace ocrforge
