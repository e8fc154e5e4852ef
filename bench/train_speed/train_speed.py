"""Training throughput of the English PP-OCRv3 recogniser (rec_model.py) in PyTorch Python,
the counterpart of `ocrforge train` in bench/train_speed/run.sh.

The step is the C++ trainer's (src/ocrforge/train/loop/rec_trainer_loop.cpp): set lr,
forward, CTC loss, loss.item(), zero_grad, backward, Adam step (L2 factor as coupled
weight decay, with the layers' pinned factors: head fc_decay, none on the backbone's
BatchNorm, as optimizer_factory.cpp + RecModelImpl::pinned_l2_decay). The batches are pre-loaded in memory, so the
figure excludes data loading. Same crops as the C++ run when --label is given
(PaddleOCR's RecResizeImg: resize to height 48 keeping the aspect ratio, width capped
at 320, right-pad with 0, (x/255-0.5)/0.5, BGR channel order); otherwise random but
fixed images and labels.

    /usr/bin/python3 bench/train_speed/train_speed.py --threads 2 --batch 32 --warmup 5 --steps 20 \
        --data ../shared/data/ic15_rec_train --label LABELS.txt [--config CFG.yml] [--profile 2] [--channels_last]

Last line: `RESULT python samples_per_s=... step_s=... median_step_s=... fastest_quarter_step_s=...
forward_s=... backward_s=... optimizer_s=...` (samples_per_s = batch / mean step time over the timed
steps; fastest_quarter_step_s = mean of the fastest quarter of the timed steps; phases are means).
"""
import argparse
import math
import os
import random
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_model import REPO, RecModel, count_trainable, ctc_loss, load_dict  # noqa: E402


def read_config(path):
    """The few config values that change the Python side: use_guide, optimizer, max_text_length."""
    out = {"use_guide": False, "lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "l2": 0.0,
           "fc_decay": 0.0004, "max_text_length": 25}
    if not path:
        return out
    import yaml
    with open(path, encoding="utf-8") as f:
        cfg = yaml.safe_load(f)
    neck = cfg["Architecture"]["Neck"]
    assert cfg["Architecture"]["Backbone"]["name"] == "MobileNetV1Enhance" and neck.get("encoder_type") == "svtr", \
        "rec_model.py implements the en_PP-OCRv3 architecture only"
    out["use_guide"] = bool(neck.get("use_guide", False))
    o = cfg.get("Optimizer", {})
    assert o.get("name", "Adam") == "Adam"
    out["lr"] = float(o.get("lr", {}).get("learning_rate", 1e-3))
    out["beta1"], out["beta2"] = float(o.get("beta1", 0.9)), float(o.get("beta2", 0.999))
    out["epsilon"] = float(o.get("epsilon", 1e-8))
    reg = o.get("regularizer") or {}
    out["l2"] = float(reg.get("factor", 0.0)) if reg else 0.0
    out["max_text_length"] = int(cfg.get("Global", {}).get("max_text_length", 25))
    out["fc_decay"] = float(cfg["Architecture"].get("Head", {}).get("fc_decay", 0.0004))
    return out


def l2_groups(model, cfg):
    """Parameter groups by L2 factor: PaddleOCR's ParamAttr pins override the config's factor."""
    groups = {}
    for name, p in model.named_parameters():
        f = cfg["l2"]
        if name.startswith("head."):
            f = cfg["fc_decay"]
        elif name.startswith("backbone.") and "._batch_norm." in name:
            f = 0.0
        groups.setdefault(f, []).append(p)
    return [{"params": ps, "weight_decay": f} for f, ps in groups.items()]


def rec_resize_normalize(path, h=48, w=320):
    from PIL import Image
    im = Image.open(path).convert("RGB")
    ratio = im.width / float(im.height)
    rw = min(w, int(math.ceil(h * ratio)))
    im = im.resize((rw, h), Image.BILINEAR)
    bgr = np.asarray(im, dtype=np.uint8)[:, :, ::-1].astype(np.float32)
    out = np.zeros((3, h, w), dtype=np.float32)
    out[:, :, :rw] = ((bgr / np.float32(255.0) - np.float32(0.5)) / np.float32(0.5)).transpose(2, 0, 1)
    return out


def load_batches(args, cfg, index):
    need = args.batch * (args.warmup + args.steps)
    maxlen = cfg["max_text_length"]
    images, labels, lengths = [], [], []
    if args.label:
        lines = [l for l in open(args.label, encoding="utf-8").read().splitlines() if l.strip()]
        for line in lines:
            rel, text = line.split("\t", 1)
            ids = [index[c] for c in text if c in index]
            if not ids or len(ids) > maxlen:
                continue
            images.append(rec_resize_normalize(os.path.join(args.data, rel)))
            labels.append(ids + [0] * (maxlen - len(ids)))
            lengths.append(len(ids))
            if len(images) == need:
                break
        if len(images) < need:
            raise SystemExit(f"{args.label}: {len(images)} usable samples, need {need}")
        order = list(range(need))
        random.Random(args.seed).shuffle(order)  # the C++ loader shuffles too
        images = [images[i] for i in order]
        labels = [labels[i] for i in order]
        lengths = [lengths[i] for i in order]
        source = f"{need} crops from {args.label}"
    else:
        g = torch.Generator().manual_seed(args.seed)
        n_cls = len(index) + 1
        for _ in range(need):
            images.append((torch.rand(3, 48, 320, generator=g) * 2 - 1).numpy())
            k = int(torch.randint(1, maxlen + 1, (1,), generator=g))
            ids = torch.randint(1, n_cls, (k,), generator=g).tolist()
            labels.append(ids + [0] * (maxlen - k))
            lengths.append(k)
        source = f"{need} random 3x48x320 images"
    batches = []
    for b in range(args.warmup + args.steps):
        s = slice(b * args.batch, (b + 1) * args.batch)
        batches.append((torch.from_numpy(np.stack(images[s])).contiguous(),
                        torch.tensor(labels[s], dtype=torch.long), torch.tensor(lengths[s], dtype=torch.long)))
    return batches, source


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data", "ic15_rec_train"))
    ap.add_argument("--label", help="PaddleOCR label file (paths relative to --data); random data when absent")
    ap.add_argument("--config", default=os.path.join(REPO, "configs", "rec", "en_PP-OCRv3_mobile_rec.yml"))
    ap.add_argument("--seed", type=int, default=1024)
    ap.add_argument("--channels_last", action="store_true",
                    help="what-if: conv weights and input images in channels-last (NHWC) memory format")
    ap.add_argument("--profile", type=int, default=0, metavar="STEPS",
                    help="after the timed run, profile STEPS steps with torch.autograd.profiler and print the top ops")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    cfg = read_config(args.config)
    classes, index = load_dict()
    t0 = time.perf_counter()
    batches, source = load_batches(args, cfg, index)
    load_s = time.perf_counter() - t0

    model = RecModel(len(classes), use_guide=cfg["use_guide"])
    if args.channels_last:
        model = model.to(memory_format=torch.channels_last)
        batches = [(x.contiguous(memory_format=torch.channels_last), y, n) for x, y, n in batches]
    model.train()
    opt = torch.optim.Adam(l2_groups(model, cfg), lr=cfg["lr"], betas=(cfg["beta1"], cfg["beta2"]),
                           eps=cfg["epsilon"])
    print(f"python {sys.version.split()[0]}, torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"batch {args.batch}, warm-up {args.warmup}, timed {args.steps}; data: {source} (loaded in {load_s:.1f} s); "
          f"use_guide {cfg['use_guide']}, {'channels_last, ' if args.channels_last else ''}Adam lr {cfg['lr']} L2 {cfg['l2']}; "
          f"trainable parameters {count_trainable(model):,}, classes {len(classes)}", flush=True)

    def step(images, labels, lengths, lr, phases=None):
        ta = time.perf_counter()
        for g in opt.param_groups:
            g["lr"] = lr
        logits = model(images)
        loss = ctc_loss(logits, labels, lengths)
        value = loss.item()
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

    times, losses, ph = [], [], [0.0, 0.0, 0.0]
    for i, (x, y, n) in enumerate(batches):
        value, dt = step(x, y, n, cfg["lr"], ph if i >= args.warmup else None)
        losses.append(value)
        if i >= args.warmup:
            times.append(dt)
        if (i + 1) % 5 == 0:
            print(f"step {i + 1}: loss {value:.4f}, step {dt:.3f} s", flush=True)
    step_s = sum(times) / len(times)
    med_s = sorted(times)[len(times) // 2] if len(times) % 2 else sum(sorted(times)[len(times) // 2 - 1:][:2]) / 2
    q = max(1, len(times) // 4)
    fastq_s = sum(sorted(times)[:q]) / q
    sps = args.batch / step_s
    fw, bw, op = (p / len(times) for p in ph)
    print("timed step times (s): " + " ".join(f"{t:.3f}" for t in times))
    print(f"timed steps: mean {step_s:.4f} s, median {med_s:.4f} s, "
          f"min {min(times):.4f} s, max {max(times):.4f} s")
    print(f"per step: forward+loss {fw:.4f} s ({fw / step_s:.0%}), zero_grad+backward {bw:.4f} s ({bw / step_s:.0%}), "
          f"Adam step {op:.4f} s ({op / step_s:.0%})")

    if args.profile:
        from torch.autograd import profiler
        with profiler.profile() as prof:
            for x, y, n in batches[:args.profile]:
                step(x, y, n, cfg["lr"])
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=25))

    print(f"RESULT python samples_per_s={sps:.3f} step_s={step_s:.4f} median_step_s={med_s:.4f} "
          f"fastest_quarter_step_s={fastq_s:.4f} forward_s={fw:.4f} "
          f"backward_s={bw:.4f} optimizer_s={op:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
