#!/usr/bin/python3
"""Peer for fine-tuning throughput: the shipped PP-OCRv4 recognizer's ONNX
graph run as a trainable PyTorch module in Python (Debian's python3-torch and
python3-onnx), the way ocrforge's OnnxGraphModule runs it in C++: the same
weight / fixed-value split, batch norm with its running statistics, CTC on
the logits before the final Softmax, Adam.

    /usr/bin/python3 bench/train_speed/onnx_graph_peer.py MODEL.onnx [STEPS] [BATCH] [THREADS]

Prints `samples/s <value>` over the timed steps (after 2 warm-up steps).
The input is a fixed random batch (3 x 48 x 320) with random 10-character
labels: model compute only, no data loading or augmentation, which the C++
trainer's figure includes; a ratio against it is conservative for C++.
Covers the operators of the PP-OCR rec / cls graphs.
"""
import sys
import time

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper

WEIGHT_OPS = {"MatMul", "Add", "Sub", "Mul", "Div"}


def attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def weight_slot(node, slot):
    if node.op_type in ("Conv", "ConvTranspose", "BatchNormalization"):
        return slot in (1, 2)
    return node.op_type in WEIGHT_OPS


class OnnxGraph(torch.nn.Module):
    def __init__(self, path):
        super().__init__()
        model = onnx.load(path)
        consts = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
        self.nodes = []
        for n in model.graph.node:
            if n.op_type == "Constant":
                consts[n.output[0]] = numpy_helper.to_array(attrs(n)["value"])
            else:
                self.nodes.append(n)
        uses = {}
        for n in self.nodes:
            for s, v in enumerate(n.input):
                if v in consts:
                    uses[v] = uses.get(v, True) and weight_slot(n, s)
        self.values = {}
        self.params = torch.nn.ParameterDict()
        for k, arr in consts.items():
            t = torch.from_numpy(np.array(arr))
            key = k.replace(".", "_")
            if uses.get(k) and t.dtype == torch.float32 and t.numel() > 1:
                self.params[key] = torch.nn.Parameter(t)
                self.values[k] = key
            else:
                self.register_buffer(key, t)
                self.values[k] = key
        self.input = [i.name for i in model.graph.input if i.name not in consts][0]
        self.output = model.graph.output[0].name
        last = self.nodes[-1]
        self.logits = last.input[0] if last.op_type in ("Softmax", "Sigmoid") else self.output

    def const(self, name):
        key = self.values[name]
        return self.params[key] if key in self.params else getattr(self, key)

    def forward(self, x, want=None):
        want = want or self.output
        env = {self.input: x}
        for n in self.nodes:
            ins = [env[v] if v in env else (self.const(v) if v else None) for v in n.input]
            out = run(n, ins)
            env[n.output[0]] = out
            if n.output[0] == want:
                return out
        return env[want]


def run(n, x):
    a = attrs(n)
    op = n.op_type
    if op in ("Add", "Sub", "Mul", "Div", "Pow"):
        return {"Add": torch.add, "Sub": torch.sub, "Mul": torch.mul, "Div": torch.div, "Pow": torch.pow}[op](x[0], x[1])
    if op == "Sqrt":
        return torch.sqrt(x[0])
    if op == "MatMul":
        return torch.matmul(x[0], x[1])
    if op == "Relu":
        return F.relu(x[0])
    if op == "Sigmoid":
        return torch.sigmoid(x[0])
    if op == "HardSigmoid":
        return torch.clamp(x[0] * a.get("alpha", 0.2) + a.get("beta", 0.5), 0, 1)
    if op == "Clip":
        lo = a.get("min", None) if len(x) < 2 or x[1] is None else x[1].item()
        hi = a.get("max", None) if len(x) < 3 or x[2] is None else x[2].item()
        return torch.clamp(x[0], lo, hi)
    if op == "Conv":
        p = a.get("pads", [0, 0, 0, 0])
        return F.conv2d(x[0], x[1], x[2] if len(x) > 2 else None, a.get("strides", [1, 1]), (p[0], p[1]),
                        a.get("dilations", [1, 1]), a.get("group", 1))
    if op == "BatchNormalization":
        return F.batch_norm(x[0], x[3], x[4], x[1], x[2], False, 0.0, a.get("epsilon", 1e-5))
    if op == "GlobalAveragePool":
        return F.adaptive_avg_pool2d(x[0], 1)
    if op == "AveragePool":
        p = a.get("pads", [0, 0, 0, 0])
        return F.avg_pool2d(x[0], a["kernel_shape"], a.get("strides"), (p[0], p[1]),
                            count_include_pad=bool(a.get("count_include_pad", 0)))
    if op == "Shape":
        return torch.tensor(x[0].shape, dtype=torch.int64)
    if op == "Cast":
        return x[0].to({1: torch.float32, 6: torch.int32, 7: torch.int64, 9: torch.bool}[a["to"]])
    if op == "Slice":
        out = x[0]
        for ax, s, e in zip(a["axes"], a["starts"], a["ends"]):
            out = out.narrow(ax, s, min(e, out.shape[ax]) - s)
        return out
    if op == "Concat":
        return torch.cat(x, a["axis"])
    if op == "Reshape":
        shape = [int(v) for v in x[1].tolist()]
        shape = [x[0].shape[i] if v == 0 else v for i, v in enumerate(shape)]
        return x[0].reshape(shape)
    if op == "Transpose":
        return x[0].permute(a["perm"])
    if op == "Squeeze":
        out = x[0]
        for ax in sorted(a["axes"], reverse=True):
            out = out.squeeze(ax)
        return out
    if op == "ReduceMean":
        return x[0].mean(dim=a["axes"], keepdim=bool(a.get("keepdims", 1)))
    if op == "Softmax":
        return torch.softmax(x[0], a.get("axis", 1))
    raise SystemExit(f"onnx_graph_peer: operator {op} is not covered")


def main():
    path = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    batch = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    torch.set_num_threads(int(sys.argv[4]) if len(sys.argv) > 4 else 2)
    torch.manual_seed(0)
    m = OnnxGraph(path)
    m.train()
    opt = torch.optim.Adam(m.parameters(), 1e-4)
    x = torch.randn(batch, 3, 48, 320)
    logits = m(x, m.logits)
    classes = logits.shape[-1]
    labels = torch.randint(1, classes, (batch, 10))
    ctc = torch.nn.CTCLoss(blank=0, reduction="mean", zero_infinity=True)

    def step():
        opt.zero_grad()
        z = m(x, m.logits).log_softmax(-1).permute(1, 0, 2)
        loss = ctc(z, labels, torch.full((batch,), z.shape[0], dtype=torch.long), torch.full((batch,), 10, dtype=torch.long))
        loss.backward()
        opt.step()

    for _ in range(2):
        step()
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    dt = time.perf_counter() - t0
    print(f"samples/s {steps * batch / dt:.3f}")


if __name__ == "__main__":
    main()
