// A tiny recognition task for trainer tests: N crops of random 3-5 digit
// strings rendered with OpenCV's Hershey font (no files needed besides what
// the test writes), a digits dictionary, and a small config.
#pragma once
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/config.h"
#include "test_support.h"

namespace ocrforge::test {

struct TinyTask {
  std::string dir;        // data_dir with imgs/ and rec_gt.txt
  std::string dict;       // digits dictionary
  std::string save_dir;   // Global.save_model_dir
};

inline TinyTask make_tiny_task(const std::string& name, int count, uint64_t seed = 7) {
  TinyTask t;
  t.dir = fresh_dir(name);
  t.save_dir = t.dir + "/output";
  t.dict = t.dir + "/digits.txt";
  {
    std::ofstream d(t.dict);
    for (char c = '0'; c <= '9'; ++c) d << c << "\n";
  }
  std::filesystem::create_directories(t.dir + "/imgs");
  std::mt19937_64 rng(seed);
  std::ofstream labels(t.dir + "/rec_gt.txt");
  for (int i = 0; i < count; ++i) {
    const int len = 3 + static_cast<int>(rng() % 3);
    std::string text;
    for (int k = 0; k < len; ++k) text += static_cast<char>('0' + rng() % 10);
    cv::Mat img(32, 100, CV_8UC3, cv::Scalar(235, 235, 235));
    cv::putText(img, text, {4, 24}, cv::FONT_HERSHEY_SIMPLEX, 0.8, cv::Scalar(20, 20, 20), 2, cv::LINE_AA);
    const std::string rel = "imgs/" + std::to_string(i) + ".png";
    cv::imwrite(t.dir + "/" + rel, img);
    labels << rel << "\t" << text << "\n";
  }
  return t;
}

// A small CRNN-style model: MobileNetV3 small 0.35 + BiLSTM, 32 x 100 input.
inline std::string tiny_config(const TinyTask& t, int epochs, int batch, double lr = 0.005) {
  const std::string data = "    data_dir: " + t.dir + "\n    label_file_list: [" + t.dir + "/rec_gt.txt]\n";
  const std::string transforms =
      "    transforms:\n"
      "      - DecodeImage: {img_mode: BGR, channel_first: false}\n"
      "      - CTCLabelEncode: null\n"
      "      - RecResizeImg: {image_shape: [3, 32, 100]}\n"
      "      - KeepKeys: {keep_keys: [image, label, length]}\n";
  return "Global:\n"
         "  epoch_num: " + std::to_string(epochs) + "\n"
         "  log_smooth_window: 5\n  print_batch_step: 4\n"
         "  save_model_dir: " + t.save_dir + "\n"
         "  save_epoch_step: 1000\n  eval_batch_step: [0, 1000000]\n"
         "  cal_metric_during_train: true\n"
         "  character_dict_path: " + t.dict + "\n"
         "  max_text_length: 8\n  use_space_char: false\n  seed: 1024\n  num_threads: 2\n  deterministic: true\n"
         "Architecture:\n  model_type: rec\n  algorithm: CRNN\n"
         "  Backbone: {name: MobileNetV3, scale: 0.35, model_name: small, small_stride: [1, 2, 2, 2]}\n"
         "  Neck: {name: SequenceEncoder, encoder_type: rnn, hidden_size: 32}\n"
         "  Head: {name: CTCHead, fc_decay: 0.0}\n"
         "Loss: {name: CTCLoss}\n"
         "Optimizer:\n  name: Adam\n  beta1: 0.9\n  beta2: 0.999\n"
         "  lr: {name: Const, learning_rate: " + std::to_string(lr) + "}\n"
         "PostProcess: {name: CTCLabelDecode}\n"
         "Metric: {name: RecMetric, main_indicator: acc}\n"
         "Train:\n  dataset:\n    name: SimpleDataSet\n" + data + transforms +
         "  loader: {shuffle: true, drop_last: false, batch_size_per_card: " + std::to_string(batch) + ", num_workers: 0}\n"
         "Eval:\n  dataset:\n    name: SimpleDataSet\n" + data + transforms +
         "  loader: {shuffle: false, drop_last: false, batch_size_per_card: 32, num_workers: 0}\n";
}

}  // namespace ocrforge::test
