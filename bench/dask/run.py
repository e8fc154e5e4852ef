"""Throughput of batch reading on Dask (docs/scale-out.md) on this machine.

Load: the ICDAR2015 scene images of /work/shared/data/det_toy/imgs (1280 x
720; 10 files), copied --repeat times under distinct names (30 by default),
no pictures drawn (--visualize false), PP-OCRv4 (ch), CPU. Four sides read
the same folder, alternating (each round rotates the order of the sides):

  cli     one `ocrforge ocr --cpu_threads 2` process (pipelined, the default)
  cli-1   `ocrforge ocr --cpu_threads 1 --pipelined false`: one image after
          the other on one thread, dask-1's work in one process, so
          dask-1 / cli-1 is what the Dask path costs
  dask-1  ocrforge.dask.read_many on a local cluster of 1 worker process, 1 thread
  dask-2  the same on 2 worker processes, 1 thread each

Each side's pages/s is pages / the reading time: for the CLI the time it
reports after its models are loaded, for Dask read_many's own loop (the
workers loaded their models once, before the first round; that cost is
reported apart). Wall times, everything included, are shown too. Then the
overhead per unit: empty units (the unit machinery on an image, no page
read) one at a time (a round trip: client -> scheduler -> worker -> client)
and many in flight, and a no-op Dask task for comparison.

    PYTHONPATH=build/python /usr/bin/python3 bench/dask/run.py [--rounds 3] [--repeat 3] [--json out.json]

Skips (exit 0, a message) when the images are absent.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = "/work/shared/data/det_toy/imgs"
FLAGS = ["--cpu_threads", "1", "--visualize", "false"]


def prepare(folder, repeat):
    names = sorted(n for n in os.listdir(IMAGES) if n.lower().endswith((".jpg", ".png")))
    for r in range(repeat):
        for n in names:
            shutil.copy(os.path.join(IMAGES, n), os.path.join(folder, f"r{r}_{n}"))
    return len(names) * repeat


def run_cli(binary, images, out, threads):
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    one = ["--pipelined", "false"] if threads == 1 else []  # the pipelined loop runs stages on more threads
    proc = subprocess.run([binary, "ocr", "--image_dir", images, "--draw_img_save_dir", out,
                           "--cpu_threads", str(threads), "--visualize", "false", *one],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    m = re.search(r"(\d+) images, (\d+) failed, ([\d.]+) s", proc.stderr)
    return {"pages": int(m.group(1)), "seconds": float(m.group(3)), "wall": wall}


def run_dask(client, images, out):
    from ocrforge.dask import read_many  # noqa: PLC0415

    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    s = read_many(client, [images], out, flags=FLAGS)
    wall = time.perf_counter() - t
    assert not s["failed"], s["failed"]
    return {"pages": s["pages"], "seconds": s["seconds"], "wall": wall, "load_s": s["model_load_s"]["max"]}


def unit_overhead(client, image, scratch, n):
    """ms per empty unit (count=0: the file is opened, no page read)."""
    from distributed import wait  # noqa: PLC0415

    from ocrforge import _batch_worker, dask as odask  # noqa: PLC0415

    name, _ = odask._register(client, odask._flag_list(odask.ocr_flags(FLAGS)["flags"]))
    state = os.path.join(scratch, "state")
    os.makedirs(os.path.join(state, "started"), exist_ok=True)

    def spec(i):
        return {"id": f"{image}#{i}", "key": f"empty{i}", "file": image, "out_dir": os.path.join(scratch, "o"),
                "stem": "x", "first": 0, "count": 0, "stage": ""}

    def noop(i):
        return i

    out = {}
    for label, fn, args in (("empty unit", _batch_worker.run_unit, lambda i: (name, spec(i), state, 3, None)),
                            ("no-op task", noop, lambda i: (i,))):
        t = time.perf_counter()
        for i in range(n):  # one at a time: the round trip
            client.submit(fn, *args(i), pure=False).result()
        sequential = (time.perf_counter() - t) / n * 1000
        t = time.perf_counter()
        futures = [client.submit(fn, *args(i), pure=False) for i in range(n)]
        wait(futures)
        for f in futures:
            assert f.status == "finished"
        pipelined = (time.perf_counter() - t) / n * 1000
        out[label] = {"sequential_ms": round(sequential, 2), "in_flight_ms": round(pipelined, 2)}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--units", type=int, default=200, help="empty units for the overhead figures")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "ocrforge"))
    ap.add_argument("--json")
    args = ap.parse_args()
    if not os.path.isdir(IMAGES):
        print(f"skipped: {IMAGES} is absent (ICDAR2015 scenes of /work/shared/data)")
        return 0
    from distributed import Client, LocalCluster  # noqa: PLC0415

    work = tempfile.mkdtemp(prefix="ocrforge-dask-bench-")
    images = os.path.join(work, "in")
    os.makedirs(images)
    pages = prepare(images, args.repeat)
    print(f"{pages} images ({IMAGES} x {args.repeat}), {args.rounds} rounds, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f} (other processes compete when it is over 0)")
    clusters, start = {}, {}
    for n in (1, 2):
        t = time.perf_counter()
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
        clusters[f"dask-{n}"] = (cluster, Client(cluster))
        start[f"dask-{n}"] = round(time.perf_counter() - t, 2)  # worker processes started, imports done
    results = {"cli": [], "cli-1": [], "dask-1": [], "dask-2": []}
    try:
        load = {}
        for side, (_, client) in clusters.items():  # models loaded once per worker, before timing
            first = os.path.join(images, sorted(os.listdir(images))[0])
            r = run_dask(client, first, os.path.join(work, "warm-" + side))
            load[side] = r["load_s"]
        order = list(results)
        for rnd in range(args.rounds):
            for side in order[rnd % len(order):] + order[:rnd % len(order)]:
                out = os.path.join(work, "out-" + side)
                if side.startswith("cli"):
                    r = run_cli(args.binary, images, out, 1 if side == "cli-1" else 2)
                else:
                    r = run_dask(clusters[side][1], images, out)
                results[side].append(r)
                print(f"round {rnd + 1} {side:7s} {r['pages'] / r['seconds']:6.2f} pages/s "
                      f"({r['seconds']:.2f} s reading, {r['wall']:.2f} s wall)", flush=True)
        overhead = unit_overhead(clusters["dask-1"][1], os.path.join(images, sorted(os.listdir(images))[0]), work,
                                 args.units)
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()
        shutil.rmtree(work, ignore_errors=True)
    print("\n| side | pages/s (median) | reading s | wall s |\n|---|---|---|---|")
    table = {}
    for side, rs in results.items():
        rate = statistics.median(r["pages"] / r["seconds"] for r in rs)
        table[side] = {"pages_per_s": round(rate, 3), "rounds": rs}
        print(f"| {side} | {rate:.2f} | {statistics.median(r['seconds'] for r in rs):.2f} | "
              f"{statistics.median(r['wall'] for r in rs):.2f} |")
    print(f"\nlocal cluster start (processes, imports), s: {start}")
    print(f"model load per worker process (in the plugin), s: {load}")
    print(f"overhead per unit ({args.units} units, 1 worker): {overhead}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"pages": pages, "results": table, "cluster_start_s": start, "model_load_s": load,
                       "overhead": overhead, "loadavg": os.getloadavg()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
