#include "ocrforge/train/tasks/det/det_neck.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_db_fpn.h"
#include "ocrforge/train/tasks/det/det_lkpan.h"
#include "ocrforge/train/tasks/det/det_rse_fpn.h"

namespace ocrforge {

std::shared_ptr<DetNeckImpl> make_det_neck(const DetNeckSpec& spec, const std::vector<int64_t>& in_channels) {
  if (in_channels.size() != 4)
    throw Error("detection neck: the backbone gives " + std::to_string(in_channels.size()) + " levels; DB needs 4");
  if (spec.name == "DBFPN") return std::make_shared<DBFPNImpl>(in_channels, spec.out_channels);
  if (spec.name == "RSEFPN") return std::make_shared<RSEFPNImpl>(in_channels, spec.out_channels, spec.shortcut);
  if (spec.name == "LKPAN")
    return std::make_shared<LKPANImpl>(in_channels, spec.out_channels, spec.mode, spec.intracl);
  throw UsageError("Architecture.Neck.name: unknown neck '" + spec.name + "' (known: DBFPN, RSEFPN, LKPAN)");
}

namespace det_fpn {

torch::Tensor upsample(const torch::Tensor& x, int64_t factor) {
  namespace F = torch::nn::functional;
  const auto f = static_cast<double>(factor);
  return F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{f, f}).mode(torch::kNearest));
}

void check_levels(const std::vector<torch::Tensor>& c, const char* neck) {
  if (c.size() != 4) throw Error(std::string(neck) + ": expected 4 feature maps, got " + std::to_string(c.size()));
  for (size_t i = 1; i < c.size(); ++i)
    for (int d : {2, 3})
      if (c[i].size(d) * 2 != c[i - 1].size(d))
        throw Error(std::string(neck) + ": feature map " + std::to_string(i + 2) + " is " +
                    std::to_string(c[i].size(2)) + "x" + std::to_string(c[i].size(3)) + " but map " +
                    std::to_string(i + 1) + " is " + std::to_string(c[i - 1].size(2)) + "x" +
                    std::to_string(c[i - 1].size(3)) +
                    "; the input height and width must be multiples of 32 (DetResizeForTest / the crop size)");
}

std::vector<torch::Tensor> top_down(const std::vector<torch::Tensor>& in) {
  auto out4 = in[2] + upsample(in[3], 2);  // 1/16
  auto out3 = in[1] + upsample(out4, 2);   // 1/8
  auto out2 = in[0] + upsample(out3, 2);   // 1/4
  return {out2, out3, out4, in[3]};
}

}  // namespace det_fpn
}  // namespace ocrforge
