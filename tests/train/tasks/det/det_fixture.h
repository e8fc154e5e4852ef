// A tiny detection task for trainer tests: N pages of 2-3 black words on a
// light background drawn with OpenCV's Hershey font, their boxes known from
// cv::getTextSize (no files needed besides what the test writes), and a
// small DB config.
#pragma once
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "test_support.h"

namespace ocrforge::test {

struct TinyDetTask {
  std::string dir;       // data_dir with imgs/ and det_gt.txt
  std::string save_dir;  // Global.save_model_dir
  int boxes = 0;         // ground-truth boxes written
};

// `text_scale` scales the words (1: Hershey scale 1.0-1.4, ~22-31 px tall).
inline TinyDetTask make_tiny_det_task(const std::string& name, int count, int size = 256, uint64_t seed = 11,
                                      double text_scale = 1.0) {
  TinyDetTask t;
  t.dir = fresh_dir(name);
  t.save_dir = t.dir + "/output";
  std::filesystem::create_directories(t.dir + "/imgs");
  std::mt19937_64 rng(seed);
  std::ofstream labels(t.dir + "/det_gt.txt");
  const char* words[] = {"OCR", "FORGE", "TEXT", "DB", "LINE", "WORD", "NET"};
  for (int i = 0; i < count; ++i) {
    cv::Mat img(size, size, CV_8UC3, cv::Scalar(225 + rng() % 20, 225 + rng() % 20, 225 + rng() % 20));
    std::string json = "[";
    const int lines = 2 + static_cast<int>(rng() % 2);
    for (int l = 0; l < lines; ++l) {
      const std::string w = words[rng() % 7];
      int baseline = 0;
      const double scale = text_scale * (1.0 + 0.2 * static_cast<double>(rng() % 3));
      const cv::Size ts = cv::getTextSize(w, cv::FONT_HERSHEY_SIMPLEX, scale, 2, &baseline);
      const int x = 10 + static_cast<int>(rng() % static_cast<uint64_t>(std::max(1, size - ts.width - 20)));
      const int margin = static_cast<int>(20 * text_scale);
      const int y = margin + l * (size - 2 * margin) / lines + ts.height;
      cv::putText(img, w, {x, y}, cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(20, 20, 20), 2, cv::LINE_AA);
      const int x0 = x - 2, y0 = y - ts.height - 3, x1 = x + ts.width + 2, y1 = y + baseline;
      json += std::string(l ? ", " : "") + "{\"transcription\": \"" + w + "\", \"points\": [[" + std::to_string(x0) +
              ", " + std::to_string(y0) + "], [" + std::to_string(x1) + ", " + std::to_string(y0) + "], [" +
              std::to_string(x1) + ", " + std::to_string(y1) + "], [" + std::to_string(x0) + ", " +
              std::to_string(y1) + "]]}";
      ++t.boxes;
    }
    const std::string rel = "imgs/" + std::to_string(i) + ".png";
    cv::imwrite(t.dir + "/" + rel, img);
    labels << rel << "\t" << json << "]\n";
  }
  return t;
}

// MobileNetV3 small x0.35 + RSEFPN 32 + DBHead, no augmentation: a model
// that can overfit a few pages in a few hundred steps on one CPU.
inline std::string tiny_det_config(const TinyDetTask& t, int epochs, int batch, int size = 256, double lr = 0.002) {
  const std::string data = "    data_dir: " + t.dir + "\n    label_file_list: [" + t.dir + "/det_gt.txt]\n";
  const std::string normalize =
      "      - NormalizeImage: {scale: 1./255., mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], order: hwc}\n"
      "      - ToCHWImage: null\n";
  return "Global:\n"
         "  epoch_num: " + std::to_string(epochs) + "\n"
         "  log_smooth_window: 5\n  print_batch_step: 5\n"
         "  save_model_dir: " + t.save_dir + "\n"
         "  save_epoch_step: 1000\n  eval_batch_step: [0, 1000000]\n"
         "  cal_metric_during_train: false\n  seed: 1024\n  num_threads: 2\n"
         "Architecture:\n  model_type: det\n  algorithm: DB\n"
         "  Backbone: {name: MobileNetV3, scale: 0.35, model_name: small, disable_se: true}\n"
         "  Neck: {name: RSEFPN, out_channels: 32, shortcut: true}\n"
         "  Head: {name: DBHead, k: 50}\n"
         "Loss: {name: DBLoss, balance_loss: true, main_loss_type: DiceLoss, alpha: 5, beta: 10, ohem_ratio: 3}\n"
         "Optimizer:\n  name: Adam\n  beta1: 0.9\n  beta2: 0.999\n"
         "  lr: {name: Const, learning_rate: " + std::to_string(lr) + "}\n"
         "PostProcess: {name: DBPostProcess, thresh: 0.3, box_thresh: 0.6, max_candidates: 1000, unclip_ratio: 1.5}\n"
         "Metric: {name: DetMetric, main_indicator: hmean}\n"
         "Train:\n  dataset:\n    name: SimpleDataSet\n" + data +
         "    transforms:\n"
         "      - DecodeImage: {img_mode: BGR, channel_first: false}\n"
         "      - DetLabelEncode: null\n"
         "      - MakeBorderMap: {shrink_ratio: 0.4, thresh_min: 0.3, thresh_max: 0.7}\n"
         "      - MakeShrinkMap: {shrink_ratio: 0.4, min_text_size: 8}\n" + normalize +
         "      - KeepKeys: {keep_keys: [image, threshold_map, threshold_mask, shrink_map, shrink_mask]}\n"
         "  loader: {shuffle: true, drop_last: false, batch_size_per_card: " + std::to_string(batch) + ", num_workers: 0}\n"
         "Eval:\n  dataset:\n    name: SimpleDataSet\n" + data +
         "    transforms:\n"
         "      - DecodeImage: {img_mode: BGR, channel_first: false}\n"
         "      - DetLabelEncode: null\n"
         "      - DetResizeForTest: {limit_side_len: " + std::to_string(size) + ", limit_type: max}\n" + normalize +
         "      - KeepKeys: {keep_keys: [image, shape, polys, ignore_tags]}\n"
         "  loader: {shuffle: false, drop_last: false, batch_size_per_card: 1, num_workers: 0}\n";
}

}  // namespace ocrforge::test
