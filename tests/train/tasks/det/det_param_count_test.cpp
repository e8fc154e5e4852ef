// Parameter counts of the DB detectors, pinned. The values come from an
// independent count over PaddleOCR's layer definitions (det_mobilenet_v3.py,
// det_resnet_vd.py, db_fpn.py, det_db_head.py: conv weights and biases,
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

TEST(DetParamCount, SmallScale035) {  // the scale where float arithmetic used to lose channels
  auto s = arch("MobileNetV3", "DBFPN", 96);
  s.backbone.model_name = "small";
  s.backbone.scale = 0.35;
  EXPECT_EQ(count(s, "MobileNetV3 small x0.35 + DBFPN 96").total, 280684);
}
