"""The network and loss of configs/det/det_mv3_db.yml (DB: MobileNetV3 large x0.5 det backbone
+ DBFPN 256 + DBHead k=50, DBLoss with the DiceLoss main loss) in plain PyTorch, written from
ocrforge's LibTorch modules (src/ocrforge/train/models/: mobilenet_v3_blocks.cpp,
det_mobilenet_v3.cpp, det_neck.cpp, det_db_fpn.cpp, det_db_head.cpp, det_model.cpp, db_loss.cpp)
so that the layer order, channels, strides, activations, SE, upsampling, sub-module names
(= checkpoint keys) and initialisers are the same, and the loss runs the same tensor ops
(including the two host reads of BalanceLoss's OHEM counts).

Run with Debian's interpreter (it has torch 1.13, the same libtorch_cpu.so the C++ build links):

    /usr/bin/python3 bench/train_speed/det_model.py [--ckpt OUT/latest.ckpt]

prints the trainable parameter count per part (asserts the C++ total, 1,844,136) and, with
--ckpt, compares every tensor name and shape with a checkpoint written by `ocrforge train -c
configs/det/det_mv3_db.yml`.

Tensor layouts: images N x 3 x H x W (H, W multiples of 32); training output N x 3 x H x W
(shrink P, threshold T, binary B); targets N x H x W.
"""
import argparse
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_model import (REPO, count_trainable, default_conv, kaiming_uniform,  # noqa: E402,F401
                       read_cpp_checkpoint, uniform_fan)

# `ocrforge train` reports this for det_mv3_db.yml (DetModel, tests in tests/train/).
CPP_PARAM_COUNT = 1_844_136


# ---------------------------------------------------------------- MobileNetV3 blocks
# mobilenet_v3_blocks.cpp
def make_divisible(v, divisor=8):
    nv = max(divisor, int(v + divisor / 2.0) // divisor * divisor)
    if nv < 0.9 * v:
        nv += divisor
    return nv


class MV3ConvBN(nn.Module):
    """conv (no bias, Paddle default init) -> BatchNorm -> relu | hardswish | none."""

    def __init__(self, cin, cout, k, stride, padding, groups, act):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride=stride, padding=padding, groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(cout)  # LibTorch defaults, as the C++: eps 1e-5, momentum 0.1
        self.act = act
        default_conv(self.conv.weight, cin)

    def forward(self, x):
        x = self.bn(self.conv(x))
        if self.act == "relu":
            return torch.relu(x)
        if self.act == "hardswish":
            return F.hardswish(x)
        return x


class MV3SE(nn.Module):
    """SE with Paddle's hardsigmoid: clamp(0.2 s + 0.5, 0, 1)."""

    def __init__(self, channels, reduction=4):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels // reduction, 1)
        self.conv2 = nn.Conv2d(channels // reduction, channels, 1)
        for c in (self.conv1, self.conv2):
            default_conv(c.weight, c.in_channels)
            with torch.no_grad():
                c.bias.zero_()

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        s = self.conv2(torch.relu(self.conv1(s)))
        return x * torch.clamp(s * 0.2 + 0.5, 0.0, 1.0)


class ResidualUnit(nn.Module):
    def __init__(self, cin, mid, cout, k, stride, use_se, act, shortcut):
        super().__init__()
        self.expand_conv = MV3ConvBN(cin, mid, 1, 1, 0, 1, act)
        self.bottleneck_conv = MV3ConvBN(mid, mid, k, stride, (k - 1) // 2, mid, act)
        self.mid_se = MV3SE(mid) if use_se else None
        self.linear_conv = MV3ConvBN(mid, cout, 1, 1, 0, 1, "")
        self.shortcut = shortcut

    def forward(self, x):
        y = self.bottleneck_conv(self.expand_conv(x))
        if self.mid_se is not None:
            y = self.mid_se(y)
        y = self.linear_conv(y)
        return x + y if self.shortcut else y


# ---------------------------------------------------------------- backbone
# det_mobilenet_v3.cpp: kernel, expansion, out channels, SE, activation, stride
LARGE_CFG = [
    (3, 16, 16, False, "relu", 1), (3, 64, 24, False, "relu", 2), (3, 72, 24, False, "relu", 1),
    (5, 72, 40, True, "relu", 2), (5, 120, 40, True, "relu", 1), (5, 120, 40, True, "relu", 1),
    (3, 240, 80, False, "hardswish", 2), (3, 200, 80, False, "hardswish", 1), (3, 184, 80, False, "hardswish", 1),
    (3, 184, 80, False, "hardswish", 1), (3, 480, 112, True, "hardswish", 1), (3, 672, 112, True, "hardswish", 1),
    (5, 672, 160, True, "hardswish", 2), (5, 960, 160, True, "hardswish", 1), (5, 960, 160, True, "hardswish", 1)]


class DetMobileNetV3Large(nn.Module):
    """Four stages cut at the stride-2 blocks (after block 2), outputs at strides 4/8/16/32."""

    def __init__(self, scale=0.5, in_channels=3):
        super().__init__()
        inplanes = make_divisible(16 * scale)
        self.conv = MV3ConvBN(in_channels, inplanes, 3, 2, 1, 1, "hardswish")
        stages, stage, self.out_channels = [], [], []
        for i, (k, exp, c, se, act, s) in enumerate(LARGE_CFG):
            if s == 2 and i > 2:
                self.out_channels.append(inplanes)
                stages.append(stage)
                stage = []
            out = make_divisible(scale * c)
            stage.append(ResidualUnit(inplanes, make_divisible(scale * exp), out, k, s, se, act,
                                      s == 1 and inplanes == out))
            inplanes = out
        last = make_divisible(scale * 960)
        stage.append(MV3ConvBN(inplanes, last, 1, 1, 0, 1, "hardswish"))
        stages.append(stage)
        self.out_channels.append(last)
        self.num_stages = len(stages)
        for i, st in enumerate(stages):
            setattr(self, f"stage{i}", nn.Sequential(*st))

    def forward(self, x):
        x = self.conv(x)
        outs = []
        for i in range(self.num_stages):
            x = getattr(self, f"stage{i}")(x)
            outs.append(x)
        return outs


# ---------------------------------------------------------------- neck
# det_neck.cpp (upsample, top_down) + det_db_fpn.cpp
def upsample(x, factor):
    return F.interpolate(x, scale_factor=(float(factor), float(factor)), mode="nearest")


class DBFPN(nn.Module):
    def __init__(self, in_channels, out_channels=256):
        super().__init__()
        self.out_channels = out_channels
        for i in range(4):  # registration order as the C++: in2, p2, in3, p3, ...
            lv = i + 2
            setattr(self, f"in{lv}_conv", nn.Conv2d(in_channels[i], out_channels, 1, bias=False))
            setattr(self, f"p{lv}_conv", nn.Conv2d(out_channels, out_channels // 4, 3, padding=1, bias=False))
            kaiming_uniform(getattr(self, f"in{lv}_conv").weight)
            kaiming_uniform(getattr(self, f"p{lv}_conv").weight)

    def forward(self, c):
        in_ = [getattr(self, f"in{i + 2}_conv")(c[i]) for i in range(4)]
        out4 = in_[2] + upsample(in_[3], 2)
        out3 = in_[1] + upsample(out4, 2)
        out2 = in_[0] + upsample(out3, 2)
        td = [out2, out3, out4, in_[3]]
        p = [upsample(getattr(self, f"p{i + 2}_conv")(td[i]), 1 << i) for i in (3, 2, 1)]
        p.append(self.p2_conv(td[0]))
        return torch.cat(p, 1)


# ---------------------------------------------------------------- head
# det_db_head.cpp
def head_bn(c):
    bn = nn.BatchNorm2d(c)
    with torch.no_grad():
        bn.weight.fill_(1.0)
        bn.bias.fill_(1e-4)
    return bn


def up2x(cin, cout, bias_fan):
    c = nn.ConvTranspose2d(cin, cout, 2, stride=2)
    kaiming_uniform(c.weight)
    uniform_fan(c.bias, bias_fan)
    return c


class DBHeadBranch(nn.Module):
    def __init__(self, cin):
        super().__init__()
        mid = cin // 4
        self.conv1 = nn.Conv2d(cin, mid, 3, padding=1, bias=False)
        default_conv(self.conv1.weight, cin)
        self.conv_bn1 = head_bn(mid)
        self.conv2 = up2x(mid, mid, mid)
        self.conv_bn2 = head_bn(mid)
        self.conv3 = up2x(mid, 1, mid)

    def forward(self, x):
        x = torch.relu(self.conv_bn1(self.conv1(x)))
        x = torch.relu(self.conv_bn2(self.conv2(x)))
        return torch.sigmoid(self.conv3(x))


class DBHead(nn.Module):
    def __init__(self, cin, k=50.0):
        super().__init__()
        self.binarize = DBHeadBranch(cin)
        self.thresh = DBHeadBranch(cin)
        self.k = float(k)

    def forward(self, x):
        shrink = self.binarize(x)
        if not self.training:
            return shrink
        threshold = self.thresh(x)
        return torch.cat([shrink, threshold, torch.sigmoid(self.k * (shrink - threshold))], 1)


class DetModel(nn.Module):
    """det_mv3_db.yml: MobileNetV3 large x0.5 + DBFPN(256) + DBHead(k=50)."""

    def __init__(self, scale=0.5, neck_channels=256, k=50.0):
        super().__init__()
        self.backbone = DetMobileNetV3Large(scale)
        self.neck = DBFPN(self.backbone.out_channels, neck_channels)
        self.head = DBHead(neck_channels, k)

    def forward(self, x):
        return self.head(self.neck(self.backbone(x)))


# ---------------------------------------------------------------- loss
# db_loss.cpp, DBLossSpec defaults = det_mv3_db.yml's Loss (balance_loss, DiceLoss, alpha 5,
# beta 10, ohem_ratio 3, eps 1e-6; BalanceLoss and its Dice keep their own eps 1e-6)
def dice_loss(pred, gt, mask, eps):
    intersection = (pred * gt * mask).sum()
    union = (pred * mask).sum() + (gt * mask).sum() + eps
    return 1.0 - 2.0 * intersection / union


def mask_l1_loss(pred, gt, mask, eps):
    return ((pred - gt).abs() * mask).sum() / (mask.sum() + eps)


def ohem_balance(loss, gt, mask, negative_ratio, eps=1e-6):
    positive = gt * mask
    negative = (1.0 - gt) * mask
    positive_count = int(positive.sum().item())  # host reads, as the C++ (Python's int() truncation)
    negative_count = int(min(negative.sum().item(), float(positive_count) * negative_ratio))
    positive_loss = (positive * loss).sum()
    if negative_count <= 0:
        return positive_loss / (float(positive_count) + eps)
    negative_loss = (negative * loss).reshape(-1).topk(negative_count)[0].sum()
    return (positive_loss + negative_loss) / (float(positive_count + negative_count) + eps)


def db_loss(maps, shrink_map, shrink_mask, threshold_map, threshold_mask,
            alpha=5.0, beta=10.0, ohem_ratio=3.0, eps=1e-6):
    """(loss, [loss_shrink_maps, loss_threshold_maps, loss_binary_maps]) as DBLoss::operator()."""
    shrink, threshold, binary = maps.select(1, 0), maps.select(1, 1), maps.select(1, 2)
    dice = dice_loss(shrink, shrink_map, shrink_mask, 1e-6)
    main = ohem_balance(dice, shrink_map, shrink_mask, ohem_ratio, 1e-6)
    l_shrink = alpha * main
    l_thresh = beta * mask_l1_loss(threshold, threshold_map, threshold_mask, eps)
    l_binary = dice_loss(binary, shrink_map, shrink_mask, eps)
    return l_shrink + l_thresh + l_binary, [l_shrink, l_thresh, l_binary]


# ---------------------------------------------------------------- checks
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", help="an `ocrforge train -c configs/det/det_mv3_db.yml` checkpoint to compare with")
    args = ap.parse_args()
    model = DetModel()
    parts = {k: count_trainable(getattr(model, k)) for k in ("backbone", "neck", "head")}
    total = count_trainable(model)
    print(f"backbone stage channels {model.backbone.out_channels}")
    print("trainable parameters: " + ", ".join(f"{k} {v:,}" for k, v in parts.items()) + f", total {total:,}")
    assert total == CPP_PARAM_COUNT, f"parameter count {total:,} != C++ DetModel's {CPP_PARAM_COUNT:,}"
    x = torch.zeros(2, 3, 64, 96)
    model.train()
    with torch.no_grad():
        print("training maps shape for 2x3x64x96:", tuple(model(x).shape))
    if not args.ckpt:
        return 0
    _, cstate = read_cpp_checkpoint(args.ckpt)
    pstate = model.state_dict()
    missing = sorted(set(cstate) - set(pstate))
    extra = sorted(set(pstate) - set(cstate))
    shape_diff = [(k, tuple(cstate[k].shape), tuple(pstate[k].shape)) for k in sorted(set(cstate) & set(pstate))
                  if tuple(cstate[k].shape) != tuple(pstate[k].shape)]
    print(f"C++ checkpoint {args.ckpt}: {len(cstate)} tensors; Python state_dict: {len(pstate)} tensors")
    print("in C++ only:", missing or "none")
    print("in Python only:", extra or "none")
    print("shape mismatches:", shape_diff or "none")
    ok = not missing and not extra and not shape_diff
    print("names and shapes identical:", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
