// Parameter counts of the DB detectors, pinned. The values come from an
// independent count over PaddleOCR's layer definitions (det_mobilenet_v3.py,
// det_resnet_vd.py, det_resnet.py, db_fpn.py, det_db_head.py: conv weights and biases,
// BatchNorm scale and shift; BN statistics are buffers, not counted). The
// ResNet_vd backbones agree with the published ImageNet sizes minus the
// classifier (ResNet50_vd 25.58M - 2.05M FC = 23.53M). Quoted in docs/models.md.
#include <gtest/gtest.h>

#include <iostream>

#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/rec/rec_model.h"  // count_parameters

using namespace ocrforge;

namespace {
struct Counts {
  int64_t backbone, neck, head, total;
};

Counts count(const DetArchSpec& s, const std::string& title) {
  DetModel m(s);
  Counts c{count_parameters(*m->backbone()), count_parameters(*m->neck()), count_parameters(*m->head()),
           count_parameters(*m)};
  std::cout << title << ": backbone " << c.backbone << " neck " << c.neck << " head " << c.head << " total "
            << c.total << "\n";
  return c;
}

DetArchSpec arch(const std::string& backbone, const std::string& neck, int out_channels) {
  DetArchSpec s;
  s.backbone.name = backbone;
  s.neck.name = neck;
  s.neck.out_channels = out_channels;
  return s;
}
}  // namespace

TEST(DetParamCount, DetMv3Db) {  // MobileNetV3 large x0.5 + DBFPN 256 + DBHead
  const auto c = count(arch("MobileNetV3", "DBFPN", 256), "det_mv3_db");
  EXPECT_EQ(c.backbone, 778022);
  EXPECT_EQ(c.neck, 737280);
  EXPECT_EQ(c.head, 328834);
  EXPECT_EQ(c.total, 1844136);
}

TEST(DetParamCount, PPOCRv3Student) {  // MobileNetV3 large x0.5 disable_se + RSEFPN 96
  auto s = arch("MobileNetV3", "RSEFPN", 96);
  s.backbone.disable_se = true;
  const auto c = count(s, "ch_PP-OCRv3_det_student");
  EXPECT_EQ(c.backbone, 398480);
  EXPECT_EQ(c.neck, 158424);
  EXPECT_EQ(c.head, 46514);
  EXPECT_EQ(c.total, 603418);
}

TEST(DetParamCount, ResNetVd) {
  auto s = arch("ResNet_vd", "DBFPN", 256);
  s.backbone.layers = 18;
  const auto c = count(s, "det_r18_vd_db");
  EXPECT_EQ(c.backbone, 11199968);
  EXPECT_EQ(c.neck, 835584);
  EXPECT_EQ(c.total, 12364386);
  s.backbone.layers = 50;
  EXPECT_EQ(count(s, "ResNet50_vd DB").backbone, 23527264);
}

// PaddleOCR's plain ResNet 50 (det_resnet.py; the ch_ppocr_server_v2_0_det
// TIPC config), counted term by term in det_resnet_test.cpp; same DBFPN and
// head as ResNet50_vd's.
TEST(DetParamCount, ResNet) {
  const auto c = count(arch("ResNet", "DBFPN", 256), "ch_ppocr_server_v2_0_det (ResNet 50)");
  EXPECT_EQ(c.backbone, 23508032);
  EXPECT_EQ(c.neck, 1572864);
  EXPECT_EQ(c.head, 328834);
  EXPECT_EQ(c.total, 25409730);
}

TEST(DetParamCount, SmallScale035) {  // the scale where float arithmetic used to lose channels
  auto s = arch("MobileNetV3", "DBFPN", 96);
  s.backbone.model_name = "small";
  s.backbone.scale = 0.35;
  EXPECT_EQ(count(s, "MobileNetV3 small x0.35 + DBFPN 96").total, 280684);
}

// PaddleOCR's server detectors: PPHGNet_small / PPHGNetV2_B4 det + LKPAN 256
// with IntraCL + PFHeadLocal large (the backbones are counted term by term in
// det_pphgnet_test.cpp / det_pphgnet_v2_test.cpp, the IntraCL block in
// det_intracl_test.cpp, the head in det_pf_head_local_test.cpp).
TEST(DetParamCount, PPOCRServerDetectors) {
  auto s = arch("PPHGNet_small", "LKPAN", 256);
  s.neck.intracl = true;
  s.head.name = "PFHeadLocal";
  s.head.mode = "large";
  // LKPAN on 256, 512, 768, 1024: ins 655,360 + inp 5,308,416 + pan_head
  // 110,592 + pan_lat 1,327,104 + 4 IntraCL blocks of 120,320.
  auto c = count(s, "PP-OCRv4_server_det");
  EXPECT_EQ(c.backbone, 20214720);
  EXPECT_EQ(c.neck, 7882752);
  EXPECT_EQ(c.head, 366467);  // DBHead 328,834 + LocalModule(64, 64) 37,633
  EXPECT_EQ(c.total, 28463939);
  // PPHGNetV2_B4's levels 128, 512, 1024, 2048: ins (128 + 512 + 1024 + 2048) * 256 = 950,272.
  s.backbone.name = "PPHGNetV2_B4";
  c = count(s, "PP-OCRv5_server_det");
  EXPECT_EQ(c.backbone, 17747680);  // with the unused last_conv (4,194,304), as PaddleOCR's state dict
  EXPECT_EQ(c.neck, 950272 + 5308416 + 110592 + 1327104 + 4 * 120320);
  EXPECT_EQ(c.total, 26291811);
}
