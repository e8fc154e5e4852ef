// `tipc prepare`: the label files a TIPC config's training config names, made
// in PaddleOCR's layout from synthetic or real data, inference folders from
// the eval set, idempotence, and what cannot be made offline.
#include "ocrforge/tipc/tipc_prepare.h"

#include <lmdb.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/core/label_file.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace ocrforge {
namespace {

// Runs in `dir` (TIPC paths are relative to the folder it runs from, as PaddleOCR's).
class InDir {
 public:
  explicit InDir(const std::string& dir) : old_(fs::current_path()) { fs::current_path(dir); }
  ~InDir() { fs::current_path(old_); }

 private:
  fs::path old_;
};

std::string rec_yml(const std::string& pretrained = "") {
  return "Global:\n  pretrained_model: " + pretrained +
         "\nArchitecture:\n  model_type: rec\n  algorithm: CRNN\n"
         "Train:\n  dataset:\n    name: SimpleDataSet\n    data_dir: ./train_data/ic15_data/\n"
         "    label_file_list: [./train_data/ic15_data/rec_gt_train.txt]\n"
         "Eval:\n  dataset:\n    name: SimpleDataSet\n    data_dir: ./train_data/ic15_data\n"
         "    label_file_list: [./train_data/ic15_data/rec_gt_test.txt]\n";
}

std::string det_yml() {
  return "Global:\n  pretrained_model: ./pretrain_models/MobileNetV3_large_x0_5_pretrained\n"
         "Architecture:\n  model_type: det\n  algorithm: DB\n"
         "Train:\n  dataset:\n    data_dir: ./train_data/icdar2015/text_localization/\n"
         "    label_file_list:\n      - ./train_data/icdar2015/text_localization/train_icdar2015_label.txt\n"
         "Eval:\n  dataset:\n    data_dir: ./train_data/icdar2015/text_localization/\n"
         "    label_file_list:\n      - ./train_data/icdar2015/text_localization/test_icdar2015_label.txt\n";
}

// PaddleOCR's layout, the lines prepare reads: the trainer's -c, image folders, the whole_infer model slot.
TipcConfig tipc(const std::string& yml, const std::string& tool, const std::string& img_dir) {
  return TipcConfig::parse(
      "===========================train_params===========================\n"
      "model_name:m\ngpu_list:-1\nGlobal.pretrained_model:null\ntrain_infer_img_dir:" + img_dir + "\nnull:null\n##\n"
      "trainer:norm_train\nnorm_train:tools/train.py -c " + yml + " -o Global.print_batch_step=1\n##\n"
      "===========================infer_params===========================\n"
      "inference_dir:null\ninfer_model:./inference/m_infer\ninfer_export:null\n"
      "inference:tools/infer/" + tool + "\n--use_gpu:False\n--image_dir:" + img_dir + "\n",
      "tipc.txt");
}

std::map<std::string, TipcPrepareItem> by_path(const TipcPrepareReport& r) {
  std::map<std::string, TipcPrepareItem> m;
  for (const auto& i : r.items) m[i.path] = i;
  return m;
}

TEST(TipcPrepare, MakesRecLabelsInPaddleOcrLayoutDisjointAndKeepsThemOnARerun) {
  const std::string dir = test::fresh_dir("tipc_prepare_rec");
  InDir in(dir);
  test::write_text("rec.yml", rec_yml());
  const TipcConfig c = tipc("rec.yml", "predict_rec.py", "./inference/rec_inference");
  TipcPrepareParams o;
  o.mode = "lite_train_lite_infer";
  o.num_train = 8;
  o.num_test = 4;
  const auto items = by_path(prepare_tipc(c, o));
  const std::string train = "./train_data/ic15_data/rec_gt_train.txt", test = "./train_data/ic15_data/rec_gt_test.txt";
  ASSERT_EQ(items.at(train).status, "made");
  EXPECT_NE(items.at(train).detail.find("8 synthetic samples"), std::string::npos) << items.at(train).detail;
  ASSERT_EQ(items.at(test).status, "made");
  EXPECT_EQ(items.at("./inference/rec_inference").status, "made");
  const auto train_labels = read_rec_labels(train), test_labels = read_rec_labels(test);
  ASSERT_EQ(train_labels.size(), 8u);
  ASSERT_EQ(test_labels.size(), 4u);
  std::set<std::string> train_texts;
  for (const auto& l : train_labels) {
    EXPECT_TRUE(fs::exists("./train_data/ic15_data/" + l.path)) << l.path;  // relative to data_dir, as PaddleOCR joins them
    EXPECT_FALSE(l.text.empty());
    train_texts.insert(l.path);
  }
  for (const auto& l : test_labels) EXPECT_EQ(train_texts.count(l.path), 0u) << l.path;
  EXPECT_EQ(std::distance(fs::directory_iterator("./inference/rec_inference"), fs::directory_iterator{}), 4);

  const std::string before = test::read_text(train);
  const TipcPrepareReport again = prepare_tipc(c, o);
  ASSERT_FALSE(again.items.empty());
  for (const auto& i : again.items) EXPECT_EQ(i.status, "present") << i.path;
  EXPECT_EQ(test::read_text(train), before);
  EXPECT_EQ(again.missing(), 0);
}

// PaddleOCR's LMDB recognizers (rec_mv3_none_bilstm_ctc_v2.0): the data_dir
// of each section becomes one LMDB environment in data_lmdb_release's
// layout, which the trainer's LMDBDataSet reads back; the inference folder
// takes the eval samples' pictures.
TEST(TipcPrepare, AnLmdbDataSetBecomesAnEnvironmentTrainingReads) {
  const std::string dir = test::fresh_dir("tipc_prepare_lmdb");
  InDir in(dir);
  test::write_text("rec.yml",
                   "Global:\n  print_batch_step: 10\nArchitecture:\n  model_type: rec\n  algorithm: CRNN\n"
                   "Train:\n  dataset:\n    name: LMDBDataSet\n    data_dir: ./train_data/data_lmdb_release/training/\n"
                   "Eval:\n  dataset:\n    name: LMDBDataSet\n    data_dir: ./train_data/data_lmdb_release/validation/\n");
  const TipcConfig c = tipc("rec.yml", "predict_rec.py", "./inference/rec_inference");
  TipcPrepareParams o;
  o.mode = "lite_train_lite_infer";
  o.num_train = 6;
  o.num_test = 3;
  const auto items = by_path(prepare_tipc(c, o));
  const std::string train = "./train_data/data_lmdb_release/training/";
  ASSERT_EQ(items.at(train).status, "made") << items.at(train).detail;
  EXPECT_NE(items.at(train).detail.find("LMDB environment of 6 synthetic samples"), std::string::npos)
      << items.at(train).detail;
  EXPECT_EQ(items.at("./train_data/data_lmdb_release/validation/").status, "made");
  EXPECT_EQ(items.at("./inference/rec_inference").status, "made");
  EXPECT_TRUE(fs::exists(train + "data.mdb"));
  EXPECT_FALSE(fs::exists(train + "lock.mdb"));
  EXPECT_FALSE(fs::exists("./train_data/data_lmdb_release/training.part"));

  // Read back with liblmdb: num-samples and the records of PaddleOCR's layout.
  MDB_env* env = nullptr;
  ASSERT_EQ(mdb_env_create(&env), 0);
  ASSERT_EQ(mdb_env_open(env, train.c_str(), MDB_RDONLY | MDB_NOLOCK, 0444), 0);
  MDB_txn* txn = nullptr;
  ASSERT_EQ(mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn), 0);
  MDB_dbi dbi = 0;
  ASSERT_EQ(mdb_dbi_open(txn, nullptr, 0, &dbi), 0);
  const auto get = [&](const std::string& key) {
    MDB_val k{key.size(), const_cast<char*>(key.data())}, v{};
    return mdb_get(txn, dbi, &k, &v) == 0 ? std::string(static_cast<const char*>(v.mv_data), v.mv_size) : "<none>";
  };
  EXPECT_EQ(get("num-samples"), "6");
  const std::vector<RecLabel> source = read_rec_labels("./train_data/data_lmdb_release/training.samples/labels.txt");
  ASSERT_EQ(source.size(), 6u);
  EXPECT_EQ(get("label-000000006"), source[5].text);
  EXPECT_EQ(get("image-000000001"),
            test::read_text("./train_data/data_lmdb_release/training.samples/" + source[0].path));
  EXPECT_EQ(get("label-000000007"), "<none>");
  mdb_txn_abort(txn);
  mdb_env_close(env);

  const TipcPrepareReport again = prepare_tipc(c, o);
  ASSERT_EQ(again.items.size(), 3u);  // both data sets and the inference folder
  for (const auto& i : again.items) EXPECT_EQ(i.status, "present") << i.path;
}

TEST(TipcPrepare, RealDataGivesTrainingTheHeadAndEvalTheTail) {
  const std::string dir = test::fresh_dir("tipc_prepare_real");
  InDir in(dir);
  fs::create_directories("real/ic15_rec_train/crops");
  std::string labels;
  for (int i = 0; i < 10; ++i) {
    test::write_text("real/ic15_rec_train/crops/w" + std::to_string(i) + ".jpg", "not decoded by prepare");
    labels += "crops/w" + std::to_string(i) + ".jpg\tword" + std::to_string(i) + "\n";
  }
  test::write_text("real/ic15_rec_train/rec_gt_train.txt", labels);
  test::write_text("rec.yml", rec_yml());
  TipcPrepareParams o;
  o.mode = "lite_train_lite_infer";
  o.num_train = 6;
  o.num_test = 3;
  o.real_data = "real";
  prepare_tipc(tipc("rec.yml", "predict_rec.py", "./inference/rec_inference"), o);
  std::vector<std::string> train, test;
  for (const auto& l : read_rec_labels("./train_data/ic15_data/rec_gt_train.txt")) train.push_back(l.text);
  for (const auto& l : read_rec_labels("./train_data/ic15_data/rec_gt_test.txt")) test.push_back(l.text);
  EXPECT_EQ(train, (std::vector<std::string>{"word0", "word1", "word2", "word3", "word4", "word5"}));
  EXPECT_EQ(test, (std::vector<std::string>{"word7", "word8", "word9"}));
  // Too few real samples for both sets: synthetic data instead, never an overlap.
  fs::remove_all("train_data");
  o.num_train = 8;
  const auto items = by_path(prepare_tipc(tipc("rec.yml", "predict_rec.py", "./inference/rec_inference"), o));
  EXPECT_NE(items.at("./train_data/ic15_data/rec_gt_train.txt").detail.find("synthetic"), std::string::npos);
}

TEST(TipcPrepare, DetPagesAreMadeAndAPaddleBackboneIsReportedMissing) {
  const std::string dir = test::fresh_dir("tipc_prepare_det");
  InDir in(dir);
  test::write_text("det.yml", det_yml());
  TipcPrepareParams o;
  o.mode = "lite_train_lite_infer";
  o.num_train = 2;
  o.num_test = 1;
  const TipcPrepareReport r = prepare_tipc(tipc("det.yml", "predict_det.py", "./inference/ch_det_data_50/all-sum-510/"), o);
  const auto items = by_path(r);
  const auto pages = read_det_labels("./train_data/icdar2015/text_localization/train_icdar2015_label.txt");
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_FALSE(pages[0].regions.empty());
  EXPECT_TRUE(fs::exists("./train_data/icdar2015/text_localization/" + pages[0].path));
  EXPECT_EQ(items.at("./inference/ch_det_data_50/all-sum-510/").status, "made");
  const auto& backbone = items.at("./pretrain_models/MobileNetV3_large_x0_5_pretrained");
  EXPECT_EQ(backbone.status, "missing");
  EXPECT_NE(backbone.detail.find("pdparams"), std::string::npos) << backbone.detail;
  EXPECT_EQ(r.missing(), 1);
  EXPECT_EQ(items.count("./inference/m_infer"), 0u);  // only whole_infer reads the model slot
}

TEST(TipcPrepare, WholeInferMakesNoTrainingSetAndNamesTheModelItCannotMake) {
  const std::string dir = test::fresh_dir("tipc_prepare_whole_infer");
  InDir in(dir);
  test::write_text("rec.yml", rec_yml("./pretrain_models/never_read"));
  TipcPrepareParams o;
  o.mode = "whole_infer";
  o.num_test = 2;
  const auto items = by_path(prepare_tipc(tipc("rec.yml", "predict_rec.py", "./inference/rec_inference"), o));
  EXPECT_FALSE(fs::exists("./train_data/ic15_data/rec_gt_train.txt"));
  EXPECT_EQ(items.count("./pretrain_models/never_read"), 0u);  // no training, no pretrained weights needed
  EXPECT_EQ(items.at("./inference/m_infer").status, "missing");
  EXPECT_EQ(items.at("./inference/rec_inference").status, "made");
}

TEST(TipcPrepare, UnknownModeAndAConfigWithoutTrainingConfigAreErrors) {
  TipcPrepareParams o;
  o.mode = "lite";
  EXPECT_THROW(prepare_tipc(tipc("x.yml", "predict_rec.py", "imgs"), o), UsageError);
  o.mode = "lite_train_lite_infer";
  const TipcConfig none = TipcConfig::parse("=====train_params=====\nmodel_name:m\nnorm_train:null\n", "t.txt");
  EXPECT_THROW(prepare_tipc(none, o), Error);
}

}  // namespace
}  // namespace ocrforge
