"""Cost of the Python layer, and threads on one PaddleOCR object.

    PYTHONPATH=build/python python3 bench/python_overhead.py --image_dir tests/data/samples --rounds 6

1. Overhead: per-image time of PaddleOCR.ocr(path) against the same pipeline
   driven from C++ in the same process (Pool._bench_native: read_image +
   OcrPipeline::run, no Python conversion), on each image in turn, the side
   that goes first alternating image by image and round by round (A B B A
   ...) so both see the same machine load. Wall time and the process's CPU
   time (all its threads: less disturbed by other processes on a shared
   machine) are summed per round. Reported: ms per image (median over
   rounds) and the ratios Python / C++ (median of the per-round ratios).
2. Threads: images per second with 1 thread and with --threads threads
   calling ocr() on one object (each thread the whole list, in its own
   order; one thread does the list --threads times, so the work is equal),
   alternating 1 and N every round. Every pipeline the threads need is
   loaded and warmed before timing.
The load average is printed at the start and the end (the machine is shared).
"""
import argparse
import os
import statistics
import sys
import threading
import time


def load():
    with open("/proc/loadavg", encoding="ascii") as f:
        return " ".join(f.read().split()[:3])


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000


def threaded_pass(ocr, paths, threads):
    """Wall seconds for `threads` threads each reading all of `paths` (1 thread: `reps` times)."""
    def work(k, reps):
        order = paths[k % len(paths):] + paths[:k % len(paths)]
        for _ in range(reps):
            for p in order:
                ocr.ocr(p)

    t = time.perf_counter()
    if threads == 1:
        work(0, REPS[0])
    else:
        ts = [threading.Thread(target=work, args=(k, 1)) for k in range(threads)]
        for x in ts:
            x.start()
        for x in ts:
            x.join()
    return time.perf_counter() - t


REPS = [1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--image_dir", default="tests/data/samples")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--cpu_threads", type=int, default=None, help="ONNX Runtime threads per pipeline (default: ocrforge's)")
    ap.add_argument("--skip_threads", action="store_true")
    args = ap.parse_args()

    from ocrforge import PaddleOCR, _ocrforge

    paths = _ocrforge.list_images(args.image_dir)
    kw = {"show_log": False}
    if args.cpu_threads:
        kw["cpu_threads"] = args.cpu_threads
    ocr = PaddleOCR(**kw)
    pool = ocr._pool()
    print(f"load average at start: {load()}")
    print(f"{len(paths)} images from {args.image_dir}, cpu_threads={pool.params['cpu_threads']}, "
          f"{os.cpu_count()} CPUs, ocrforge {_ocrforge.__version__}")
    for p in paths:  # warm-up of the (shared) pipeline
        ocr.ocr(p)
        pool._bench_native([p])

    sides = {"py": lambda p: ocr.ocr(p), "cpp": lambda p: pool._bench_native([p])}
    rounds = {"py": {"wall": [], "cpu": []}, "cpp": {"wall": [], "cpu": []}}
    for r in range(args.rounds):
        total = {s: [0.0, 0.0] for s in sides}
        for i, p in enumerate(paths):
            for side in (("py", "cpp") if (r + i) % 2 == 0 else ("cpp", "py")):
                w, c = timed(lambda: sides[side](p))
                total[side][0] += w
                total[side][1] += c
        for side in sides:
            rounds[side]["wall"].append(total[side][0] / len(paths))
            rounds[side]["cpu"].append(total[side][1] / len(paths))
        print(f"round {r + 1}: wall python {rounds['py']['wall'][-1]:.1f} / c++ {rounds['cpp']['wall'][-1]:.1f} "
              f"ms/img, cpu python {rounds['py']['cpu'][-1]:.1f} / c++ {rounds['cpp']['cpu'][-1]:.1f} ms/img")
    ratio = {k: [a / b for a, b in zip(rounds["py"][k], rounds["cpp"][k])] for k in ("wall", "cpu")}
    med = statistics.median
    print(f"OVERHEAD wall python={med(rounds['py']['wall']):.1f} cpp={med(rounds['cpp']['wall']):.1f} ms/img "
          f"ratio={med(ratio['wall']):.3f} (min {min(ratio['wall']):.3f}, max {max(ratio['wall']):.3f}); "
          f"cpu python={med(rounds['py']['cpu']):.1f} cpp={med(rounds['cpp']['cpu']):.1f} ms/img "
          f"ratio={med(ratio['cpu']):.3f} (min {min(ratio['cpu']):.3f}, max {max(ratio['cpu']):.3f})")

    if not args.skip_threads:
        n = args.threads
        REPS[0] = n
        # Load and warm the n pipelines the threads will lease.
        threaded_pass(ocr, paths, n)
        print(f"pipelines loaded: {pool.instances}")
        one, many = [], []
        for r in range(args.rounds):
            order = (1, n) if r % 2 == 0 else (n, 1)
            for t in order:
                secs = threaded_pass(ocr, paths, t)
                ips = n * len(paths) / secs
                (one if t == 1 else many).append(ips)
                print(f"round {r + 1}: {t} thread(s) {ips:.2f} images/s")
        print(f"THREADS one_ips={statistics.median(one):.2f} {n}_ips={statistics.median(many):.2f} "
              f"scaling={statistics.median(many) / statistics.median(one):.2f}")
    print(f"load average at end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
