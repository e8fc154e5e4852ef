#!/usr/bin/env python3
"""The server under attack (docs/reliability.md; not a CTest test).

    python3 bench/serve_hostile/run.py [--ocrforge build/ocrforge] [--seconds 30] [--clients 2]

Starts `ocrforge serve` on a free loopback port and measures good requests
(PaddleX /ocr, one small real image each, --clients at a time, from
127.0.0.1) in three phases of --seconds each:
  1. quiet: good requests alone;
  2. slow clients: plus 50 sockets from 127.0.0.2 sending one byte every 3 s
     (the per-address cap holds 8 of them; the rest are refused, and they
     reconnect at once);
  3. slow clients and bombs: plus 50 slow sockets from 50 addresses
     (127.0.1.1-50: the cap does not apply, deadlines from accept do) and, in
     a loop, every bomb of round 3: a 60,000-deep JSON field, a 1 MB gzip body
     inflating to 1 GB, a 300 MB chunked body, textDetUnclipRatio 1e11,
     textDetLimitSideLen 4000 with limitType min, a JPEG whose fill byte hides a
     27000 x 27000 frame (read at 1/8: 3375 x 3375, within the pixel budget,
     so it is answered 200), a TIFF of 100 pages, 1e400 in a number field.
For each phase: good requests answered (and their status codes), throughput,
p50 / p99 latency, /health latency (p99, max). At the end: the server's peak
RSS (VmHWM), whether it ever stopped (restarts must be 0), and how long a
SIGTERM drain takes with 50 slow clients connected. Exits 1 when a good
request failed, the server died, or the drain took longer than 10 s.
"""
import argparse
import base64
import gzip
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def http(port, method, path, body=b"", headers=None, timeout=120, source="127.0.0.1"):
    """One request on its own connection; returns (status, seconds). status 0: no answer."""
    t0 = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    except OSError:
        return 0, time.monotonic() - t0
    try:
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {len(body)}\r\n"
        for k, v in (headers or {}).items():
            head += f"{k}: {v}\r\n"
        s.sendall(head.encode() + b"\r\n" + body)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        line = data.split(b"\r\n", 1)[0].split()
        return (int(line[1]) if len(line) > 1 else 0), time.monotonic() - t0
    except OSError:
        return 0, time.monotonic() - t0
    finally:
        s.close()


def percentile(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


class Slow(threading.Thread):
    """Sockets that send a request one byte every 3 s; reconnect when dropped."""

    def __init__(self, port, sources, stop):
        super().__init__(daemon=True)
        self.port, self.sources, self.stop = port, sources, stop

    def run(self):
        request = b"POST /ocr HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        socks = [None] * len(self.sources)
        pos = [0] * len(self.sources)
        while not self.stop.is_set():
            for i, src in enumerate(self.sources):
                if socks[i] is None:
                    try:
                        socks[i] = socket.create_connection(("127.0.0.1", self.port), timeout=2, source_address=(src, 0))
                        socks[i].setblocking(False)
                        pos[i] = 0
                    except OSError:
                        continue
                try:
                    socks[i].send(request[pos[i] % len(request):][:1])
                    pos[i] += 1
                    socks[i].recv(4096)  # an answer (429, 408) or the close: reconnect
                    socks[i].close()
                    socks[i] = None
                except BlockingIOError:
                    pass
                except OSError:
                    socks[i].close()
                    socks[i] = None
            self.stop.wait(3.0)
        for s in socks:
            if s:
                s.close()


def bombs(tmp):
    deep = b'{"file": "aGk=", "fileType": ' + b"[" * 60000 + b"]" * 60000 + b"}"
    gz = io.BytesIO()
    with gzip.GzipFile(fileobj=gz, mode="wb", compresslevel=9) as g:
        zeros = b"\0" * (1 << 20)
        for _ in range(1024):
            g.write(zeros)
    jpeg = open(os.path.join(ROOT, "tests", "data", "samples", "ch_word_3.jpg"), "rb").read()
    sof = jpeg.find(b"\xff\xc0")
    if sof < 0:
        sof = jpeg.find(b"\xff\xc2")
    lying = bytearray(jpeg)
    lying[sof + 5:sof + 7] = (27000).to_bytes(2, "big")
    lying[sof + 7:sof + 9] = (27000).to_bytes(2, "big")
    lying = bytes(lying[:sof]) + b"\xff" + bytes(lying[sof:])  # a fill byte before SOF
    tiny = base64.b64encode(jpeg).decode()
    tiff = os.path.join(tmp, "pages.tif")
    # 100 pages of a 1-pixel TIFF, little-endian, uncompressed.
    pages = 100
    out = bytearray(b"II*\0" + (8).to_bytes(4, "little"))
    entry_count = 8
    for p in range(pages):
        ifd = len(out)
        nxt = 0 if p == pages - 1 else ifd + 2 + entry_count * 12 + 4 + 1
        strip = ifd + 2 + entry_count * 12 + 4
        tags = [(256, 3, 1, 1), (257, 3, 1, 1), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                (273, 4, 1, strip), (278, 3, 1, 1), (279, 4, 1, 1)]
        out += entry_count.to_bytes(2, "little")
        for tag, typ, cnt, val in tags:
            out += tag.to_bytes(2, "little") + typ.to_bytes(2, "little") + cnt.to_bytes(4, "little") + val.to_bytes(4, "little")
        out += nxt.to_bytes(4, "little") + b"\x80"
    return [
        ("deep JSON", "POST", "/ocr", deep, {"Content-Type": "application/json"}),
        ("gzip bomb", "POST", "/ocr", gz.getvalue(), {"Content-Type": "application/json", "Content-Encoding": "gzip"}),
        ("unclip 1e11", "POST", "/ocr", json.dumps({"file": tiny, "fileType": 1, "textDetUnclipRatio": 1e11}).encode(),
         {"Content-Type": "application/json"}),
        ("side 4000 min", "POST", "/ocr", json.dumps({"file": tiny, "fileType": 1, "textDetLimitSideLen": 4000,
                                                       "textDetLimitType": "min"}).encode(), {"Content-Type": "application/json"}),
        ("1e400", "POST", "/ocr", b'{"file": "aGk=", "fileType": 1, "textDetThresh": 1e400}', {"Content-Type": "application/json"}),
        ("lying JPEG", "POST", "/v1/ocr", lying, {"Content-Type": "image/jpeg"}),
        ("100-page TIFF", "POST", "/v1/ocr", bytes(out), {"Content-Type": "image/tiff"}),
    ]


def chunked_flood(port):
    """300 MB sent chunked; returns (status, seconds)."""
    t0 = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.3", 0))
        s.sendall(b"POST /v1/ocr HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: image/jpeg\r\n\r\n")
        chunk = b"%x\r\n" % (1 << 20) + b"\0" * (1 << 20) + b"\r\n"
        for _ in range(300):
            s.sendall(chunk)
        s.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    try:
        data = s.recv(4096)
        line = data.split(b"\r\n", 1)[0].split()
        status = int(line[1]) if len(line) > 1 else 0
    except (OSError, ValueError, UnboundLocalError):
        status = 0
    return status, time.monotonic() - t0


def rss_mb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def phase(name, port, seconds, clients, good_body, server, extra=None):
    stop = threading.Event()
    lat, codes, health = [], {}, []
    lock = threading.Lock()

    def good():
        while not stop.is_set():
            st, dt = http(port, "POST", "/ocr", good_body, {"Content-Type": "application/json"})
            with lock:
                lat.append(dt)
                codes[st] = codes.get(st, 0) + 1

    def probe():
        while not stop.is_set():
            st, dt = http(port, "GET", "/health", timeout=60)
            with lock:
                health.append(dt if st == 200 else float("inf"))
            stop.wait(0.5)

    threads = [threading.Thread(target=good, daemon=True) for _ in range(clients)]
    threads.append(threading.Thread(target=probe, daemon=True))
    helpers = extra(stop) if extra else []
    for t in threads:
        t.start()
    t0 = time.monotonic()
    stop.wait(seconds)
    stop.set()
    for t in threads:
        t.join(timeout=130)
    for h in helpers:
        h.join(timeout=10)
    wall = time.monotonic() - t0
    ok = codes.get(200, 0)
    print(f"{name}: {ok} good requests answered 200 in {wall:.0f} s ({ok / wall:.2f}/s), statuses {dict(sorted(codes.items()))}, "
          f"latency p50 {percentile(lat, 50) * 1000:.0f} ms p99 {percentile(lat, 99) * 1000:.0f} ms; "
          f"/health p99 {percentile(health, 99) * 1000:.0f} ms max {max(health) * 1000 if health else float('nan'):.0f} ms "
          f"({len(health)} probes); server alive: {server.poll() is None}, peak RSS so far "
          f"{rss_mb(server.pid, 'VmHWM') if server.poll() is None else float('nan'):.0f} MB")
    return ok, codes, lat, health


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ocrforge", default=os.path.join(ROOT, "build", "ocrforge"))
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--clients", type=int, default=2)
    a = ap.parse_args()
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="serve_hostile_")
    server = subprocess.Popen([a.ocrforge, "serve", "--port", str(port), "--access_log", "", "--queue_size", "64"],
                              stderr=open(os.path.join(tmp, "server.err"), "w"))
    for _ in range(600):
        if http(port, "GET", "/ready", timeout=2)[0] == 200:
            break
        time.sleep(0.1)
    else:
        print("the server did not become ready", file=sys.stderr)
        return 1
    img = open(os.path.join(ROOT, "tests", "data", "samples", "ch_word_3.jpg"), "rb").read()
    good_body = json.dumps({"file": base64.b64encode(img).decode(), "fileType": 1, "visualize": False}).encode()
    failures = []

    quiet = phase("1. quiet", port, a.seconds, a.clients, good_body, server)

    def slow_one_address(stop):
        s = Slow(port, ["127.0.0.2"] * 50, stop)
        s.start()
        return [s]
    slow = phase("2. 50 slow clients from one address", port, a.seconds, a.clients, good_body, server, slow_one_address)

    bomb_list = bombs(tmp)
    bomb_results = {}

    def attack(stop):
        s = Slow(port, [f"127.0.1.{i}" for i in range(1, 51)], stop)

        def loop():
            while not stop.is_set():
                for name, method, path, body, headers in bomb_list:
                    st, dt = http(port, method, path, body, headers, timeout=60, source="127.0.0.3")
                    bomb_results.setdefault(name, set()).add(st)
                st, dt = chunked_flood(port)
                bomb_results.setdefault("300 MB chunked", set()).add(st)
        b = threading.Thread(target=loop, daemon=True)
        s.start()
        b.start()
        return [s, b]
    attacked = phase("3. 50 slow clients from 50 addresses + bombs", port, a.seconds, a.clients, good_body, server, attack)
    print("bombs answered: " + ", ".join(f"{k} {sorted(v)}" for k, v in bomb_results.items()))

    alive = server.poll() is None
    peak = rss_mb(server.pid, "VmHWM") if alive else float("nan")
    print(f"server peak RSS {peak:.0f} MB; restarts 0 (one process, pid {server.pid}, alive: {alive})")

    stop = threading.Event()
    drain_slow = Slow(port, [f"127.0.2.{i}" for i in range(1, 51)], stop)
    drain_slow.start()
    time.sleep(2)
    t0 = time.monotonic()
    server.terminate()
    try:
        rc = server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        rc = None
        server.kill()
    drain = time.monotonic() - t0
    stop.set()
    print(f"SIGTERM drain with 50 slow clients connected: {drain:.1f} s, exit code {rc}")

    for name, (ok, codes, lat, health) in (("quiet", quiet), ("slow", slow), ("attacked", attacked)):
        if any(c != 200 for c in codes):
            failures.append(f"{name}: good requests got {codes}")
        if health and max(health) == float("inf"):
            failures.append(f"{name}: a /health probe failed")
    if not alive:
        failures.append("the server died")
    if drain > 10 or rc != 0:
        failures.append(f"drain {drain:.1f} s, exit code {rc}")
    for f in failures:
        print("FAILED: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
