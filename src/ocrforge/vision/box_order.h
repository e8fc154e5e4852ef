// Ordering and filtering of detected boxes, as PaddleOCR's predict_det /
// predict_system do it.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/vision/text_box.h"

namespace ocrforge {

// Clockwise from top-left, as current PaddleOCR's order_points_clockwise:
// top-left = smallest x+y, bottom-right = largest x+y; of the other two,
// top-right = smallest y-x, bottom-left = largest y-x.
Quad order_points_clockwise(const Quad& q);

// filter_tag_det_res: orders each quad clockwise, clips it to the image,
// drops boxes whose width |p0-p1| or height |p0-p3| (truncated to int) <= 3.
std::vector<TextBox> filter_det_boxes(std::vector<TextBox> boxes, cv::Size image_size);

// sorted_boxes: sort by (top-left y, top-left x), then passes that swap
// neighbours on the same line (|dy| < 10) whose x order is wrong.
void sort_boxes(std::vector<TextBox>& boxes);

}  // namespace ocrforge
