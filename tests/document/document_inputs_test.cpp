// The document-input layer every front end reads through: files, bytes in
// memory and arrays give the same pages, under the same pixel budget.
#include "ocrforge/document/document_inputs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <opencv2/imgcodecs.hpp>

#include "document_test_support.h"
#include "ocrforge/core/error.h"
#include "ocrforge/document/pdf_image.h"
#include "ocrforge/document/pdf_writer.h"

using namespace ocrforge;
namespace fs = std::filesystem;

namespace {

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string receipt_pdf(const std::string& dir, int pages) { return test::receipt_pdf(dir + "/three.pdf", pages); }

size_t spooled_files() {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
    if (e.path().filename().string().rfind("ocrforge-document-", 0) == 0) ++n;
  return n;
}

}  // namespace

TEST(DocumentInputs, PdfBytesGiveThePagesOfTheFileNamedAsTheCallerSays) {
  if (!test::have("pdftoppm")) GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("inputs_pdf_bytes");
  const std::string pdf = receipt_pdf(dir, 3);
  const size_t before = spooled_files();
  {
    DocumentReadParams p;
    p.pdf_dpi = 100;
    DocumentInputs from_file(p), from_bytes(p);
    const auto file_items = from_file.expand_file(pdf);
    const auto items = from_bytes.expand_bytes("upload", bytes_of(pdf));
    ASSERT_EQ(items.size(), 3u);
    ASSERT_EQ(file_items.size(), 3u);
    EXPECT_EQ(items[1].key, "'upload' page 2");
    EXPECT_EQ(spooled_files(), before + 1);
    const cv::Mat a = from_file.decode(file_items[2].key).bgr, b = from_bytes.decode(items[2].key).bgr;
    ASSERT_EQ(a.size(), cv::Size(700, 933));
    EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0.0);
  }
  EXPECT_EQ(spooled_files(), before) << "the spooled copy outlived its DocumentInputs";
}

TEST(DocumentInputs, PageSelectionAndCapsApplyToBytesAsToFiles) {
  if (!test::have("pdftoppm")) GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("inputs_pdf_caps");
  const std::string bytes = bytes_of(receipt_pdf(dir, 3));
  DocumentReadParams p;
  p.page_num = 2;
  DocumentInputs first_two(p);
  EXPECT_EQ(first_two.expand_bytes("doc", bytes).size(), 2u);
  p.page_num = 0;
  p.max_pages = 2;
  DocumentInputs capped(p);
  const std::string msg = test::message_of<Error>([&] { capped.expand_bytes("doc.pdf", bytes); });
  EXPECT_NE(msg.find("'doc.pdf' has 3 pages to read, more than --max_pages 2"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("ocrforge-document-"), std::string::npos) << "names the temporary copy: " << msg;
}

TEST(DocumentInputs, TiffBytesGiveEveryPage) {
  const std::string dir = test::fresh_dir("inputs_tiff_bytes");
  std::vector<cv::Mat> pages = {cv::Mat(40, 60, CV_8UC3, cv::Scalar(10, 20, 30)),
                                cv::Mat(50, 70, CV_8UC3, cv::Scalar(200, 100, 0))};
  ASSERT_TRUE(cv::imwritemulti(dir + "/two.tif", pages));
  DocumentInputs in({});
  const auto items = in.expand_bytes("fax", bytes_of(dir + "/two.tif"));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(in.decode(items[1].key).bgr.size(), cv::Size(70, 50));
}

TEST(DocumentInputs, ImageBytesAreCheckedAgainstTheBudgetBeforeTheyWait) {
  const std::string jpg = bytes_of(test::data_dir() + "/samples/imgs_en_254.jpg");
  DocumentReadParams p;
  p.read.max_pixels = 1000;
  DocumentInputs small(p);
  EXPECT_THROW(small.expand_bytes("photo", jpg), ImageTooLargeError);
  DocumentInputs in({});
  const auto items = in.expand_bytes("photo", jpg);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(in.decode("photo").bgr.size(), cv::Size(700, 933));
  EXPECT_THROW(in.expand_bytes("nothing", ""), Error);
  EXPECT_THROW(in.expand_bytes("junk", std::string(100, 'x')), Error);
}

TEST(DocumentInputs, ArraysArePagesInBgr) {
  DocumentReadParams p;
  p.read.max_pixels = 100 * 100;
  DocumentInputs in(p);
  const InputItem grey = in.add_array("grey", cv::Mat(20, 30, CV_8UC1, cv::Scalar(7)));
  const cv::Mat bgr = in.decode(grey.key).bgr;
  EXPECT_EQ(bgr.type(), CV_8UC3);
  EXPECT_EQ(bgr.at<cv::Vec3b>(0, 0), cv::Vec3b(7, 7, 7));
  EXPECT_THROW(in.add_array("big", cv::Mat(200, 200, CV_8UC3)), Error);
  EXPECT_THROW(in.add_array("float", cv::Mat(20, 20, CV_32FC1)), Error);
}
