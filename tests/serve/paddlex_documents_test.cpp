// Documents through the server (issue 50): PaddleX /ocr reads a PDF
// (fileType 0) and a multi-page TIFF page by page, one ocrResults entry per
// page, with PaddleX's dataInfo and its page limit (max_num_input_imgs: the
// first N pages); PaddleHub's ocr_system and /v1/ocr take images only and
// say so. The PDF is made here, with the library's own writer, from three
// sample photos whose text is known.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <nlohmann/json.hpp>

#include "ocrforge/document/pdf_writer.h"
#include "ocrforge/serve/base64.h"
#include "serve_test_support.h"

using namespace ocrforge;
using json = nlohmann::json;

namespace {

// Page by page: the photo, a word it shows, its size in pixels.
struct Sample {
  const char* file;
  const char* word;
  cv::Size size;
};
const Sample kPages[] = {{"imgs_ger_1.jpg", "EPPING", {360, 270}},
                         {"imgs_00009282.jpg", "洗涤说明", {350, 350}},
                         {"imgs_french_0.jpg", "Palais du LOUVRE", {692, 1024}}};

std::string sample_path(const char* name) { return test::data_dir() + "/samples/" + name; }

// A PDF of the three photos, each page sized so that at 144 dpi (the
// server's default, PaddleX's zoom 2.0) it renders back at the photo's size.
std::string three_page_pdf(const std::string& dir) {
  SearchablePdf pdf(dir + "/three.pdf", false);
  for (const Sample& s : kPages) {
    const auto jpeg = pdf_image_from_file(sample_path(s.file));
    EXPECT_TRUE(jpeg.has_value()) << s.file;
    DocPage page;
    page.info.size = {jpeg->width, jpeg->height};
    page.info.dpi_x = page.info.dpi_y = 144;
    pdf.add_page(&*jpeg, page);
  }
  pdf.finish();
  return test::read_text(dir + "/three.pdf");
}

std::string three_page_tiff(const std::string& dir) {
  std::vector<cv::Mat> pages;
  for (const Sample& s : kPages) pages.push_back(cv::imread(sample_path(s.file)));
  EXPECT_TRUE(cv::imwritemulti(dir + "/three.tif", pages));
  return test::read_text(dir + "/three.tif");
}

bool have_pdftoppm() { return test::run_command("pdftoppm -v", test::fresh_dir("have_pdftoppm")).exit_code == 0; }

httplib::Result post_ocr(httplib::Client& c, const std::string& file, int file_type, json extra = json::object()) {
  json body = {{"file", base64_encode(file)}, {"fileType", file_type}, {"visualize", false}};
  body.update(extra);
  return c.Post("/ocr", body.dump(), "application/json");
}

std::string joined_texts(const json& result) {
  std::string all;
  for (const auto& t : result["prunedResult"]["rec_texts"]) all += t.get<std::string>() + " | ";
  return all;
}

std::string error_of(const httplib::Result& r) {
  const json j = json::parse(r->body);
  return j.contains("errorMsg") ? j["errorMsg"].get<std::string>() : j.contains("msg") ? j["msg"].get<std::string>()
                                                                                       : j["error"].get<std::string>();
}

// Each page's result holds that page's word, and only that page's.
void expect_pages_in_order(const json& results, size_t pages) {
  ASSERT_EQ(results.size(), pages);
  for (size_t i = 0; i < pages; ++i) {
    const std::string texts = joined_texts(results[i]);
    for (size_t j = 0; j < 3; ++j)
      EXPECT_EQ(texts.find(kPages[j].word) != std::string::npos, i == j)
          << "page " << i + 1 << " and the word of page " << j + 1 << ": " << texts;
  }
}

}  // namespace

TEST(PaddlexDocuments, PdfGivesOneResultPerPageWithPdfInfo) {
  if (!have_pdftoppm()) GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed";
  const std::string pdf = three_page_pdf(test::fresh_dir("serve_pdf"));
  test::TestServer s(test::test_options());
  auto c = s.client();
  auto res = post_ocr(c, pdf, 0, {{"visualize", true}});
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json r = json::parse(res->body);
  EXPECT_EQ(r["errorCode"], 0);
  const json& results = r["result"]["ocrResults"];
  expect_pages_in_order(results, 3);
  json pages = json::array();
  for (const Sample& p : kPages) pages.push_back({{"width", p.size.width}, {"height", p.size.height}});
  EXPECT_EQ(r["result"]["dataInfo"], (json{{"numPages", 3}, {"pages", pages}, {"type", "pdf"}}));
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(results[i]["prunedResult"]["page_index"].is_null()) << "as PaddleX's serving gives it";
    EXPECT_EQ(results[i]["prunedResult"]["image_size"], json::array({kPages[i].size.width, kPages[i].size.height}));
    // Visualised per page: the input page, and boxes beside the text.
    const auto input = base64_decode(results[i]["inputImage"].get<std::string>());
    ASSERT_TRUE(input);
    EXPECT_EQ(cv::imdecode(std::vector<uchar>(input->begin(), input->end()), cv::IMREAD_COLOR).size(), kPages[i].size);
    EXPECT_FALSE(results[i]["ocrImage"].get<std::string>().empty());
    EXPECT_FALSE(results[i].contains("docPreprocessingImage"));
  }
  EXPECT_FALSE(res->has_header("X-Ocrforge-Pages-Dropped"));

  // The request's switches apply to every page.
  auto strict = post_ocr(c, pdf, 0, {{"textRecScoreThresh", 1.0}});
  ASSERT_EQ(strict->status, 200) << strict->body;
  for (const auto& page : json::parse(strict->body)["result"]["ocrResults"])
    EXPECT_TRUE(page["prunedResult"]["rec_texts"].empty()) << "no score reaches 1.0";
  // ... and are still range-checked.
  auto out_of_range = post_ocr(c, pdf, 0, {{"textDetThresh", 1.5}});
  EXPECT_EQ(out_of_range->status, 422);
  EXPECT_NE(error_of(out_of_range).find("textDetThresh"), std::string::npos) << out_of_range->body;
}

TEST(PaddlexDocuments, MultiPageTiffGivesEveryPage) {
  const std::string tiff = three_page_tiff(test::fresh_dir("serve_tiff"));
  test::TestServer s(test::test_options());
  auto c = s.client();
  auto res = post_ocr(c, tiff, 1);
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json r = json::parse(res->body);
  expect_pages_in_order(r["result"]["ocrResults"], 3);
  const json& info = r["result"]["dataInfo"];
  EXPECT_EQ(info["type"], "image");
  EXPECT_EQ(info["width"], 360);
  EXPECT_EQ(info["height"], 270);
  EXPECT_EQ(info["numPages"], 3);
  EXPECT_EQ(info["pages"][2], (json{{"width", 692}, {"height", 1024}}));
}

// PaddleX reads the first max_num_input_imgs pages of a PDF and drops the
// rest (numPages counts the pages read); so does ocrforge, and says so in a
// header.
TEST(PaddlexDocuments, PagesOverTheLimitAreDroppedAsPaddlexDoes) {
  if (!have_pdftoppm()) GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("serve_page_limit");
  const std::string pdf = three_page_pdf(dir), tiff = three_page_tiff(dir);
  ServeParams o = test::test_options();
  o.max_num_input_imgs = 2;
  test::TestServer s(o);
  auto c = s.client();
  for (const auto& [file, type] : {std::make_pair(pdf, 0), std::make_pair(tiff, 1)}) {
    auto res = post_ocr(c, file, type);
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const json r = json::parse(res->body);
    expect_pages_in_order(r["result"]["ocrResults"], 2);
    EXPECT_EQ(r["result"]["dataInfo"]["numPages"], 2);
    EXPECT_EQ(r["result"]["dataInfo"]["pages"].size(), 2u);
    EXPECT_NE(res->get_header_value("X-Ocrforge-Pages-Dropped").find("the first 2 were read"), std::string::npos);
  }
}

TEST(PaddlexDocuments, BrokenOrMistypedDocumentsGetAClearError) {
  if (!have_pdftoppm()) GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("serve_bad_pdf");
  const std::string pdf = three_page_pdf(dir);
  const std::string jpeg = test::read_text(sample_path("imgs_ger_1.jpg"));
  ServeParams o = test::test_options();
  o.max_image_pixels = 100000;  // page 1 (360 x 270) fits; page 2 (350 x 350) does not
  test::TestServer s(o);
  auto c = s.client();

  auto garbage = post_ocr(c, "%PDF-1.7\n" + std::string(3000, 'x'), 0);
  ASSERT_TRUE(garbage);
  EXPECT_EQ(garbage->status, 400) << garbage->body;
  EXPECT_NE(error_of(garbage).find("PDF 'file'"), std::string::npos) << garbage->body;
  EXPECT_EQ(error_of(garbage).find("/tmp"), std::string::npos) << "the spooled copy is not named: " << garbage->body;

  auto cut = post_ocr(c, pdf.substr(0, 200), 0);
  EXPECT_GE(cut->status, 400);
  EXPECT_LT(cut->status, 500) << cut->body;
  EXPECT_NE(error_of(cut).find("PDF 'file'"), std::string::npos) << cut->body;

  auto not_pdf = post_ocr(c, jpeg, 0);
  EXPECT_EQ(not_pdf->status, 422);
  EXPECT_NE(error_of(not_pdf).find("fileType is 0 (PDF) but file is no PDF"), std::string::npos) << not_pdf->body;
  auto pdf_as_image = post_ocr(c, pdf, 1);
  EXPECT_EQ(pdf_as_image->status, 422);
  EXPECT_NE(error_of(pdf_as_image).find("send fileType 0 for PDFs"), std::string::npos) << pdf_as_image->body;

  // Each page is rendered under the pixel budget: page 2 is refused.
  auto big_page = post_ocr(c, pdf, 0);
  EXPECT_EQ(big_page->status, 413) << big_page->body;
  EXPECT_NE(error_of(big_page).find("page 2"), std::string::npos) << big_page->body;

  // A PDF larger than the body limit is refused from its headers, as before.
  ServeParams small = test::test_options();
  small.max_body_bytes = 4096;
  test::TestServer tight(small);
  auto tc = tight.client();
  auto too_big = post_ocr(tc, pdf, 0);
  EXPECT_EQ(too_big->status, 413);
  EXPECT_NE(error_of(too_big).find("--max_body_mb"), std::string::npos) << too_big->body;
}

// PaddleHub's ocr_system decodes each entry with cv2.imdecode: images only.
// A PDF, or a TIFF of several pages (cv2 would read page 1 and drop the
// rest), is refused naming POST /ocr; so does /v1/ocr.
TEST(PaddlexDocuments, ImageOnlyRoutesRefuseDocumentsNamingOcr) {
  if (!have_pdftoppm()) GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("serve_hub_docs");
  const std::string pdf = three_page_pdf(dir), tiff = three_page_tiff(dir);
  test::TestServer s(test::test_options());
  auto c = s.client();
  const json hub_pdf = {{"images", {base64_encode(pdf)}}};
  auto r1 = c.Post("/predict/ocr_system", hub_pdf.dump(), "application/json");
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->status, 415) << r1->body;
  EXPECT_EQ(json::parse(r1->body)["status"], "101");
  EXPECT_NE(error_of(r1).find("images[0] is a PDF"), std::string::npos) << r1->body;
  EXPECT_NE(error_of(r1).find("POST /ocr"), std::string::npos) << r1->body;
  const json hub_tiff = {{"images", {base64_encode(test::read_text(sample_path("imgs_ger_1.jpg"))), base64_encode(tiff)}}};
  auto r2 = c.Post("/predict/ocr_system", hub_tiff.dump(), "application/json");
  EXPECT_EQ(r2->status, 400) << r2->body;
  EXPECT_NE(error_of(r2).find("images[1] is a TIFF of 3 pages"), std::string::npos) << r2->body;
  auto r3 = c.Post("/v1/ocr", pdf, "application/pdf");
  EXPECT_EQ(r3->status, 415) << r3->body;
  EXPECT_NE(error_of(r3).find("POST /ocr"), std::string::npos) << r3->body;
  // A TIFF of one page is an image.
  std::vector<uchar> one;
  ASSERT_TRUE(cv::imencode(".tif", cv::imread(sample_path("imgs_ger_1.jpg")), one));
  const json hub_one = {{"images", {base64_encode(std::string(one.begin(), one.end()))}}};
  auto r4 = c.Post("/predict/ocr_system", hub_one.dump(), "application/json");
  ASSERT_EQ(r4->status, 200) << r4->body;
  EXPECT_EQ(json::parse(r4->body)["results"][0][0]["text"], "EPPING");
}

// useTextlineOrientation: the text-line classifier on or off for one
// request; null: the server's --use_angle_cls.
TEST(PaddlexDocuments, TextlineOrientationSwitchesTheClassifierPerRequest) {
  test::TestServer s(test::test_options(), true, /*cls=*/true);
  auto c = s.client();
  const std::string img = test::read_text(sample_path("imgs_ger_1.jpg"));
  const auto settings_of = [&](json extra) {
    auto r = post_ocr(c, img, 1, extra);
    EXPECT_EQ(r->status, 200) << r->body;
    return json::parse(r->body)["result"]["ocrResults"][0]["prunedResult"];
  };
  for (const json& unset : {json::object(), json{{"useTextlineOrientation", nullptr}}}) {
    const json on = settings_of(unset);
    EXPECT_EQ(on["model_settings"]["use_textline_orientation"], true);
    for (const auto& angle : on["textline_orientation_angles"]) EXPECT_NE(angle, -1) << "classified";
  }
  const json off = settings_of({{"useTextlineOrientation", false}});
  EXPECT_EQ(off["model_settings"]["use_textline_orientation"], false);
  ASSERT_FALSE(off["textline_orientation_angles"].empty());
  for (const auto& angle : off["textline_orientation_angles"]) EXPECT_EQ(angle, -1) << "not classified";
  EXPECT_EQ(off["rec_texts"][0], "EPPING");
}
