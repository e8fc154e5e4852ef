#include "ocrforge/train/tasks/rec/rec_model.h"

#include "ocrforge/core/text.h"

namespace ocrforge {

RecModelImpl::RecModelImpl(const RecArchSpec& spec) : spec_(spec) {
  validate_rec_arch(spec_);
  backbone_ = register_module("backbone", make_rec_backbone(spec_.backbone));
  neck_ = register_module("neck", SequenceEncoder(backbone_->out_channels(), spec_.neck));
  head_ = register_module("head", CTCHead(neck_->out_channels(), spec_.head));
  if (spec_.sar) sar_head_ = register_module("sar_head", SARHead(backbone_->out_channels(), *spec_.sar));
  if (spec_.nrtr) {
    before_gtc_ = register_module("before_gtc", NrtrTokens(backbone_->out_channels(), *spec_.nrtr));
    gtc_head_ = register_module("gtc_head", NrtrTransformer(*spec_.nrtr));
  }
}

int64_t RecModelImpl::guide_branch_parameters() const {
  if (sar_head_) return count_parameters(*sar_head_);
  if (gtc_head_) return count_parameters(*before_gtc_) + count_parameters(*gtc_head_);
  return 0;
}

void RecModelImpl::set_channels_last(bool on) {
  torch::NoGradGuard no_grad;
  const auto format = on ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous;
  for (auto& p : parameters())
    if (p.dim() == 4) p.set_data(p.data().contiguous(format));
  channels_last_ = on;
}

torch::Tensor RecModelImpl::in_format(const torch::Tensor& x) const {
  return channels_last_ && x.dim() == 4 ? x.contiguous(at::MemoryFormat::ChannelsLast) : x;
}

torch::Tensor RecModelImpl::head_input(const torch::Tensor& features) const {
  if (!spec_.head_pool) return features;
  const std::vector<int64_t> k = multi_head_pool_kernel();
  return torch::avg_pool2d(features, k, k);
}

RecForward RecModelImpl::forward_all(torch::Tensor x, const SarTargets* sar, const NrtrTargets* nrtr) {
  RecForward out;
  out.backbone_out = backbone_->forward(in_format(x));
  const torch::Tensor feat = head_input(out.backbone_out);
  out.neck_out = neck_(feat);  // use_guide detaches its input inside: the backbone learns through SAR / NRTR
  out.logits = head_(out.neck_out);
  if (sar && sar_head_) out.sar_logits = sar_head_(feat, sar->label_sar, sar->valid_ratio);
  if (nrtr && gtc_head_) out.nrtr_logits = gtc_head_(before_gtc_(feat), nrtr->label_gtc, nrtr->length);
  return out;
}

torch::Tensor RecModelImpl::forward(torch::Tensor x) {
  return head_(neck_(head_input(backbone_->forward(in_format(x)))));
}

torch::Tensor RecModelImpl::predict(torch::Tensor x) { return torch::softmax(forward(x), 2); }

std::optional<float> RecModelImpl::pinned_l2_decay(const std::string& name) const {
  if (starts_with(name, "head.")) return spec_.head.fc_decay;
  if (spec_.neck.encoder_type == "fc" && starts_with(name, "neck.encoder.fc.")) return 1e-5f;
  if (spec_.backbone.name == "MobileNetV1Enhance" && starts_with(name, "backbone.") &&
      name.find("._batch_norm.") != std::string::npos)
    return 0.0f;
  // PPLCNetV3's ConvBNLayer BNs (the stem and every conv branch; not the
  // identity BN) and every ConvBNAct BN of PPHGNet_small / PPHGNetV2_B4.
  const std::string& b = spec_.backbone.name;
  if ((b == "PPLCNetV3" || b == "PPHGNet_small" || b == "PPHGNetV2_B4") && starts_with(name, "backbone.") &&
      name.find(".bn.") != std::string::npos)
    return 0.0f;
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> RecModelImpl::paddle_prefixes() const {
  if (!spec_.multi_head) return {};
  // PaddleOCR's MultiHead (rec_multi_head.py) owns every branch as an attribute of the head.
  return {{"neck.", "head.ctc_encoder."},
          {"head.", "head.ctc_head."},
          {"sar_head.", "head.sar_head."},
          {"before_gtc.", "head.before_gtc."},
          {"gtc_head.", "head.gtc_head."}};
}

int64_t count_parameters(const torch::nn::Module& module) {
  int64_t n = 0;
  for (const auto& p : module.parameters(/*recurse=*/true)) n += p.numel();
  return n;
}

bool is_no_decay_param(const torch::Tensor& param) { return param.dim() <= 1; }

}  // namespace ocrforge
