// End-to-end: `ocrforge ocr` on input from outside (issue 29's classes):
// photos in every EXIF orientation, --save_label naming an input, control
// characters in file names, absurd thread counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <nlohmann/json.hpp>

#include "apps/ocr_cli_support.h"
#include "exif_jpeg.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;
using test::lines_of;
using test::ocr;

// `name<TAB>JSON` lines keyed by name.
static std::map<std::string, nlohmann::json> json_lines(const std::string& path) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& l : lines_of(test::read_text(path)))
    out[l.substr(0, l.find('\t'))] = nlohmann::json::parse(l.substr(l.find('\t') + 1));
  return out;
}

static std::vector<cv::Point> polygon_of(const nlohmann::json& points) {
  std::vector<cv::Point> p;
  for (const auto& q : points) p.emplace_back(q[0].get<int>(), q[1].get<int>());
  return p;
}

// Whether `boxes` sit on the text of `as_read` (dark ink on white): each box
// covers some ink, and together they cover nearly all of it.
static void expect_boxes_on_the_ink(const cv::Mat& as_read, const std::vector<std::vector<cv::Point>>& boxes,
                                    const std::string& what) {
  cv::Mat grey, ink, covered = cv::Mat::zeros(as_read.size(), CV_8UC1);
  cv::cvtColor(as_read, grey, cv::COLOR_BGR2GRAY);
  cv::threshold(grey, ink, 100, 255, cv::THRESH_BINARY_INV);
  ASSERT_GE(boxes.size(), 2u) << what << ": both lines must be found";
  for (const auto& box : boxes) {
    cv::Mat one = cv::Mat::zeros(as_read.size(), CV_8UC1);
    cv::fillPoly(one, std::vector<std::vector<cv::Point>>{box}, cv::Scalar(255));
    cv::fillPoly(covered, std::vector<std::vector<cv::Point>>{box}, cv::Scalar(255));
    const double inside = cv::countNonZero(one), inked = cv::countNonZero(one & ink);
    EXPECT_GT(inked, 0.08 * inside) << what << ": a box on no text, at " << cv::boundingRect(box);
  }
  const double all_ink = cv::countNonZero(ink), ink_covered = cv::countNonZero(ink & covered);
  EXPECT_GT(ink_covered, 0.9 * all_ink) << what << ": text outside every box";
}

// A portrait phone photo stored in each of the 8 EXIF orientations: read as
// cv2.imread reads it (upright), every output's boxes sit on its text, and
// image_size is the upright size (before: orientations 5-8 scaled every
// coordinate by 360/480 and reported 360 x 270).
TEST(OcrCli, RotatedPhotosGetBoxesOnTheTextOfTheImageAsRead) {
  const std::string dir = test::fresh_dir("cli_exif");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  cv::Mat upright(480, 360, CV_8UC3, cv::Scalar(255, 255, 255));
  cv::putText(upright, "HELLO", cv::Point(30, 110), cv::FONT_HERSHEY_SIMPLEX, 1.6, cv::Scalar(0, 0, 0), 3);
  cv::putText(upright, "WORLD 42", cv::Point(120, 400), cv::FONT_HERSHEY_SIMPLEX, 1.2, cv::Scalar(0, 0, 0), 3);
  for (int o = 1; o <= 8; ++o)
    test::write_text(in + "/o" + std::to_string(o) + ".jpg", test::jpeg_with_orientation(upright, o));
  auto r = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out --save_label " + dir + "/Label.txt", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto d = test::run_command(test::binary() + " infer det --cpu_threads 2 --image_dir " + in +
                                 " --draw_img_save_dir " + dir + "/det",
                             dir);
  ASSERT_EQ(d.exit_code, 0) << d.err;
  auto system_results = json_lines(dir + "/out/system_results.txt");
  auto labels = json_lines(dir + "/Label.txt");
  auto det_results = json_lines(dir + "/det/det_results.txt");
  for (int o = 1; o <= 8; ++o) {
    const std::string name = "o" + std::to_string(o) + ".jpg";
    SCOPED_TRACE(name);
    const cv::Mat as_read = cv::imread(in + "/" + name);  // applies EXIF, as cv2.imread
    ASSERT_EQ(as_read.size(), upright.size());
    std::vector<std::vector<cv::Point>> sys, label, det, res;
    for (const auto& e : system_results[name]) sys.push_back(polygon_of(e["points"]));
    std::string label_key;
    for (const auto& [k, v] : labels)
      if (fs::path(k).filename() == name) label_key = k;
    for (const auto& e : labels[label_key]) label.push_back(polygon_of(e["points"]));
    for (const auto& p : det_results[name]) det.push_back(polygon_of(p));
    const auto json = nlohmann::json::parse(test::read_text(dir + "/out/o" + std::to_string(o) + "_res.json"))["res"];
    for (const auto& p : json["dt_polys"]) res.push_back(polygon_of(p));
    EXPECT_EQ(json["image_size"][0].get<int>(), as_read.cols);
    EXPECT_EQ(json["image_size"][1].get<int>(), as_read.rows);
    expect_boxes_on_the_ink(as_read, sys, "system_results.txt");
    expect_boxes_on_the_ink(as_read, label, "--save_label");
    expect_boxes_on_the_ink(as_read, det, "det_results.txt");
    expect_boxes_on_the_ink(as_read, res, "_res.json dt_polys");
  }
}

// --save_label naming an input image used to replace the photo with the
// label text (exit 0); a label file with an image's extension inside
// --image_dir would be read as an image by the next run.
TEST(OcrCli, SaveLabelNeverReplacesOrBecomesAnInput) {
  const std::string dir = test::fresh_dir("cli_label_input");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/a.jpg");
  const std::string photo = test::read_text(in + "/a.jpg");
  auto r = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out --save_label " + in + "/a.jpg", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--save_label: '" + in + "/a.jpg' is the input image"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(in + "/a.jpg"), photo);
  r = ocr("--image_dir " + in + "/a.jpg --draw_img_save_dir " + dir + "/out --save_label " + in + "/./a.jpg", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(test::read_text(in + "/a.jpg"), photo);
  r = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out --save_label " + in + "/Label.png", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("name it .txt"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(in + "/Label.png"));
  // PPOCRLabel's own layout, Label.txt beside the images, stays allowed.
  r = ocr("--image_dir " + in + " --draw_img_save_dir " + dir + "/out --save_label " + in + "/Label.txt", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(test::read_text(in + "/Label.txt")).size(), 1u);
}

// A newline in an image's file name used to split its system_results.txt
// line in two (exit 0); escape sequences in a name reached the terminal.
TEST(OcrCli, ControlCharactersInNamesNeverReachLinesOrTheTerminal) {
  const std::string dir = test::fresh_dir("cli_ctrl_name");
  const std::string in = dir + "/in";
  fs::create_directories(in);
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/a\nb.jpg");
  fs::copy_file(test::data_dir() + "/samples/imgs_ger_1.jpg", in + "/c.jpg");
  test::write_text(in + "/\x1b]0;pwned\x07.jpg", "not an image");
  auto r = ocr("--image_dir '" + in + "' --draw_img_save_dir " + dir + "/out", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("image name 'a\\nb.jpg' holds a control character (\\n)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\\x1b]0;pwned\\x07.jpg"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "a raw escape reached stderr";
  const auto sys = lines_of(test::read_text(dir + "/out/system_results.txt"));
  ASSERT_EQ(sys.size(), 1u);
  EXPECT_EQ(sys[0].substr(0, sys[0].find('\t')), "c.jpg");
  EXPECT_FALSE(fs::exists(dir + "/out/a\nb_res.json")) << "no file of a refused image";
}

// --cpu_threads 100000 used to hang with gigabytes of thread stacks; now it
// is capped at the machine's CPUs with a warning (a memory limit keeps a
// regression from taking the machine down).
TEST(OcrCli, AHugeThreadCountIsCappedWithAWarning) {
  const std::string dir = test::fresh_dir("cli_threads");
  auto r = test::run_command("ulimit -v 4000000; timeout 120 " + test::binary() +
                                 " ocr --cpu_threads 100000 --rec_workers 100000 --image_dir " + test::data_dir() +
                                 "/samples/imgs_ger_1.jpg --draw_img_save_dir " + dir + "/out",
                             dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --cpu_threads=100000 is more than the"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: --rec_workers=100000"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("EPPING"), std::string::npos) << r.out;
}
