"""The network of configs/rec/en_PP-OCRv3_mobile_rec.yml (SVTR_LCNet: MobileNetV1Enhance
scale 0.5 + SequenceEncoder svtr + CTCHead) in plain PyTorch, written from ocrforge's
LibTorch modules (src/ocrforge/train/models/*.cpp) so that the layer order, channels,
strides, activations, SE, pools, SVTR blocks, dropout rates, LayerNorm eps, sub-module
names (= checkpoint keys) and initialisers are the same.

Run with Debian's interpreter (it has torch 1.13, the same libtorch_cpu.so the C++ build
links):

    /usr/bin/python3 bench/train_speed/rec_model.py [--ckpt OUT/latest.ckpt]

prints the trainable parameter count per part and, with --ckpt, compares every tensor
name and shape with a checkpoint written by `ocrforge train` (OCRFCKPT1 container,
the model block is a torch pickle of name -> tensor).
"""
import argparse
import io
import json
import math
import os
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


# ---------------------------------------------------------------- initialisers
# paddle_init.cpp
def _fan_in(w):
    f = w.shape[1]
    for d in w.shape[2:]:
        f *= d
    return f


@torch.no_grad()
def kaiming_normal(w):
    w.normal_(0.0, math.sqrt(2.0 / _fan_in(w)))


@torch.no_grad()
def kaiming_uniform(w):
    lim = math.sqrt(6.0 / _fan_in(w))
    w.uniform_(-lim, lim)


@torch.no_grad()
def default_conv(w, in_channels):
    k = w.shape[2] * w.shape[3] if w.dim() == 4 else 1
    w.normal_(0.0, math.sqrt(2.0 / (k * in_channels)))


@torch.no_grad()
def uniform_fan(w, k):
    s = 1.0 / math.sqrt(k)
    w.uniform_(-s, s)


@torch.no_grad()
def trunc_normal(w, std):
    lo = 0.5 * (1.0 + math.erf(-2.0 / math.sqrt(2.0)))
    hi = 1.0 - lo
    w.uniform_(2.0 * lo - 1.0, 2.0 * hi - 1.0)
    w.erfinv_().mul_(std * math.sqrt(2.0))


# ---------------------------------------------------------------- backbone
# mobilenet_v1_enhance.cpp
class MV1ConvBN(nn.Module):
    """conv (no bias, KaimingNormal) -> BatchNorm -> hardswish."""

    def __init__(self, cin, cout, k, stride, padding, groups):
        super().__init__()
        self._conv = nn.Conv2d(cin, cout, k, stride=stride, padding=padding, groups=groups, bias=False)
        self._batch_norm = nn.BatchNorm2d(cout)  # eps 1e-5, momentum 0.1
        kaiming_normal(self._conv.weight)

    def forward(self, x):
        return F.hardswish(self._batch_norm(self._conv(x)))


class MV1SE(nn.Module):
    """avg pool 1 -> 1x1 (C/4) relu -> 1x1 (C) -> hardsigmoid (slope 1/6) -> x * s."""

    def __init__(self, c, reduction=4):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c // reduction, 1)
        self.conv2 = nn.Conv2d(c // reduction, c, 1)
        for conv in (self.conv1, self.conv2):
            default_conv(conv.weight, conv.in_channels)
            with torch.no_grad():
                conv.bias.zero_()

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        s = F.hardsigmoid(self.conv2(F.relu(self.conv1(s))))
        return x * s


class DepthwiseSeparable(nn.Module):
    def __init__(self, cin, filters1, filters2, groups, stride, scale, dw_size=3, padding=1, use_se=False):
        super().__init__()
        c1, c2 = int(filters1 * scale), int(filters2 * scale)
        self._depthwise_conv = MV1ConvBN(cin, c1, dw_size, stride, padding, int(groups * scale))
        self._se = MV1SE(c1) if use_se else None
        self._pointwise_conv = MV1ConvBN(c1, c2, 1, (1, 1), 0, 1)

    def forward(self, x):
        x = self._depthwise_conv(x)
        if self._se is not None:
            x = self._se(x)
        return self._pointwise_conv(x)


class MobileNetV1Enhance(nn.Module):
    def __init__(self, scale=0.5, in_channels=3, last_conv_stride=(1, 2), last_pool_type="avg",
                 last_pool_kernel_size=(3, 2)):
        super().__init__()
        s = scale
        sc = lambda c: int(c * s)  # noqa: E731
        self.conv1 = MV1ConvBN(in_channels, sc(32), 3, (2, 2), 1, 1)
        s1, s21, last = (1, 1), (2, 1), tuple(last_conv_stride)
        b = [
            DepthwiseSeparable(sc(32), 32, 64, 32, s1, s),  # conv2_1
            DepthwiseSeparable(sc(64), 64, 128, 64, s1, s),  # conv2_2
            DepthwiseSeparable(sc(128), 128, 128, 128, s1, s),  # conv3_1
            DepthwiseSeparable(sc(128), 128, 256, 128, s21, s),  # conv3_2
            DepthwiseSeparable(sc(256), 256, 256, 256, s1, s),  # conv4_1
            DepthwiseSeparable(sc(256), 256, 512, 256, s21, s),  # conv4_2
        ]
        for _ in range(5):  # conv5 x5: 5x5 depthwise, no SE
            b.append(DepthwiseSeparable(sc(512), 512, 512, 512, s1, s, 5, 2, False))
        b.append(DepthwiseSeparable(sc(512), 512, 1024, 512, s21, s, 5, 2, True))  # conv5_6
        b.append(DepthwiseSeparable(sc(1024), 1024, 1024, 1024, last, s, 5, 2, True))  # conv6
        self.block_list = nn.Sequential(*b)
        self.avg_pool = last_pool_type == "avg"
        self.pool_kernel = tuple(last_pool_kernel_size) if self.avg_pool else (2, 2)
        self.out_channels = sc(1024)

    def forward(self, x):
        y = self.block_list(self.conv1(x))
        if self.avg_pool:
            return F.avg_pool2d(y, self.pool_kernel, self.pool_kernel, 0)
        return F.max_pool2d(y, self.pool_kernel, self.pool_kernel, 0)


# ---------------------------------------------------------------- svtr neck
# svtr_block.cpp, encoder_svtr.cpp, sequence_encoder.cpp
class SvtrConvBN(nn.Module):
    """conv (KaimingUniform, no bias) -> BatchNorm -> swish."""

    def __init__(self, cin, cout, k, padding):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=padding, bias=False)
        self.norm = nn.BatchNorm2d(cout)
        kaiming_uniform(self.conv.weight)

    def forward(self, x):
        return F.silu(self.norm(self.conv(x)))


class SvtrMlp(nn.Module):
    def __init__(self, dim, hidden, drop):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(F.silu(self.fc1(x)))))


class SvtrAttention(nn.Module):
    def __init__(self, dim, num_heads, qkv_bias, attn_drop, proj_drop):
        super().__init__()
        self.dim, self.heads = dim, num_heads
        self.scale = 1.0 / math.sqrt(dim // num_heads)
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        n, l = x.shape[0], x.shape[1]
        hd = self.dim // self.heads
        qkv = self.qkv(x).reshape(n, l, 3, self.heads, hd).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0] * self.scale, qkv[1], qkv[2]
        attn = self.attn_drop(torch.softmax(torch.matmul(q, k.transpose(-2, -1)), -1))
        out = torch.matmul(attn, v).transpose(1, 2).reshape(n, l, self.dim)
        return self.proj_drop(self.proj(out))


def drop_path(x, p, training):
    if p == 0.0 or not training:
        return x
    shape = [x.shape[0]] + [1] * (x.dim() - 1)
    keep = torch.floor(torch.rand(shape, dtype=x.dtype, device=x.device) + (1.0 - p))
    return x / (1.0 - p) * keep


class SvtrBlock(nn.Module):
    """pre-LN block: x + attn(norm1(x)); x + mlp(norm2(x)); LayerNorm eps 1e-5."""

    def __init__(self, dim=120, num_heads=8, mlp_ratio=2.0, qkv_bias=True, drop=0.1, attn_drop=0.1,
                 drop_path=0.0, eps=1e-5):
        super().__init__()
        self.drop_path_p = drop_path
        self.norm1 = nn.LayerNorm(dim, eps=eps)
        self.mixer = SvtrAttention(dim, num_heads, qkv_bias, attn_drop, drop)
        self.norm2 = nn.LayerNorm(dim, eps=eps)
        self.mlp = SvtrMlp(dim, int(dim * mlp_ratio), drop)

    def forward(self, x):
        x = x + drop_path(self.mixer(self.norm1(x)), self.drop_path_p, self.training)
        return x + drop_path(self.mlp(self.norm2(x)), self.drop_path_p, self.training)


class EncoderWithSVTR(nn.Module):
    def __init__(self, in_channels, dims=64, depth=2, hidden_dims=120, use_guide=False, num_heads=8,
                 mlp_ratio=2.0, kernel_size=(3, 3), qkv_bias=True, drop_rate=0.1, attn_drop_rate=0.1,
                 drop_path=0.0):
        super().__init__()
        self.use_guide = use_guide
        k = tuple(kernel_size)
        pad = (k[0] // 2, k[1] // 2)
        c8 = in_channels // 8
        self.conv1 = SvtrConvBN(in_channels, c8, k, pad)
        self.conv2 = SvtrConvBN(c8, hidden_dims, (1, 1), (0, 0))
        self.svtr_block = nn.ModuleList([
            SvtrBlock(hidden_dims, num_heads, mlp_ratio, qkv_bias, drop_rate, attn_drop_rate, drop_path, 1e-5)
            for _ in range(depth)])
        self.norm = nn.LayerNorm(hidden_dims, eps=1e-6)
        self.conv3 = SvtrConvBN(hidden_dims, in_channels, (1, 1), (0, 0))
        self.conv4 = SvtrConvBN(2 * in_channels, c8, k, pad)
        self.conv1x1 = SvtrConvBN(c8, dims, (1, 1), (0, 0))
        self.out_channels = dims
        with torch.no_grad():
            for m in self.modules():
                if isinstance(m, nn.Linear):
                    trunc_normal(m.weight, 0.02)
                    if m.bias is not None:
                        m.bias.zero_()
                elif isinstance(m, nn.LayerNorm):
                    m.weight.fill_(1.0)
                    m.bias.zero_()

    def forward(self, x):
        z = x.detach() if self.use_guide else x
        h = z
        z = self.conv2(self.conv1(z))
        n, c, hh, ww = z.shape
        z = z.flatten(2).transpose(1, 2)
        for blk in self.svtr_block:
            z = blk(z)
        z = self.norm(z)
        z = z.reshape(n, hh, ww, c).permute(0, 3, 1, 2)
        z = self.conv3(z)
        z = torch.cat([h, z], 1)
        return self.conv1x1(self.conv4(z))


class SequenceEncoder(nn.Module):
    """encoder_type svtr only (the English config)."""

    def __init__(self, in_channels, **svtr):
        super().__init__()
        self.encoder = EncoderWithSVTR(in_channels, **svtr)
        self.out_channels = self.encoder.out_channels

    def forward(self, x):
        x = self.encoder(x)
        assert x.dim() == 4 and x.shape[2] == 1, "feature height must be 1"
        return x.squeeze(2).transpose(1, 2)  # N, W, C


class CTCHead(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.fc = nn.Linear(in_channels, out_channels)
        uniform_fan(self.fc.weight, in_channels)
        uniform_fan(self.fc.bias, in_channels)

    def forward(self, x):
        return self.fc(x)


class RecModel(nn.Module):
    def __init__(self, num_classes, use_guide=True):
        super().__init__()
        # configs/rec/en_PP-OCRv3_mobile_rec.yml; last_pool_kernel_size omitted there -> [3, 2]
        self.backbone = MobileNetV1Enhance(scale=0.5, last_conv_stride=(1, 2), last_pool_type="avg",
                                           last_pool_kernel_size=(3, 2))
        self.neck = SequenceEncoder(self.backbone.out_channels, dims=64, depth=2, hidden_dims=120,
                                    use_guide=use_guide)
        self.head = CTCHead(self.neck.out_channels, num_classes)

    def forward(self, x):
        return self.head(self.neck(self.backbone(x)))


def ctc_loss(logits, labels, lengths):
    """ctc_loss.cpp: log_softmax, time-major, input length T, blank 0, zero_infinity, per-sample, mean."""
    n, t = logits.shape[0], logits.shape[1]
    log_probs = torch.log_softmax(logits.float(), 2).transpose(0, 1)
    input_lengths = torch.full((n,), t, dtype=torch.long)
    loss = F.ctc_loss(log_probs, labels.long(), input_lengths, lengths.long(), blank=0, reduction="none",
                      zero_infinity=True)
    return loss.mean()


# ---------------------------------------------------------------- dictionary
def load_dict(path=os.path.join(REPO, "configs", "dicts", "en_dict.txt"), use_space_char=True):
    """core/charset.cpp: blank, the non-empty lines (\\r stripped), then ' '."""
    chars = []
    with open(path, "rb") as f:
        for line in f.read().decode("utf-8").split("\n"):
            line = line[:-1] if line.endswith("\r") else line
            if line:
                chars.append(line)
    classes = [""] + chars + ([" "] if use_space_char else [])
    index = {}
    for i, c in enumerate(classes[1:], 1):
        index[c] = i  # a duplicate encodes to its last index (PaddleOCR, charset.h)
    return classes, index


# ---------------------------------------------------------------- checks
def count_trainable(module):
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


CPP_CHECKPOINT_MAGIC = b"OCRFCKPT1\n"


def read_cpp_checkpoint_blocks(path):
    """OCRFCKPT1 container: magic line, then [u64 len][bytes] x 3 (json, model pickle, optimizer)."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(CPP_CHECKPOINT_MAGIC):
        raise SystemExit(f"{path}: not an ocrforge checkpoint")
    pos, blocks = len(CPP_CHECKPOINT_MAGIC), []
    for _ in range(3):
        (n,) = struct.unpack_from("<Q", data, pos)
        pos += 8
        blocks.append(data[pos:pos + n])
        pos += n
    return blocks


def read_cpp_checkpoint(path):
    """(header dict, model state dict) of a C++ checkpoint."""
    blocks = read_cpp_checkpoint_blocks(path)
    header = json.loads(blocks[0])
    state = torch.load(io.BytesIO(blocks[1]))
    return header, state


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", help="an ocrforge train checkpoint of the English config to compare with")
    args = ap.parse_args()
    classes, _ = load_dict()
    model = RecModel(len(classes))
    parts = {k: count_trainable(getattr(model, k)) for k in ("backbone", "neck", "head")}
    print(f"num_classes {len(classes)}")
    print("trainable parameters: " + ", ".join(f"{k} {v:,}" for k, v in parts.items()) +
          f", total {count_trainable(model):,}")
    x = torch.zeros(2, 3, 48, 320)
    model.eval()
    with torch.no_grad():
        print("logits shape for 2x3x48x320:", tuple(model(x).shape))
    if not args.ckpt:
        return 0
    header, cstate = read_cpp_checkpoint(args.ckpt)
    pstate = model.state_dict()
    missing = sorted(set(cstate) - set(pstate))
    extra = sorted(set(pstate) - set(cstate))
    shape_diff = [(k, tuple(cstate[k].shape), tuple(pstate[k].shape)) for k in sorted(set(cstate) & set(pstate))
                  if tuple(cstate[k].shape) != tuple(pstate[k].shape)]
    cpp_params = sum(v.numel() for k, v in cstate.items()
                     if not k.endswith(("running_mean", "running_var", "num_batches_tracked")))
    print(f"C++ checkpoint {args.ckpt}: {len(cstate)} tensors, trainable-parameter values {cpp_params:,}")
    print(f"Python state_dict: {len(pstate)} tensors")
    print("in C++ only:", missing or "none")
    print("in Python only:", extra or "none")
    print("shape mismatches:", shape_diff or "none")
    ok = not missing and not extra and not shape_diff and cpp_params == count_trainable(model)
    if ok:  # the weights load: run the C++ weights through the Python graph once
        model.load_state_dict({k: v for k, v in cstate.items()})
    print("names and shapes identical:", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
