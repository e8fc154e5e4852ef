#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/label_list_spec.h"
#include "ocrforge/train/data/loader_config.h"
#include "test_support.h"

namespace ocrforge {
namespace {

LabelListSpec two_files(std::vector<double> ratios) {
  LabelListSpec spec;
  spec.config_key = "Eval.dataset";
  spec.label_file_list = {"a.txt", "b.txt"};
  spec.ratio_list = std::move(ratios);
  return spec;
}

std::string ratio_error(std::vector<double> ratios) {
  return ocrforge::test::message_of<Error>([&] {
    ratios_per_file(two_files(std::move(ratios)));
  });
}

TEST(LabelListSpec, ExpandsRatiosPerFile) {
  EXPECT_EQ(ratios_per_file(two_files({})), (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(ratios_per_file(two_files({0.5})), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(ratios_per_file(two_files({1.0, 0.25})), (std::vector<double>{1.0, 0.25}));
}

TEST(LabelListSpec, RejectsRatiosThatDoNotFitNamingTheKey) {
  EXPECT_NE(ratio_error({1.0, 0.5, 0.5}).find("'Eval.dataset.ratio_list' has 3 values"), std::string::npos);
  EXPECT_NE(ratio_error({1.5}).find("Eval.dataset.ratio_list': ratios must be in [0, 1]"), std::string::npos);
  EXPECT_NE(ratio_error({-0.1, 1.0}).find("ratios must be in [0, 1]"), std::string::npos);
  LabelListSpec none;
  none.config_key = "Train.dataset";
  try {
    ratios_per_file(none);
    FAIL() << "an empty label_file_list must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'Train.dataset.label_file_list' names no label file"), std::string::npos);
  }
}

TEST(LabelListSpec, SamplesRoundHalfToEvenInFileOrderAndBySeed) {
  EXPECT_EQ(sample_lines(5, 1.0, 7, 1, 0).size(), 5u);
  EXPECT_EQ(sample_lines(5, 0.5, 7, 1, 0).size(), 2u);  // round(2.5) = 2
  EXPECT_EQ(sample_lines(7, 0.5, 7, 1, 0).size(), 4u);  // round(3.5) = 4
  EXPECT_TRUE(sample_lines(5, 0.0, 7, 1, 0).empty());
  const auto a = sample_lines(1000, 0.3, 7, 1, 0);
  EXPECT_EQ(a.size(), 300u);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(std::set<size_t>(a.begin(), a.end()).size(), a.size());  // no line twice
  EXPECT_EQ(a, sample_lines(1000, 0.3, 7, 1, 0));                      // reproducible
  EXPECT_NE(a, sample_lines(1000, 0.3, 8, 1, 0));                      // the seed matters
  EXPECT_NE(a, sample_lines(1000, 0.3, 7, 2, 0));                      // so does the task's salt
  EXPECT_NE(a, sample_lines(1000, 0.3, 7, 1, 1));                      // and the file
}

TEST(LabelListSpec, JoinsPathsLikeOsPathJoin) {
  EXPECT_EQ(join_data_path("", "imgs/a.jpg"), "imgs/a.jpg");
  EXPECT_EQ(join_data_path("/data", "imgs/a.jpg"), "/data/imgs/a.jpg");
  EXPECT_EQ(join_data_path("/data/", "imgs/a.jpg"), "/data/imgs/a.jpg");
  EXPECT_EQ(join_data_path("/data", "/abs/a.jpg"), "/abs/a.jpg");
}

TEST(LoaderConfig, ReadsLabelListKeysAndLoaderDefaults) {
  const YAML::Node ds = YAML::Load("{data_dir: /d, label_file_list: x.txt, ratio_list: 0.5, delimiter: ' '}");
  const LabelListSpec list = label_list_from_yaml(ds, "Train.dataset", 42);
  EXPECT_EQ(list.data_dir, "/d");
  EXPECT_EQ(list.label_file_list, std::vector<std::string>{"x.txt"});  // a scalar is a list of one
  EXPECT_EQ(list.ratio_list, std::vector<double>{0.5});
  EXPECT_EQ(list.delimiter, ' ');
  EXPECT_EQ(list.seed, 42u);
  EXPECT_EQ(list.config_key, "Train.dataset");
  EXPECT_EQ(label_list_from_yaml(YAML::Load("{label_file_list: [x.txt], delimiter: '\\t'}"), "T", 1).delimiter, '\t');

  const LoaderSpec train = loader_from_yaml(YAML::Node(), "Train.loader", true);
  EXPECT_TRUE(train.shuffle);
  EXPECT_TRUE(train.drop_last);
  const LoaderSpec eval = loader_from_yaml(YAML::Load("{batch_size_per_card: 4, shuffle: 1}"), "Eval.loader", false);
  EXPECT_EQ(eval.batch_size, 4);
  EXPECT_TRUE(eval.shuffle);  // 1 is a boolean to the config layer, as to PaddleOCR
  EXPECT_FALSE(eval.drop_last);
}

std::string usage_error(const std::function<void()>& f) { return test::message_of<UsageError>(f); }

TEST(LoaderConfig, NamesTheKeyOfEveryBadValue) {
  EXPECT_NE(usage_error([] { label_list_from_yaml(YAML::Load("{data_dir: /d}"), "Train.dataset", 1); })
                .find("'Train.dataset.label_file_list' is missing"),
            std::string::npos);
  EXPECT_NE(usage_error([] {
              label_list_from_yaml(YAML::Load("{label_file_list: x, delimiter: ab}"), "Train.dataset", 1);
            }).find("'Train.dataset.delimiter': expected one character"),
            std::string::npos);
  EXPECT_NE(usage_error([] { loader_from_yaml(YAML::Load("{batch_size_per_card: 0}"), "Train.loader", true); })
                .find("Train.loader.batch_size_per_card"),
            std::string::npos);
  EXPECT_NE(usage_error([] { loader_from_yaml(YAML::Load("{num_workers: -1}"), "Train.loader", true); })
                .find("Train.loader.num_workers"),
            std::string::npos);
  const YAML::Node typo = YAML::Load("{shufle: true}");
  EXPECT_NE(test::read_error(typo, "Train.loader", [&] { loader_from_yaml(typo, "Train.loader", true); })
                .find("did you mean 'Train.loader.shuffle'"),
            std::string::npos);
}

}  // namespace
}  // namespace ocrforge
