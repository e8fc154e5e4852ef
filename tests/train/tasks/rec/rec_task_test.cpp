// The recognition task's dictionary rules: an empty Global.character_dict_path
// is PaddleOCR's built-in 0-9a-z (labels lower-cased, no space class), in
// training batches and in the exported inference.yml.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/train/export/export_report.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "test_support.h"
#include "train/tasks/rec/trainer_fixture.h"

using namespace ocrforge;

TEST(RecTask, AnEmptyDictionaryIsPaddleOcrsBuiltInWithLabelsLowerCased) {
  test::TinyTask t = test::make_tiny_task("rec_task_builtin_dict", 4);
  {
    // The same pictures labelled with capitals and a character outside 0-9a-z.
    std::ofstream labels(t.dir + "/rec_gt.txt");
    for (int i = 0; i < 4; ++i) labels << "imgs/" << i << ".png\tAb-" << i << "\n";
  }
  Config c = Config::from_string(test::tiny_config(t, 1, 4));
  c.apply_overrides({"Global.character_dict_path=", "Global.use_space_char=true"});
  auto task = make_task(c, trainer_spec_from_config(c), torch::kCPU);

  bool said = false;
  for (const auto& line : task->startup_info()) said = said || line.find("built-in dictionary (0-9a-z") != std::string::npos;
  EXPECT_TRUE(said);
  auto loader = task->make_loader("Train", false, 0, 1);
  loader->start_epoch(0);
  Batch batch;
  ASSERT_TRUE(loader->next(&batch));
  ASSERT_EQ(batch.texts.size(), 4u);
  for (const auto& text : batch.texts) EXPECT_EQ(text.substr(0, 2), "ab") << text;
  EXPECT_EQ(batch.at("length")[0].item<int64_t>(), 3);  // "ab" + the digit; '-' dropped

  const std::string out = t.dir + "/inference";
  ExportReport report;
  task->model().eval();
  task->export_inference(c, out, report);
  const YAML::Node yml = YAML::LoadFile(out + "/inference.yml");
  EXPECT_FALSE(yml["PostProcess"]["use_space_char"].as<bool>());  // no space class, whatever Global says
  const auto chars = yml["PostProcess"]["character_dict"].as<std::vector<std::string>>();
  ASSERT_EQ(chars.size(), 36u);
  EXPECT_EQ(chars.front(), "0");
  EXPECT_EQ(chars.back(), "z");
}
