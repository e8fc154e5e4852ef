// `ocrforge eval --save_wrong FILE` end to end with the shipped recognizer
// and classifier (fine-tuning configs, ONNX weights) on the ten real crops of
// tests/data/rec_toy (and their turned copies for the classifier): the list
// agrees with the accuracy printed, and a sample given a wrong label on
// purpose joins it with what the model read; detection configs and a
// missing folder are refused before anything is evaluated.
#include <gtest/gtest.h>
#include <map>
#include <sstream>

#include "test_support.h"

using namespace ocrforge;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

std::vector<std::string> columns_of(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string c; std::getline(in, c, '\t');) out.push_back(c);
  return out;
}

double value_in(const std::string& out, const std::string& key) {
  const size_t p = out.find("\n" + key + ": ");
  return p == std::string::npos ? -1.0 : std::stod(out.substr(p + key.size() + 3));
}

test::CommandResult eval(const std::string& config, const std::string& dir, const std::string& overrides,
                         const std::string& save_wrong) {
  return test::run_command("cd " + test::source_dir() + " && " + test::binary() + " eval -c " + config + " -o " +
                               overrides + " Global.use_gpu=false" +
                               (save_wrong.empty() ? "" : " --save_wrong " + save_wrong),
                           dir);
}

// Evaluates `labels` (path<TAB>label lines under `data_dir`) with
// --save_wrong, checks the file against the accuracy printed, and returns
// its rows by image file name.
std::map<std::string, std::vector<std::string>> wrong_rows(const std::string& config, const std::string& dir,
                                                            const std::string& data_dir,
                                                            const std::vector<std::string>& labels,
                                                            const std::string& name) {
  std::string label_file;
  for (const std::string& l : labels) label_file += l + "\n";
  test::write_text(dir + "/" + name + ".txt", label_file);
  const auto r = eval(config, dir,
                      "Eval.dataset.data_dir=" + data_dir + " Eval.dataset.label_file_list=[" + dir + "/" + name +
                          ".txt] Eval.loader.num_workers=0",
                      dir + "/" + name + ".tsv");
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::vector<std::string> rows = lines_of(test::read_text(dir + "/" + name + ".tsv"));
  std::map<std::string, std::vector<std::string>> out;
  if (rows.empty()) return out;
  EXPECT_EQ(rows[0], "image\tlabel\tprediction\tscore");
  // Every wrong sample, no more: the rows match the accuracy printed.
  const double acc = value_in(r.out, "acc"), samples = value_in(r.out, "samples");
  EXPECT_EQ(samples, static_cast<double>(labels.size())) << r.out;
  EXPECT_NEAR(static_cast<double>(rows.size() - 1), (1.0 - acc) * samples, 1e-6) << r.out;
  EXPECT_NE(r.out.find("wrong samples: " + std::to_string(rows.size() - 1) + " written to"), std::string::npos) << r.out;
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto c = columns_of(rows[i]);
    EXPECT_EQ(c.size(), 4u) << rows[i];
    if (c.size() != 4) continue;
    EXPECT_NE(c[1], c[2]) << rows[i];
    EXPECT_GE(std::stod(c[3]), 0.0) << rows[i];
    EXPECT_LE(std::stod(c[3]), 1.0) << rows[i];
    out[c[0].substr(c[0].rfind('/') + 1)] = c;
  }
  return out;
}

// Evaluates the true labels, then the same with the first correctly read
// sample given `wrong_label`: the second list is the first plus that sample,
// listed with its true label as the prediction.
void check_mislabelled_sample_is_listed(const std::string& config, const std::string& dir, const std::string& data_dir,
                                        std::vector<std::string> labels, const std::string& wrong_label) {
  const auto before = wrong_rows(config, dir, data_dir, labels, "true_labels");
  ASSERT_LT(before.size(), labels.size()) << "the model reads none of the samples";
  size_t pick = 0;
  std::string file;
  for (; pick < labels.size(); ++pick) {
    const std::string path = columns_of(labels[pick])[0];
    file = path.substr(path.rfind('/') + 1);
    if (!before.count(file)) break;
  }
  const std::string truth = columns_of(labels[pick])[1];
  ASSERT_NE(truth, wrong_label);
  labels[pick] = columns_of(labels[pick])[0] + "\t" + wrong_label;
  const auto after = wrong_rows(config, dir, data_dir, labels, "one_mislabelled");
  ASSERT_EQ(after.size(), before.size() + 1);
  for (const auto& [name, row] : before) {
    ASSERT_TRUE(after.count(name)) << name;
    EXPECT_EQ(after.at(name), row) << name;
  }
  ASSERT_TRUE(after.count(file)) << file;
  EXPECT_EQ(after.at(file)[1], wrong_label);
  EXPECT_EQ(after.at(file)[2], truth);
}

}  // namespace

TEST(EvalCli, SaveWrongListsTheMislabelledRecSampleWithWhatTheModelRead) {
  const std::string dir = test::fresh_dir("eval_cli_rec");
  const auto labels = lines_of(test::read_text(test::data_dir() + "/rec_toy/rec_gt.txt"));
  ASSERT_EQ(labels.size(), 10u);
  check_mislabelled_sample_is_listed("configs/rec/en_PP-OCRv4_doc_rec_finetune.yml", dir, test::data_dir() + "/rec_toy",
                                     labels, "ZQXJ");
}

TEST(EvalCli, SaveWrongListsTheCropTurnedTheOtherWay) {
  const std::string dir = test::fresh_dir("eval_cli_cls");
  // Each crop upright (label 0) and turned by 180 degrees (label 180), by `data cls`.
  const auto pairs = test::run_command(test::binary() + " data cls --label " + test::data_dir() +
                                           "/rec_toy/rec_gt.txt --data_dir " + test::data_dir() + "/rec_toy --out " +
                                           dir + "/pairs",
                                       dir);
  ASSERT_EQ(pairs.exit_code, 0) << pairs.err;
  const auto labels = lines_of(test::read_text(dir + "/pairs/cls_gt.txt"));
  ASSERT_EQ(labels.size(), 20u);
  // The first sample the classifier gets right, labelled with the other class.
  const auto before = wrong_rows("configs/cls/ch_ppocr_mobile_cls_finetune.yml", dir, dir + "/pairs", labels, "probe");
  std::string other = "180";
  for (const auto& l : labels) {
    const auto c = columns_of(l);
    if (!before.count(c[0].substr(c[0].rfind('/') + 1))) {
      other = c[1] == "0" ? "180" : "0";
      break;
    }
  }
  check_mislabelled_sample_is_listed("configs/cls/ch_ppocr_mobile_cls_finetune.yml", dir, dir + "/pairs", labels, other);
}

TEST(EvalCli, SaveWrongIsRefusedForDetectionAndForAMissingFolder) {
  const std::string dir = test::fresh_dir("eval_cli_refusals");
  const std::string det_data =
      "Eval.dataset.data_dir=" + test::data_dir() + "/det_toy Eval.dataset.label_file_list=[" + test::data_dir() +
      "/det_toy/det_gt.txt]";
  const auto det = eval("configs/det/ch_PP-OCRv4_det_finetune.yml", dir, det_data, dir + "/wrong.tsv");
  EXPECT_EQ(det.exit_code, 2) << det.err;
  EXPECT_NE(det.err.find("--save_wrong"), std::string::npos) << det.err;
  EXPECT_NE(det.err.find("rec or cls"), std::string::npos) << det.err;
  EXPECT_EQ(det.out.find("metric eval"), std::string::npos) << "refused before evaluating: " << det.out;

  const auto missing = eval("configs/rec/en_PP-OCRv4_doc_rec_finetune.yml", dir,
                            "Eval.dataset.data_dir=" + test::data_dir() + "/rec_toy Eval.dataset.label_file_list=[" +
                                test::data_dir() + "/rec_toy/rec_gt.txt]",
                            dir + "/no_such_folder/wrong.tsv");
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("no_such_folder"), std::string::npos) << missing.err;
  EXPECT_EQ(missing.out.find("metric eval"), std::string::npos) << missing.out;

  const auto train = test::run_command(test::binary() + " train -c x.yml --save_wrong " + dir + "/w.tsv", dir);
  EXPECT_EQ(train.exit_code, 2) << train.err;
  EXPECT_NE(train.err.find("unexpected argument '--save_wrong'"), std::string::npos) << train.err;
}
