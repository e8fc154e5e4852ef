// An `ocrforge export` folder's inference.yml applied to the inference
// parameters: rec dictionary and shape, det post-processing; explicit flags
// win; a broken or foreign yml is an error naming the file.
#include "ocrforge/infer/export_folder.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace ocrforge {
namespace {

std::string folder_with(const std::string& name, const std::string& yml) {
  const std::string dir = test::fresh_dir(name);
  test::write_text(dir + "/inference.yml", yml);
  return dir;
}

std::string error_of(const std::function<void()>& f) {
  return ocrforge::test::message_of<Error>([&] {
    f();
  });
}

const auto no_flags = [](const std::string&) { return false; };

TEST(ExportFolder, DetTakesThePostProcessingUnlessItsFlagWasGiven) {
  DetParams det;
  det.model_dir = folder_with("export_folder_det",
                              "Global: {model_type: det}\n"
                              "PostProcess: {name: DBPostProcess, thresh: 0.25, box_thresh: 0.5, max_candidates: 300,"
                              " unclip_ratio: 2.0, use_dilation: true, score_mode: slow, box_type: poly}\n");
  det.post.unclip_ratio = 1.7f;  // as if --det_db_unclip_ratio 1.7 was given
  apply_det_export_folder(det, [](const std::string& key) { return key == "unclip_ratio"; });
  EXPECT_FLOAT_EQ(det.post.thresh, 0.25f);
  EXPECT_FLOAT_EQ(det.post.box_thresh, 0.5f);
  EXPECT_EQ(det.post.max_candidates, 300);
  EXPECT_FLOAT_EQ(det.post.unclip_ratio, 1.7f);
  EXPECT_TRUE(det.post.use_dilation);
  EXPECT_EQ(det.post.score_mode, DbScoreMode::Slow);
  EXPECT_EQ(det.post.box_type, DetBoxType::Poly);
}

TEST(ExportFolder, FoldersWithoutAYmlAndFilesAreLeftAlone) {
  DetParams det;
  det.model_dir = test::fresh_dir("export_folder_plain");  // e.g. the shipped model folder
  apply_det_export_folder(det, no_flags);
  EXPECT_FLOAT_EQ(det.post.thresh, DbPostParams().thresh);
  det.model_dir = det.model_dir + "/inference.onnx";  // a bare file (absent here: nothing is read)
  apply_det_export_folder(det, no_flags);
  RecParams rec;
  rec.model_dir = test::fresh_dir("export_folder_plain_rec");
  apply_rec_export_folder(rec, false, false);
  EXPECT_TRUE(rec.characters.empty());
}

TEST(ExportFolder, BadOrForeignYmlsNameTheFile) {
  DetParams det;
  det.model_dir = folder_with("export_folder_range", "Global: {model_type: det}\nPostProcess: {thresh: 1.5}\n");
  EXPECT_NE(error_of([&] { apply_det_export_folder(det, no_flags); }).find("PostProcess.thresh 1.5 is out of range [0, 1]"),
            std::string::npos);
  det.model_dir = folder_with("export_folder_mode", "PostProcess: {score_mode: medium}\n");
  EXPECT_NE(error_of([&] { apply_det_export_folder(det, no_flags); }).find("must be fast or slow"), std::string::npos);
  det.model_dir = folder_with("export_folder_name", "PostProcess: {name: EASTPostProcess}\n");
  EXPECT_NE(error_of([&] { apply_det_export_folder(det, no_flags); }).find("DBPostProcess only"), std::string::npos);
  det.model_dir = folder_with("export_folder_rec_in_det", "Global: {model_type: rec}\n");
  const std::string foreign = error_of([&] { apply_det_export_folder(det, no_flags); });
  EXPECT_NE(foreign.find("holds a rec model"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find("not a detector"), std::string::npos) << foreign;
  det.model_dir = folder_with("export_folder_broken", "PostProcess: {thresh: [\n");
  EXPECT_NE(error_of([&] { apply_det_export_folder(det, no_flags); }).find("is not readable YAML"), std::string::npos);
  // A value whose flag was given is not read, so it cannot fail.
  det.model_dir = folder_with("export_folder_flag_wins", "Global: {model_type: det}\nPostProcess: {thresh: 1.5}\n");
  EXPECT_EQ(error_of([&] { apply_det_export_folder(det, [](const std::string& k) { return k == "thresh"; }); }), "");
}

TEST(ExportFolder, RecTakesTheDictionaryAndShapeUnlessGiven) {
  RecParams rec;
  rec.model_dir = folder_with("export_folder_rec",
                              "Global: {model_type: rec}\n"
                              "PreProcess: {transform_ops: [{DecodeImage: null}, {RecResizeImg: {image_shape: [3, 32, 100]}}]}\n"
                              "PostProcess: {name: CTCLabelDecode, use_space_char: false, character_dict: [a, b]}\n");
  apply_rec_export_folder(rec, false, false);
  EXPECT_EQ(rec.characters, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(rec.use_space_char);
  EXPECT_EQ(rec.image_h, 32);
  EXPECT_EQ(rec.image_w, 100);
  RecParams given;
  given.model_dir = rec.model_dir;
  apply_rec_export_folder(given, true, true);
  EXPECT_TRUE(given.characters.empty());
  EXPECT_EQ(given.image_h, RecParams().image_h);
}

}  // namespace
}  // namespace ocrforge
