// LMDBDataSet for recognition (rec_lmdb_source.h, rec_data_config.h):
// records come back in PaddleOCR's order with their texts and images, bad
// records are replaced and counted, and a broken environment is an Error
// naming it before training starts.
#include "ocrforge/train/tasks/rec/rec_lmdb_source.h"

#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "lmdb_writer.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/rec_data_config.h"
#include "rec_data_fixtures.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace ocrforge {
namespace {

// A PNG of a w x 32 crop whose grey level encodes `tag`, so a test can tell
// which record's image came back.
std::string png_bytes(int width, int tag) {
  cv::Mat img(32, width, CV_8UC3, cv::Scalar(tag, tag, tag));
  std::vector<uchar> buf;
  cv::imencode(".png", img, buf);
  return std::string(buf.begin(), buf.end());
}

// data_dir/training/A (records 1, 2) and data_dir/training/B (1 good record,
// then one without its label, one without its image, one that is no image).
std::string write_two_environments(const std::string& name) {
  const std::string root = test::fresh_dir(name) + "/training";
  EXPECT_NO_FATAL_FAILURE(test::write_lmdb(root + "/A", {{"num-samples", "2"},
                                                         {test::lmdb_key("image", 1), png_bytes(64, 10)},
                                                         {test::lmdb_key("label", 1), "ab12"},
                                                         {test::lmdb_key("image", 2), png_bytes(80, 20)},
                                                         {test::lmdb_key("label", 2), "Cd"}}));
  EXPECT_NO_FATAL_FAILURE(test::write_lmdb(root + "/B", {{"num-samples", " 4\n"},
                                                         {test::lmdb_key("image", 1), png_bytes(50, 30)},
                                                         {test::lmdb_key("label", 1), "xyz"},
                                                         {test::lmdb_key("image", 2), png_bytes(50, 40)},
                                                         {test::lmdb_key("label", 3), "nope"},
                                                         {test::lmdb_key("image", 4), "not an image"},
                                                         {test::lmdb_key("label", 4), "bad"}}));
  return root;
}

TEST(RecLmdbSource, ReadsTheRecordsOfEveryEnvironmentInOrder) {
  const std::string root = write_two_environments("rec_lmdb_order");
  const RecLmdbSource src(root, "Train.dataset.data_dir");
  ASSERT_EQ(src.size(), 6u);
  ASSERT_EQ(src.environments().size(), 2u);
  EXPECT_EQ(src.environments()[1], std::make_pair(root + "/B", size_t{4}));
  std::string text;
  cv::Mat img;
  ASSERT_TRUE(src.text(1, &text));
  EXPECT_EQ(text, "Cd");
  ASSERT_EQ(src.image(1, &img), DecodeStatus::kOk);
  EXPECT_EQ(img.cols, 80);
  EXPECT_EQ(img.at<cv::Vec3b>(0, 0)[0], 20);
  ASSERT_TRUE(src.text(2, &text));  // B's record 1
  EXPECT_EQ(text, "xyz");
  EXPECT_EQ(src.name(2), root + "/B#image-000000001");
  EXPECT_FALSE(src.text(3, &text));                          // no label-000000002
  EXPECT_EQ(src.image(4, &img), DecodeStatus::kMissing);      // no image-000000003
  EXPECT_EQ(src.image(5, &img), DecodeStatus::kUndecodable);  // bytes that are no image
  EXPECT_THROW(src.text(6, &text), Error);
  EXPECT_EQ(RecLmdbSource::record_key("label", 12), "label-000000012");
}

TEST(RecLmdbSource, BrokenEnvironmentsAreErrorsNamingThem) {
  const std::string root = test::fresh_dir("rec_lmdb_broken");
  ASSERT_NO_FATAL_FAILURE(test::write_lmdb(root + "/nocount", {{test::lmdb_key("label", 1), "a"}}));
  std::string msg = test::message_of<Error>([&] { RecLmdbSource(root + "/nocount", "Train.dataset.data_dir"); });
  EXPECT_NE(msg.find(root + "/nocount"), std::string::npos) << msg;
  EXPECT_NE(msg.find("num-samples"), std::string::npos) << msg;
  ASSERT_NO_FATAL_FAILURE(test::write_lmdb(root + "/words", {{"num-samples", "many"}}));
  msg = test::message_of<Error>([&] { RecLmdbSource(root + "/words", "Train.dataset.data_dir"); });
  EXPECT_NE(msg.find("'many'"), std::string::npos) << msg;
  ASSERT_NO_FATAL_FAILURE(test::write_lmdb(root + "/empty", {{"num-samples", "0"}}));
  msg = test::message_of<Error>([&] { RecLmdbSource(root + "/empty", "Eval.dataset.data_dir"); });
  EXPECT_NE(msg.find("Eval.dataset.data_dir"), std::string::npos) << msg;
  EXPECT_NE(msg.find("hold no samples"), std::string::npos) << msg;
  // Round 3, defect 7: 2,000,000,000 samples claimed over 3 records ended in bad_alloc.
  ASSERT_NO_FATAL_FAILURE(test::write_lmdb(root + "/claims", {{"num-samples", "2000000000"},
                                                              {test::lmdb_key("image", 1), png_bytes(20, 5)},
                                                              {test::lmdb_key("label", 1), "a"}}));
  msg = test::message_of<Error>([&] { RecLmdbSource(root + "/claims", "Train.dataset.data_dir"); });
  EXPECT_NE(msg.find("num-samples says 2000000000 but the database holds only 3 records"), std::string::npos) << msg;
  fs::create_directories(root + "/plain/folder");  // a folder without data.mdb
  msg = test::message_of<Error>([&] { RecLmdbSource(root + "/plain", "Train.dataset.data_dir"); });
  EXPECT_NE(msg.find(root + "/plain/folder"), std::string::npos) << msg;
  EXPECT_NE(msg.find("data.mdb"), std::string::npos) << msg;
}

std::string lmdb_section(const std::string& data_dir, const std::string& extra = "") {
  return "dataset:\n"
         "  name: LMDBDataSet\n"
         "  data_dir: " + data_dir + "\n" + extra +
         "  transforms:\n"
         "    - DecodeImage: {img_mode: BGR, channel_first: False}\n"
         "    - CTCLabelEncode:\n"
         "    - RecResizeImg: {image_shape: [3, 32, 100]}\n"
         "    - KeepKeys: {keep_keys: [image, label, length]}\n"
         "loader: {shuffle: False, batch_size_per_card: 2, drop_last: True, num_workers: 0}\n";
}

// PaddleOCR's rec_mv3_none_bilstm_ctc TIPC section, read through the config
// reader: every sample loads, the bad ones replaced and counted.
TEST(RecLmdbDataSet, TheConfigSectionReadsEveryRecordThroughTheTransforms) {
  const std::string root = write_two_environments("rec_lmdb_config");
  const RecDataSpec s = rec_data_from_yaml(YAML::Load(lmdb_section(root)), "Train", test::toy_charset(), 25, 1024, true);
  ASSERT_TRUE(s.dataset);
  EXPECT_EQ(s.dataset->size(), 6u);
  EXPECT_TRUE(s.notes.empty());
  DataStats stats;
  const Sample first = s.dataset->load_sample(0, 7, &stats);
  EXPECT_EQ(first.tensors.at("image").sizes(), (std::vector<int64_t>{3, 32, 100}));
  for (size_t i = 0; i < s.dataset->size(); ++i) s.dataset->load_sample(i, 7, &stats);
  EXPECT_EQ(stats.missing_images, 1);
  EXPECT_EQ(stats.undecodable, 1);
  EXPECT_EQ(stats.other[RecDataset::kNoLabelReason], 1);

  const RecDataSpec r = rec_data_from_yaml(YAML::Load(lmdb_section(root, "  ratio_list: [0.5]\n")), "Train",
                                           test::toy_charset(), 25, 1024, true);
  EXPECT_EQ(r.dataset->size(), 6u);  // PaddleOCR samples nothing by it either
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("Train.dataset.ratio_list"), std::string::npos) << r.notes[0];

  const std::string msg = test::message_of<Error>([&] {
    rec_data_from_yaml(YAML::Load(lmdb_section(root + "/none")), "Train", test::toy_charset(), 25, 1024, true);
  });
  EXPECT_NE(msg.find("Train.dataset.data_dir"), std::string::npos) << msg;
  // LMDBDataSet has no label files: the key is reported as unknown.
  const YAML::Node with_list = YAML::Load(lmdb_section(root, "  label_file_list: [x.txt]\n"));
  const std::string unknown = test::read_error(with_list, "Train", [&] {
    rec_data_from_yaml(with_list, "Train", test::toy_charset(), 25, 1024, true);
  });
  EXPECT_NE(unknown.find("Train.dataset.label_file_list"), std::string::npos) << unknown;
}

}  // namespace
}  // namespace ocrforge
