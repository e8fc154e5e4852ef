"""Numerical check that rec_model.py computes what the C++ model computes.

Takes a checkpoint written by `ocrforge train` with the English config as a template
(header, architecture fingerprint), replaces its weights with those of a freshly
initialised Python model (BatchNorm statistics calibrated on the probe images, head
scaled so the greedy decode depends on each input), writes that as a new checkpoint
(same OCRFCKPT1 container), saves K crops already at 48x320 (so the C++ resize is an
identity copy), decodes them with the Python model (eval mode, same weights, same pixels), writes those predictions
as the label file and runs `ocrforge eval` on it with the probe checkpoint: acc 1.000000
means every C++ greedy-CTC prediction is character-for-character the Python one.

    /usr/bin/python3 bench/train_speed/check_forward.py --ckpt OUT/latest.ckpt [--k 96] [--negative_control]

--negative_control changes the Python side only (SE gate slope 0.2 instead of 1/6) after the
checkpoint is written: acc must then drop below 1 (it gives 0.86), showing the check can fail.
"""
import argparse
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_model import (CPP_CHECKPOINT_MAGIC, REPO, RecModel, load_dict,  # noqa: E402
                       read_cpp_checkpoint_blocks)


def write_cpp_checkpoint(src, dst, state):
    """Copy of the C++ checkpoint `src` with its model weights replaced by `state`."""
    blocks = read_cpp_checkpoint_blocks(src)
    buf = io.BytesIO()
    torch.save(state, buf)
    blocks[1] = buf.getvalue()
    with open(dst, "wb") as f:
        f.write(CPP_CHECKPOINT_MAGIC)
        for b in blocks:
            f.write(struct.pack("<Q", len(b)))
            f.write(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data", "ic15_rec_train"))
    ap.add_argument("--k", type=int, default=96)
    ap.add_argument("--head_scale", type=float, default=10.0)
    ap.add_argument("--blank_shift", type=float, default=4.0)
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "ocrforge"))
    ap.add_argument("--negative_control", action="store_true",
                    help="perturb the Python side after writing the checkpoint (SE gate slope 0.2 instead of 1/6): acc must drop")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (probe checkpoint, crops, labels)")
    ap.add_argument("--config", default=os.path.join(REPO, "configs", "rec", "en_PP-OCRv3_mobile_rec.yml"))
    args = ap.parse_args()

    torch.set_num_threads(2)
    torch.manual_seed(0)
    tmp = tempfile.mkdtemp(prefix="ocrf_fwd_")
    probe = os.path.join(tmp, "probe.ckpt")
    lines = open(os.path.join(args.data, "rec_gt_train.txt"), encoding="utf-8").read().splitlines()[:args.k]
    imgdir = os.path.join(tmp, "imgs")
    os.makedirs(imgdir)
    paths, pix = [], []
    for i, line in enumerate(lines):
        rel = line.split("\t")[0]
        im = Image.open(os.path.join(args.data, rel)).convert("RGB").resize((320, 48), Image.BILINEAR)
        p = os.path.join(imgdir, f"{i:03d}.png")
        im.save(p)
        paths.append(p)
        bgr = np.asarray(im)[:, :, ::-1].astype(np.float32)
        pix.append(torch.from_numpy(((bgr / np.float32(255.0) - np.float32(0.5)) / np.float32(0.5)).transpose(2, 0, 1).copy()))

    # A freshly initialised Python model, BatchNorm statistics calibrated on the probe
    # images (so eval-mode activations are not saturated), head scaled so that the
    # greedy decode depends on every input: the C++ side must load these weights by
    # name and reproduce each decoded string.
    classes, _ = load_dict()
    model = RecModel(len(classes))
    x = torch.stack(pix)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = None
            m.reset_running_stats()
    model.train()
    with torch.no_grad():
        model(x)
        model.head.fc.weight.mul_(args.head_scale)
        model.head.fc.bias[0] += args.blank_shift
    model.eval()
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = 0.1
    write_cpp_checkpoint(args.ckpt, probe, {k: v.clone() for k, v in model.state_dict().items()})
    if args.negative_control:
        import torch.nn.functional as F
        import rec_model
        rec_model.F = type("F", (), {k: getattr(F, k) for k in dir(F) if not k.startswith("__")})
        rec_model.F.hardsigmoid = staticmethod(lambda t: torch.clamp(0.2 * t + 0.5, 0.0, 1.0))
    keep = []
    with torch.no_grad():
        probs = torch.softmax(model(x), 2)
    for i, p in enumerate(paths):
        idx = probs[i].argmax(1).tolist()
        text, prev = "", -1
        for c in idx:
            if c != 0 and c != prev:
                text += classes[c]
            prev = c
        # labels must survive CTCLabelEncode and the label-file reader unchanged
        if 1 <= len(text) <= 25 and text == text.strip():
            keep.append((os.path.basename(p), text))
    with open(os.path.join(tmp, "python_pred.txt"), "w", encoding="utf-8") as f:
        for name, text in keep:
            f.write(f"imgs/{name}\t{text}\n")
    print(f"Python predictions (eval mode): {len(keep)}/{len(paths)} usable as labels, "
          f"{len(set(t for _, t in keep))} distinct")
    for name, text in keep[:8]:
        print(f"  {name}: {text!r}")
    cmd = [args.bin, "eval", "-c", args.config, "-o", "Global.use_gpu=False", f"Global.checkpoints={probe}",
           f"Eval.dataset.data_dir={tmp}", f"Eval.dataset.label_file_list=[{tmp}/python_pred.txt]",
           "Eval.loader.num_workers=1", f"Global.save_model_dir={tmp}/out", "Global.num_threads=2"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    if out.returncode != 0:
        print(out.stdout[-2000:], out.stderr[-2000:])
        return 2
    acc = float(re.search(r"^acc: ([0-9.]+)", out.stdout, re.M).group(1))
    ned = float(re.search(r"^norm_edit_dis: ([0-9.]+)", out.stdout, re.M).group(1))
    print(f"ocrforge eval of the same checkpoint against the Python predictions: acc {acc:.6f}, "
          f"norm_edit_dis {ned:.6f} (1.0 = every C++ prediction equals Python's)")
    if args.negative_control:
        return 0 if acc < 1.0 else 1
    return 0 if acc == 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
