"""Training throughput of the DB detector of configs/det/det_mv3_db.yml (det_model.py) in PyTorch
Python, the counterpart of `ocrforge train -c configs/det/det_mv3_db.yml` in
bench/train_speed/det_run.sh.

The step is the C++ trainer's (src/ocrforge/train/loop/trainer_loop.cpp + task/det_task.cpp):
set lr, forward (training maps N x 3 x 640 x 640), DBLoss, the three loss parts and the loss
read to the host (.item()), zero_grad, backward, Adam step (lr 1e-3, betas 0.9 / 0.999, eps
1e-8, L2 factor 0 as the config: no weight decay). Only that is timed.

Data: random but fixed batches (seed + step index), made before each step outside the timed
region (so B*(W+N) 640x640 samples are never all in memory): images = ImageNet-normalised
uniform noise (the network's cost does not depend on the pixel values), maps = axis-aligned
text lines (height 10..40 px, width 40..400 px) added until --text_frac of the pixels are in
the shrink map, each shrunk by PaddleOCR's offset A(1 - 0.4^2)/L; threshold_mask = the line
dilated by the same offset, threshold_map in [0.3, 0.7] falling off from the border;
shrink_mask all ones. The maps matter for the time only through BalanceLoss's OHEM: it keeps
min(negatives, 3 x positives) pixels with topk, so --text_frac sets k. Whole SROIE receipts
have ~3.5 % of their pixels in shrunk lines (mean over the first 60, from det_gt.txt);
EastRandomCropData's crops hold more text than the whole page, hence the default 0.05.

    /usr/bin/python3 bench/train_speed/det_train_speed.py --threads 2 --batch 16 --warmup 3 --steps 20 \
        [--channels_last] [--text_frac 0.05] [--size 640] [--profile 1]

Last line: `RESULT python samples_per_s=... step_s=... median_step_s=... fastest_quarter_step_s=...
forward_s=... backward_s=... optimizer_s=...` (as train_speed.py: samples_per_s = batch / mean
step time over the timed steps; fastest_quarter_step_s = mean of the fastest quarter; phases are
means: forward_s includes the loss and the host reads).
"""
import argparse
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from det_model import CPP_PARAM_COUNT, DetModel, count_trainable, db_loss  # noqa: E402

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
SHRINK_RATIO, THRESH_MIN, THRESH_MAX = 0.4, 0.3, 0.7  # det_mv3_db.yml's MakeShrinkMap / MakeBorderMap


def sample_maps(rng, size, text_frac):
    """shrink_map, shrink_mask, threshold_map, threshold_mask (size x size float32) of random text lines."""
    shrink = np.zeros((size, size), np.float32)
    tmap = np.zeros((size, size), np.float32)
    tmask = np.zeros((size, size), np.float32)
    target = text_frac * size * size
    for _ in range(10000):  # bounded: a tiny --size cannot loop forever
        if shrink.sum() >= target:
            break
        h = int(rng.integers(10, 41))
        w = int(rng.integers(40, 401))
        w = min(w, size - 2)
        h = min(h, size - 2)
        x0 = int(rng.integers(0, size - w))
        y0 = int(rng.integers(0, size - h))
        d = w * h * (1 - SHRINK_RATIO ** 2) / (2 * (w + h))
        di = int(round(d))
        sx0, sy0, sx1, sy1 = x0 + di, y0 + di, x0 + w - di, y0 + h - di
        if sx1 > sx0 and sy1 > sy0:
            shrink[sy0:sy1, sx0:sx1] = 1.0
        # Dilated line: the threshold map's support; values fall from THRESH_MAX at the
        # border to THRESH_MIN at distance d (as MakeBorderMap's 1 - dist/d, rescaled).
        ex0, ey0 = max(0, x0 - di), max(0, y0 - di)
        ex1, ey1 = min(size, x0 + w + di), min(size, y0 + h + di)
        ys = np.arange(ey0, ey1, dtype=np.float32)[:, None]
        xs = np.arange(ex0, ex1, dtype=np.float32)[None, :]
        dist = np.minimum(np.minimum(np.abs(xs - x0), np.abs(xs - (x0 + w))),
                          np.minimum(np.abs(ys - y0), np.abs(ys - (y0 + h))))
        v = 1.0 - np.clip(dist / max(d, 1.0), 0.0, 1.0)
        region = tmap[ey0:ey1, ex0:ex1]
        np.maximum(region, v, out=region)
        tmask[ey0:ey1, ex0:ex1] = 1.0
    tmap = tmap * (THRESH_MAX - THRESH_MIN) + THRESH_MIN
    return shrink, np.ones((size, size), np.float32), tmap, tmask


def make_batch(seed, batch, size, text_frac):
    """The batch of one step: image N x 3 x H x W, then shrink_map, shrink_mask, threshold_map, threshold_mask N x H x W."""
    rng = np.random.default_rng(seed)
    img = rng.random((batch, size, size, 3), dtype=np.float32)
    img = ((img - MEAN) / STD).transpose(0, 3, 1, 2)
    maps = [sample_maps(rng, size, text_frac) for _ in range(batch)]
    out = [torch.from_numpy(np.ascontiguousarray(img))]
    for j in range(4):
        out.append(torch.from_numpy(np.stack([m[j] for m in maps])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--size", type=int, default=640, help="crop side (EastRandomCropData size), a multiple of 32")
    ap.add_argument("--text_frac", type=float, default=0.05, help="fraction of pixels in the shrink map")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1024)
    ap.add_argument("--channels_last", action="store_true",
                    help="conv weights and input images in channels-last (NHWC), the C++ trainer's format on CPU")
    ap.add_argument("--profile", type=int, default=0, metavar="STEPS",
                    help="after the timed run, profile STEPS steps with torch.autograd.profiler and print the top ops")
    args = ap.parse_args()
    if args.size % 32 or args.size <= 0:
        raise SystemExit(f"--size {args.size}: must be a positive multiple of 32 (DetModel's input rule)")
    if not 0.0 < args.text_frac < 1.0:
        raise SystemExit(f"--text_frac {args.text_frac}: must be in (0, 1)")

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    model = DetModel()
    n_params = count_trainable(model)
    assert n_params == CPP_PARAM_COUNT, f"parameter count {n_params:,} != C++ DetModel's {CPP_PARAM_COUNT:,}"
    fmt = torch.channels_last if args.channels_last else torch.contiguous_format
    if args.channels_last:
        model = model.to(memory_format=torch.channels_last)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)
    print(f"python {sys.version.split()[0]}, torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"batch {args.batch}, warm-up {args.warmup}, timed {args.steps}; data: random {args.size}x{args.size} "
          f"images and maps (text_frac {args.text_frac}, seeds {args.seed}+step); "
          f"{'channels_last, ' if args.channels_last else ''}Adam lr {args.lr}; "
          f"trainable parameters {n_params:,}", flush=True)

    def step(batch, phases=None):
        img, smap, smask, tmap, tmask = batch
        ta = time.perf_counter()
        for g in opt.param_groups:
            g["lr"] = args.lr
        x = img.contiguous(memory_format=fmt)  # inside the timed step, as DetModel::forward does in NHWC mode
        maps = model(x)
        loss, parts = db_loss(maps, smap, smask, tmap, tmask)
        value = loss.item()
        _ = [p.item() for p in parts]  # the C++ task logs the parts: three more host reads
        if not math.isfinite(value):
            raise SystemExit(f"loss is {value}")
        tb = time.perf_counter()
        opt.zero_grad()
        loss.backward()
        tc = time.perf_counter()
        opt.step()
        td = time.perf_counter()
        if phases is not None:
            phases[0] += tb - ta
            phases[1] += tc - tb
            phases[2] += td - tc
        return value, td - ta

    times, ph, gen_s = [], [0.0, 0.0, 0.0], 0.0
    for i in range(args.warmup + args.steps):
        t0 = time.perf_counter()
        batch = make_batch(args.seed + i, args.batch, args.size, args.text_frac)
        gen_s += time.perf_counter() - t0
        value, dt = step(batch, ph if i >= args.warmup else None)
        if i >= args.warmup:
            times.append(dt)
        pos = float(batch[1].mean())
        print(f"step {i + 1}: loss {value:.4f}, step {dt:.3f} s, shrink-map positives {pos:.3f}", flush=True)
    assert len(times) == args.steps, f"{len(times)} timed steps, expected {args.steps}"
    step_s = sum(times) / len(times)
    st = sorted(times)
    med_s = st[len(st) // 2] if len(st) % 2 else (st[len(st) // 2 - 1] + st[len(st) // 2]) / 2
    q = max(1, len(times) // 4)
    fastq_s = sum(st[:q]) / q
    sps = args.batch / step_s
    fw, bw, op = (p / len(times) for p in ph)
    print(f"batch generation (untimed): {gen_s / (args.warmup + args.steps):.3f} s per batch")
    print("timed step times (s): " + " ".join(f"{t:.3f}" for t in times))
    print(f"timed steps: mean {step_s:.4f} s, median {med_s:.4f} s, min {min(times):.4f} s, max {max(times):.4f} s")
    print(f"per step: forward+loss {fw:.4f} s ({fw / step_s:.0%}), zero_grad+backward {bw:.4f} s ({bw / step_s:.0%}), "
          f"Adam step {op:.4f} s ({op / step_s:.0%})")

    if args.profile:
        from torch.autograd import profiler
        with profiler.profile() as prof:
            for i in range(args.profile):
                step(make_batch(args.seed + i, args.batch, args.size, args.text_frac))
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=25))

    print(f"RESULT python samples_per_s={sps:.3f} step_s={step_s:.4f} median_step_s={med_s:.4f} "
          f"fastest_quarter_step_s={fastq_s:.4f} forward_s={fw:.4f} "
          f"backward_s={bw:.4f} optimizer_s={op:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
