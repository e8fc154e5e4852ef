// The renderers behind --output_format: one registry, files that appear
// whole only at end(), and the JSON renderer's document.
#include "ocrforge/document/document_renderer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "document_test_support.h"
#include "ocrforge/core/error.h"

using namespace ocrforge;
namespace fs = std::filesystem;

TEST(DocumentRenderer, RegistryNamesEveryFormatAndParsesLists) {
  for (const char* name : {"txt", "hocr", "alto", "tsv", "pdf", "json"}) EXPECT_NE(find_renderer(name), nullptr) << name;
  EXPECT_EQ(find_renderer("docx"), nullptr);
  EXPECT_EQ(parse_output_formats(" TXT, json ,,hocr"), (std::set<std::string>{"txt", "json", "hocr"}));
  const std::string msg = test::message_of<UsageError>([] { parse_output_formats("txt,jsn"); });
  EXPECT_NE(msg.find("did you mean 'json'"), std::string::npos) << msg;
  EXPECT_NE(renderer_help().find("json ("), std::string::npos);
}

TEST(DocumentRenderer, EveryFileAppearsWholeAtEndAndNotBefore) {
  const std::string dir = test::fresh_dir("renderers_staged");
  PageSource src;
  src.file = "scan.png";
  RenderOptions o;
  o.textonly_pdf = true;
  ASSERT_EQ(renderer_kinds().size(), 6u);
  for (const auto& kind : renderer_kinds()) {
    const std::string path = dir + "/doc" + kind.extension;
    {
      auto r = kind.begin(path, src, o);
      r->add_page(test::sample_page(), src, 1);
      EXPECT_FALSE(fs::exists(path)) << kind.name;
    }
    EXPECT_FALSE(fs::exists(path)) << kind.name << ": a renderer destroyed before end() left its file";
    auto r = kind.begin(path, src, o);
    r->add_page(test::sample_page(), src, 1);
    EXPECT_EQ(r->end(), path);
    EXPECT_GT(fs::file_size(path), 0u) << kind.name;
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()),
            static_cast<long>(renderer_kinds().size()))
      << "temporary files left behind";
}

TEST(DocumentRenderer, JsonHoldsEveryPageWithItsWords) {
  const std::string dir = test::fresh_dir("renderers_json");
  PageSource src;
  src.file = "scan.png";
  auto r = find_renderer("json")->begin(dir + "/doc.json", src, {});
  DocPage second = test::sample_page();
  second.info.index = 1;
  r->add_page(test::sample_page(), src, 1);
  r->add_page(second, src, 2);
  r->end();
  const auto doc = nlohmann::json::parse(test::read_text(dir + "/doc.json"));
  EXPECT_EQ(doc["input"], "scan.png");
  ASSERT_EQ(doc["pages"].size(), 2u);
  EXPECT_EQ(doc["pages"][1]["page_index"], 1);
  EXPECT_EQ(doc["pages"][0]["width"], 1000);
  const auto& word = doc["pages"][0]["blocks"][0]["paragraphs"][0]["lines"][0]["words"][0];
  EXPECT_EQ(word["text"], test::sample_page().blocks[0].paragraphs[0].lines[0].words[0].text);
  EXPECT_EQ(word["box"].size(), 4u);
  EXPECT_EQ(word["poly"].size(), 4u);
  EXPECT_NE(doc["pages"][0]["text"].get<std::string>().find(word["text"].get<std::string>()), std::string::npos);
}
