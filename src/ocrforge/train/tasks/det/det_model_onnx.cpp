#include "ocrforge/train/tasks/det/det_model_onnx.h"

#include <functional>

#include "ocrforge/core/error.h"
#include "ocrforge/train/export/module_emitters.h"
#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/export/pphgnet_emitter.h"
#include "ocrforge/train/export/pphgnet_v2_emitter.h"
#include "ocrforge/train/export/pplcnet_v3_emitter.h"
#include "ocrforge/train/tasks/det/det_db_fpn.h"
#include "ocrforge/train/tasks/det/det_lkpan.h"
#include "ocrforge/train/tasks/det/det_mobilenet_v3.h"
#include "ocrforge/train/tasks/det/det_pf_head_local.h"
#include "ocrforge/train/tasks/det/det_pphgnet.h"
#include "ocrforge/train/tasks/det/det_pphgnet_v2.h"
#include "ocrforge/train/tasks/det/det_pplcnet_v3.h"
#include "ocrforge/train/tasks/det/det_resnet.h"
#include "ocrforge/train/tasks/det/det_resnet_vd.h"
#include "ocrforge/train/tasks/det/det_rse_fpn.h"

namespace ocrforge {

namespace {

using torch::nn::Module;
using namespace export_blocks;

// --- backbones: the four stage outputs c2..c5 -----------------------------

std::vector<std::string> det_mobilenet_v3(OnnxEmitter& e, const std::string& x, const DetMobileNetV3Impl& m,
                                          const std::string& path) {
  std::string y = mv3_conv_bn(e, x, child<MV3ConvBNImpl>(m, "conv", path), path + ".conv");
  std::vector<std::string> outs;
  for (int s = 0; find_child(m, "stage" + std::to_string(s)); ++s) {
    const std::string sp = path + ".stage" + std::to_string(s);
    for (const auto& kv : child<torch::nn::SequentialImpl>(m, "stage" + std::to_string(s), path).named_children()) {
      const std::string bp = sp + "." + kv.key();
      if (const auto* unit = kv.value()->as<ResidualUnitImpl>()) {
        y = mv3_residual_unit(e, y, *unit, bp);
      } else if (const auto* conv = kv.value()->as<MV3ConvBNImpl>()) {
        y = mv3_conv_bn(e, y, *conv, bp);  // the last stage's closing 1x1 conv
      } else {
        throw Error("ONNX export: '" + bp + "' is a " + kv.value()->name() + ", not a MobileNetV3 block");
      }
    }
    outs.push_back(y);
  }
  return outs;
}

// The ResNet stem's 3x3 max pool, stride 2, padding 1.
std::string resnet_stem_pool(OnnxEmitter& e, const std::string& x, const std::string& path) {
  return e.node("MaxPool", {x},
                {{"kernel_shape", onnx_ints({3, 3})}, {"strides", onnx_ints({2, 2})}, {"pads", onnx_ints({1, 1, 1, 1})}},
                path + ".pool");
}

std::vector<std::string> det_resnet_vd(OnnxEmitter& e, const std::string& x, const DetResNetVdImpl& m,
                                       const std::string& path) {
  std::string y = x;
  for (const char* stem : {"conv1_1", "conv1_2", "conv1_3"})
    y = resnet_conv_bn(e, y, child<ResNetConvBNImpl>(m, stem, path), path + "." + stem);
  y = resnet_stem_pool(e, y, path);
  std::vector<std::string> outs;
  for (int s = 0; find_child(m, "bb_" + std::to_string(s) + "_0"); ++s) {
    for (int i = 0;; ++i) {
      const std::string name = "bb_" + std::to_string(s) + "_" + std::to_string(i);
      if (!find_child(m, name)) break;
      y = resnet_block(e, y, child<ResNetBlockImpl>(m, name, path), path + "." + name);
    }
    outs.push_back(y);
  }
  return outs;
}

// Plain ResNet (det_resnet.py): 7x7 stem conv, max pool, blocks res2a, ...
std::vector<std::string> det_resnet(OnnxEmitter& e, const std::string& x, const DetResNetImpl& m, int layers,
                                    const std::string& path) {
  std::string y = resnet_stem_pool(e, resnet_conv_bn(e, x, child<ResNetConvBNImpl>(m, "conv", path), path + ".conv"),
                                   path);
  std::vector<std::string> outs;
  for (int s = 0; find_child(m, DetResNetImpl::block_name(layers, s, 0)); ++s) {
    for (int i = 0;; ++i) {
      const std::string name = DetResNetImpl::block_name(layers, s, i);
      if (!find_child(m, name)) break;
      y = resnet_block(e, y, child<ResNetBlockImpl>(m, name, path), path + "." + name);
    }
    outs.push_back(y);
  }
  return outs;
}

// --- necks: c2..c5 -> the fused stride-4 map -------------------------------

// One level's lateral or output layer of DBFPN (a conv) or RSEFPN (an RSE layer).
using LevelLayer = std::function<std::string(const std::string& in, int level)>;

// The FPN both necks share: lateral layers, the top-down pass, output layers,
// upsampled to stride 4 and concatenated coarsest first (p5, p4, p3, p2).
std::string fpn(OnnxEmitter& e, const std::vector<std::string>& c, const LevelLayer& lateral, const LevelLayer& output,
                const std::string& path) {
  if (c.size() != 4)
    throw Error("ONNX export: '" + path + "' needs 4 backbone levels, the backbone gives " + std::to_string(c.size()));
  std::vector<std::string> in(4);
  for (int i = 0; i < 4; ++i) in[i] = lateral(c[i], i);
  std::vector<std::string> td(4);
  td[3] = in[3];
  for (int i = 2; i >= 0; --i) td[i] = e.node("Add", {in[i], emit_upsample_nearest(e, td[i + 1], 2, path + ".up")});
  std::vector<std::string> p;
  for (int i = 3; i >= 1; --i) p.push_back(emit_upsample_nearest(e, output(td[i], i), int64_t{1} << i, path + ".up"));
  p.push_back(output(td[0], 0));
  return e.node("Concat", p, {{"axis", onnx_int(1)}}, path);
}

std::string db_fpn(OnnxEmitter& e, const std::vector<std::string>& c, const DBFPNImpl& m, const std::string& path) {
  const auto conv = [&](const char* prefix) {
    return [&, prefix](const std::string& in, int level) {
      return plain_conv(e, in, m, prefix + std::to_string(level + 2) + "_conv", path);
    };
  };
  return fpn(e, c, conv("in"), conv("p"), path);
}

std::string rse_layer(OnnxEmitter& e, const std::string& x, const RSELayerImpl& m, const std::string& path) {
  const std::string y = plain_conv(e, x, m, "in_conv", path);
  const std::string s = se(e, y, child<MV3SEImpl>(m, "se_block", path), 0.2f, path + ".se_block");
  return m.shortcut() ? e.node("Add", {y, s}, {}, path) : s;
}

std::string rse_fpn(OnnxEmitter& e, const std::vector<std::string>& c, const RSEFPNImpl& m, const std::string& path) {
  const auto layer = [&](const char* list) {
    return [&, list](const std::string& in, int level) {
      const std::string lp = path + "." + list;
      const auto& layers = child<torch::nn::ModuleListImpl>(m, list, path);
      return rse_layer(e, in, child<RSELayerImpl>(layers, std::to_string(level), lp), lp + "." + std::to_string(level));
    };
  };
  return fpn(e, c, layer("ins_conv"), layer("inp_conv"), path);
}

// DSConv: depthwise conv + BN, 1x1 + BN + ReLU, 1x1 [+ 1x1 shortcut of the input].
std::string ds_conv(OnnxEmitter& e, const std::string& x, const DSConvImpl& m, const std::string& path) {
  std::string y = conv_bn(e, x, m, "conv1", "bn1", path);
  y = e.node("Relu", {conv_bn(e, y, m, "conv2", "bn2", path)});
  y = plain_conv(e, y, m, "conv3", path);
  return m.has_shortcut() ? e.node("Add", {y, plain_conv(e, x, m, "conv_end", path)}, {}, path) : y;
}

// IntraCLBlock: reduce, three stages of (square + vertical + horizontal)
// convs, return conv with bn folded, ReLU, plus the input.
std::string intracl(OnnxEmitter& e, const std::string& x, const IntraCLBlockImpl& m, const std::string& path) {
  std::string y = plain_conv(e, x, m, "conv1x1_reduce_channel", path);
  for (const int k : {7, 5, 3}) {
    const std::string n = std::to_string(k);
    const std::string sum = e.node("Add", {plain_conv(e, y, m, "c_layer_" + n + "x" + n, path),
                                           plain_conv(e, y, m, "v_layer_" + n + "x1", path)});
    y = e.node("Add", {sum, plain_conv(e, y, m, "q_layer_1x" + n, path)});
  }
  y = e.node("Relu", {conv_bn(e, y, m, "conv1x1_return_channel", "bn", path)});
  return e.node("Add", {x, y}, {}, path);
}

std::string lkpan(OnnxEmitter& e, const std::vector<std::string>& c, const LKPANImpl& m, const std::string& path) {
  if (c.size() != 4)
    throw Error("ONNX export: '" + path + "' needs 4 backbone levels, the backbone gives " + std::to_string(c.size()));
  // Entry i of the ModuleList `list`: a conv (initializers neck.<list>.<i>.weight) ...
  const auto conv = [&](const std::string& x, const char* list, int i) {
    return plain_conv(e, x, child<torch::nn::ModuleListImpl>(m, list, path), std::to_string(i), path + "." + list);
  };
  // ... or a 9x9 layer: a plain conv (large) or a DSConv (lite).
  const auto large = [&](const std::string& x, const char* list, int i) {
    if (!m.lite()) return conv(x, list, i);
    const std::string lp = path + "." + list;
    return ds_conv(e, x, child<DSConvImpl>(child<torch::nn::ModuleListImpl>(m, list, path), std::to_string(i), lp),
                   lp + "." + std::to_string(i));
  };
  std::vector<std::string> in(4), td(4), f(4), pan(4);
  for (int i = 0; i < 4; ++i) in[i] = conv(c[i], "ins_conv", i);
  td[3] = in[3];
  for (int i = 2; i >= 0; --i) td[i] = e.node("Add", {in[i], emit_upsample_nearest(e, td[i + 1], 2, path + ".up")});
  for (int i = 0; i < 4; ++i) f[i] = large(td[i], "inp_conv", i);
  pan[0] = f[0];  // bottom-up: pan(i) = f(i) + stride-2 conv of pan(i-1)
  for (int i = 1; i < 4; ++i) pan[i] = e.node("Add", {f[i], conv(pan[i - 1], "pan_head_conv", i - 1)});
  const auto level = [&](int i) {  // pan_lat [-> IntraCL incl<i+1>]
    const std::string y = large(pan[i], "pan_lat_conv", i);
    if (m.incl().empty()) return y;
    const std::string name = "incl" + std::to_string(i + 1);
    return intracl(e, y, child<IntraCLBlockImpl>(m, name, path), path + "." + name);
  };
  std::vector<std::string> p;
  for (int i = 3; i >= 1; --i) p.push_back(emit_upsample_nearest(e, level(i), int64_t{1} << i, path + ".up"));
  p.push_back(level(0));
  return e.node("Concat", p, {{"axis", onnx_int(1)}}, path);
}

// --- head: the shrink-map branch ---------------------------------------------

struct BranchOutputs {
  std::string map;      // the sigmoid probabilities
  std::string feature;  // after conv_bn2 + ReLU (PFHeadLocal's f)
};

BranchOutputs db_branch(OnnxEmitter& e, const std::string& x, const DBHeadImpl& m, const std::string& path) {
  const std::string bp = path + ".binarize";
  const auto& b = child<DBHeadBranchImpl>(m, "binarize", path);
  std::string y = e.node("Relu", {conv_bn(e, x, b, "conv1", "conv_bn1", bp)});
  y = emit_conv_transpose(e, y, child<torch::nn::ConvTranspose2dImpl>(b, "conv2", bp),
                          &child<torch::nn::BatchNorm2dImpl>(b, "conv_bn2", bp), bp + ".conv2");
  const std::string f = e.node("Relu", {y});
  y = emit_conv_transpose(e, f, child<torch::nn::ConvTranspose2dImpl>(b, "conv3", bp), nullptr, bp + ".conv3");
  return {e.node("Sigmoid", {y}, {}, bp + ".sigmoid"), f};
}

// PFHeadLocal in eval: 0.5 * (P + sigmoid(LocalModule(up2x(f), P))).
std::string pf_head_local(OnnxEmitter& e, const std::string& x, const PFHeadLocalImpl& m, const std::string& path) {
  const BranchOutputs b = db_branch(e, x, m, path);
  const std::string lp = path + ".cbn_layer";
  const auto& local = child<LocalModuleImpl>(m, "cbn_layer", path);
  std::string y = e.node("Concat", {b.map, emit_upsample_nearest(e, b.feature, 2, path + ".up_conv")},
                         {{"axis", onnx_int(1)}}, lp + ".concat");
  y = mv3_conv_bn(e, y, child<MV3ConvBNImpl>(local, "last_3", lp), lp + ".last_3");
  y = e.node("Sigmoid", {plain_conv(e, y, local, "last_1", lp)}, {}, lp + ".sigmoid");
  y = e.node("Add", {b.map, y});
  return e.node("Mul", {y, e.scalar(0.5f)}, {}, path + ".average");
}

std::string db_head(OnnxEmitter& e, const std::string& x, const DBHeadImpl& m, const std::string& path) {
  if (const auto* pf = m.as<PFHeadLocalImpl>()) return pf_head_local(e, x, *pf, path);
  return db_branch(e, x, m, path).map;
}

}  // namespace

OnnxGraph det_model_to_onnx(const DetModelImpl& model) {
  OnnxEmitter e;
  const std::string x = e.input("x", {-1, model.spec().backbone.in_channels, -1, -1});
  std::vector<std::string> levels;
  const auto& backbone = *model.backbone();
  if (const auto* mv3 = backbone.as<DetMobileNetV3Impl>()) {
    levels = det_mobilenet_v3(e, x, *mv3, "backbone");
  } else if (const auto* resnet = backbone.as<DetResNetVdImpl>()) {
    levels = det_resnet_vd(e, x, *resnet, "backbone");
  } else if (const auto* plain = backbone.as<DetResNetImpl>()) {
    levels = det_resnet(e, x, *plain, model.spec().backbone.layers, "backbone");
  } else if (const auto* lcnet = backbone.as<DetPPLCNetV3Impl>()) {
    levels = pplcnet_v3_features(e, x, lcnet->layers(), "backbone");
  } else if (const auto* hgnet = backbone.as<DetPPHGNetImpl>()) {
    levels = pphgnet_features(e, x, hgnet->layers(), "backbone");
  } else if (const auto* hgnet_v2 = backbone.as<DetPPHGNetV2Impl>()) {
    levels = pphgnet_v2_features(e, x, hgnet_v2->layers(), "backbone");  // last_conv: never run, not exported
  } else {
    throw Error("ONNX export: the detection backbone '" + model.spec().backbone.name + "' is not known to the exporter");
  }
  std::string y;
  const auto& neck = *model.neck();
  if (const auto* dbfpn = neck.as<DBFPNImpl>()) {
    y = db_fpn(e, levels, *dbfpn, "neck");
  } else if (const auto* rsefpn = neck.as<RSEFPNImpl>()) {
    y = rse_fpn(e, levels, *rsefpn, "neck");
  } else if (const auto* lk = neck.as<LKPANImpl>()) {
    y = lkpan(e, levels, *lk, "neck");
  } else {
    throw Error("ONNX export: the detection neck '" + model.spec().neck.name + "' is not known to the exporter");
  }
  y = db_head(e, y, *model.head(), "head");
  e.output(y, "sigmoid_0.tmp_0", {-1, 1, -1, -1});
  return std::move(e.graph());
}

}  // namespace ocrforge
