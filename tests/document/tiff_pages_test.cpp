// Multi-page TIFF: pages from the header, one decoded at a time, and a
// giant page refused before decoding.
#include "ocrforge/document/tiff_pages.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "document_test_support.h"
#include "ocrforge/core/error.h"

using namespace ocrforge;

namespace {

// A little-endian TIFF with one IFD claiming width x height, 8-bit grey,
// whose strip offset points at a few bytes: a "TIFF bomb" header.
std::string bomb(uint32_t width, uint32_t height) {
  std::string t = std::string("II*\0", 4);
  const auto u16 = [&](uint32_t v) { t += static_cast<char>(v & 0xFF); t += static_cast<char>((v >> 8) & 0xFF); };
  const auto u32 = [&](uint32_t v) { u16(v & 0xFFFF); u16(v >> 16); };
  u32(8);
  const uint32_t entries[][4] = {{256, 4, 1, width}, {257, 4, 1, height}, {258, 3, 1, 8}, {259, 3, 1, 1},
                                 {262, 3, 1, 1},     {273, 4, 1, 200},    {277, 3, 1, 1}, {278, 4, 1, height},
                                 {279, 4, 1, 16}};
  u16(9);
  for (const auto& e : entries) {
    u16(e[0]);
    u16(e[1]);
    u32(e[2]);
    if (e[1] == 3) {
      u16(e[3]);
      u16(0);
    } else {
      u32(e[3]);
    }
  }
  u32(0);
  t.resize(216, '\0');
  return t;
}

}  // namespace

TEST(TiffPages, PagesSizesResolutionAndOnePageAtATime) {
  const std::string dir = test::fresh_dir("tiff_pages");
  std::vector<cv::Mat> pages = {cv::Mat(30, 40, CV_8UC3, cv::Scalar(255, 0, 0)),
                                cv::Mat(50, 20, CV_8UC3, cv::Scalar(0, 255, 0)),
                                cv::Mat(10, 10, CV_8UC3, cv::Scalar(0, 0, 255))};
  const std::vector<int> params = {cv::IMWRITE_TIFF_RESUNIT, 2, cv::IMWRITE_TIFF_XDPI, 150, cv::IMWRITE_TIFF_YDPI, 150};
  ASSERT_TRUE(cv::imwritemulti(dir + "/three.tif", pages, params));
  EXPECT_TRUE(looks_like_tiff(dir + "/three.tif"));
  const auto info = tiff_pages(dir + "/three.tif", 100);
  ASSERT_EQ(info.size(), 3u);
  EXPECT_EQ(info[1].width, 20);
  EXPECT_EQ(info[1].height, 50);
  EXPECT_NEAR(info[0].dpi_x, 150, 0.01);
  const cv::Mat second = read_tiff_page(dir + "/three.tif", 1, info[1], 0);
  ASSERT_EQ(second.size(), cv::Size(20, 50));
  EXPECT_EQ(second.at<cv::Vec3b>(0, 0), cv::Vec3b(0, 255, 0));
  // Reading stops one page past the cap.
  EXPECT_EQ(tiff_pages(dir + "/three.tif", 1).size(), 2u);
}

TEST(TiffPages, BombIsRefusedBeforeDecoding) {
  const std::string dir = test::fresh_dir("tiff_bomb");
  test::write_text(dir + "/bomb.tif", bomb(100000, 100000));
  const auto info = tiff_pages(dir + "/bomb.tif", 10);
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0].width, 100000);
  try {
    read_tiff_page(dir + "/bomb.tif", 0, info[0], 50'000'000);
    ADD_FAILURE() << "the bomb was decoded";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(dir + "/bomb.tif"), std::string::npos) << m;
    EXPECT_NE(m.find("--max_image_pixels"), std::string::npos) << m;
    EXPECT_NE(m.find("100000 x 100000"), std::string::npos) << m;
  }
}

TEST(TiffPages, DamagedHeadersAreErrors) {
  const std::string dir = test::fresh_dir("tiff_damaged");
  std::string loop = bomb(10, 10);
  loop[8 + 2 + 9 * 12] = 8;  // next IFD: itself
  test::write_text(dir + "/loop.tif", loop);
  test::write_text(dir + "/short.tif", std::string("II*\0\x40\0\0\0", 8));
  test::write_text(dir + "/text.tif", "not a tiff");
  for (const char* name : {"/loop.tif", "/short.tif", "/text.tif"}) {
    try {
      tiff_pages(dir + name, 10);
      ADD_FAILURE() << name << " was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(dir + name), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(looks_like_tiff(dir + "/text.tif"));
}

// Pages are read from a file kept open between calls (one directory step per
// page in order, not a walk from page 1): every order, and a switch to
// another file and back, still gives each page's own pixels.
TEST(TiffPages, PagesReadInAnyOrderAndAcrossFilesAreTheirOwn) {
  const std::string dir = test::fresh_dir("tiff_page_order");
  std::vector<cv::Mat> a, b;
  for (int i = 0; i < 5; ++i) {
    a.emplace_back(12 + i, 20, CV_8UC3, cv::Scalar(10 * i, 20, 30));
    b.emplace_back(8, 9 + i, CV_8UC3, cv::Scalar(200, 10 * i, 5));
  }
  ASSERT_TRUE(cv::imwritemulti(dir + "/a.tif", a));
  ASSERT_TRUE(cv::imwritemulti(dir + "/b.tif", b));
  const auto pa = tiff_pages(dir + "/a.tif", 100), pb = tiff_pages(dir + "/b.tif", 100);
  ASSERT_EQ(pa.size(), 5u);
  ASSERT_EQ(pb.size(), 5u);
  const auto same = [](const cv::Mat& x, const cv::Mat& y) {
    return x.size() == y.size() && cv::norm(x, y, cv::NORM_INF) == 0.0;
  };
  for (int i : {0, 1, 2, 3, 4, 2, 0, 4, 3}) {
    EXPECT_TRUE(same(read_tiff_page(dir + "/a.tif", i, pa[static_cast<size_t>(i)], 0), a[static_cast<size_t>(i)]))
        << "a page " << i;
    EXPECT_TRUE(same(read_tiff_page(dir + "/b.tif", 4 - i, pb[static_cast<size_t>(4 - i)], 0), b[static_cast<size_t>(4 - i)]))
        << "b page " << 4 - i;
  }
  EXPECT_THROW(read_tiff_page(dir + "/a.tif", 7, pa[0], 0), Error);  // past the last page
  EXPECT_TRUE(same(read_tiff_page(dir + "/a.tif", 1, pa[1], 0), a[1]));
}

// Found by `make fuzz` (tiff_pages): the file kept open between pages was
// reused for another file at the same path (a rewritten file, or a
// /proc/self/fd name given to the next input), and that file's page - not
// the one checked against the pixel budget - was decoded (3 GB). The open
// file is now reused only while the path names the same file, and the
// budget is checked again on the directory being decoded.
TEST(TiffPages, AFileRewrittenAtTheSamePathIsReadAfresh) {
  const std::string dir = test::fresh_dir("tiff_rewritten");
  const std::string path = dir + "/doc.tif";
  const cv::Mat small(10, 12, CV_8UC3, cv::Scalar(1, 2, 3));
  ASSERT_TRUE(cv::imwritemulti(path, std::vector<cv::Mat>{small, small, small}));
  const auto first = tiff_pages(path, 10);
  ASSERT_EQ(read_tiff_page(path, 1, first[1], 0).size(), small.size());
  const cv::Mat big(300, 400, CV_8UC3, cv::Scalar(9, 8, 7));
  ASSERT_TRUE(cv::imwritemulti(path, std::vector<cv::Mat>{big, big, big}));
  const auto second = tiff_pages(path, 10);
  const cv::Mat page = read_tiff_page(path, 2, second[2], 0);
  ASSERT_EQ(page.size(), big.size());
  EXPECT_EQ(cv::norm(page, big, cv::NORM_INF), 0.0);
  // A stale size given for the page does not widen the budget.
  EXPECT_THROW(read_tiff_page(path, 1, first[1], 12 * 10), Error);
}
