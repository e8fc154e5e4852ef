// Shared fixtures of the recognition data tests: the 10 real word crops of
// tests/data/rec_toy and helpers to write label files under the test temp dir.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/rec/rec_dataset.h"
#include "test_support.h"

namespace ocrforge::test {

inline std::string rec_toy_dir() { return data_dir() + "/rec_toy"; }
inline std::string rec_toy_labels() { return rec_toy_dir() + "/rec_gt.txt"; }

// Every character of the toy labels (digits, both cases, '/').
inline Charset toy_charset(bool use_space_char = false) {
  std::vector<std::string> chars;
  for (char c : std::string("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/"))
    chars.emplace_back(1, c);
  return Charset::from_chars(chars, use_space_char);
}

inline RecTransformSpec toy_transforms(bool use_aug) {
  RecTransformSpec t;
  t.use_aug = use_aug;
  t.charset = toy_charset();
  return t;
}

// The toy data set as a RecDataset (data_dir = rec_toy, labels as shipped).
inline std::shared_ptr<RecDataset> toy_dataset(bool training) {
  RecLabelListSpec list;
  list.data_dir = rec_toy_dir();
  list.label_file_list = {rec_toy_labels()};
  return std::make_shared<RecDataset>(list, toy_transforms(training), training);
}

}  // namespace ocrforge::test
