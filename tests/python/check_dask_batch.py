"""Batch reading on a local Dask cluster (ocrforge.dask, ocrforge-batch;
docs/scale-out.md): a scheduler and 2 worker processes (1 thread each) on
127.0.0.1 read 40 images in two folders holding the same file names, a
5-page PDF split into units of 2 pages, and a poison input that kills every
worker process reading it (dask_poison_preload.py). One worker is SIGKILLed
mid-unit. Then: every output exists once and equals `ocrforge ocr`'s on the
same folder with the same flags (timing_ms and the PDF's random /ID aside:
they differ between two CLI runs too); the poison is named in the failures;
a rerun reads nothing; the scheduler going away ends the client with a
clear error, and the rerun on a new cluster reads only the rest.

Not collected by Python.Pytest (its name): CTest runs it as Python.DaskBatch
(tests/python/CMakeLists.txt), about 45 s on 2 cores.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import BINARY_DIR, SAMPLES

distributed = pytest.importorskip("distributed")

HERE = os.path.dirname(os.path.abspath(__file__))
# Small pictures (about 0.2 s each on one core), so 40 of them stay quick.
IMAGES = ["ch_word_3.jpg", "imgs_ger_1.jpg", "ch_word_2.jpg", "imgs_en_img623.jpg", "ch_word_4.jpg"]
PDF_PAGES = ["imgs_ger_1.jpg", "ch_word_3.jpg", "imgs_en_img623.jpg", "ch_word_2.jpg", "ch_word_4.jpg"]
FLAGS = ["--cpu_threads", "1", "--output_format", "txt,hocr,alto,tsv,json,pdf"]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(BINARY_DIR, "python"), HERE, env.get("PYTHONPATH", "")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


class Cluster:
    """`dask scheduler` and `dask worker --nworkers 2 --nthreads 1`, as a user starts them."""

    def __init__(self, tmp):
        self.file = os.path.join(tmp, f"scheduler-{time.monotonic_ns()}.json")
        self.log = open(os.path.join(tmp, "cluster.log"), "a")
        py = sys.executable
        self.scheduler = subprocess.Popen(
            [py, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", self.file], env=_env(), stdout=self.log, stderr=self.log, start_new_session=True)
        deadline = time.monotonic() + 60
        while not os.path.exists(self.file) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.2)
        with open(self.file) as f:
            self.address = json.load(f)["address"]
        self.workers = subprocess.Popen(
            [py, "-m", "distributed.cli.dask_worker", self.address, "--nworkers", "2", "--nthreads", "1",
             "--no-dashboard", "--host", "127.0.0.1", "--death-timeout", "20",
             "--local-directory", os.path.join(tmp, "dask-worker-space"),
             "--preload", os.path.join(HERE, "dask_poison_preload.py")],
            env=_env(), stdout=self.log, stderr=self.log, start_new_session=True)
        with distributed.Client(self.address, timeout=60) as c:
            c.wait_for_workers(2, timeout=120)  # slow when other jobs load the machine

    def stop(self):
        for p in (self.workers, self.scheduler):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)  # only the process groups started here
            p.wait()
        self.log.close()


def _batch(cluster, inputs, out, extra=()):
    cmd = [sys.executable, "-m", "ocrforge.batch", "--scheduler", cluster.address, *inputs, "--out", out,
           "--unit_pages", "2", "--max_tries", "2", "--progress", "0", "--summary_json", out + ".summary.json",
           *FLAGS, *extra]
    return subprocess.Popen(cmd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _unit_records(out):
    path = os.path.join(out, ".ocrforge-batch", "manifest.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.endswith("\n") and '"kind": "unit"' in line]


def _kill_a_reading_worker(out, after_units, poison_key, killed):
    """SIGKILLs the worker process of a unit in progress (its marker file
    names the pid) once `after_units` units are done: mid-unit for sure."""
    started = os.path.join(out, ".ocrforge-batch", "started")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not killed:
        if len(_unit_records(out)) >= after_units and os.path.isdir(started):
            for name in os.listdir(started):
                if name == poison_key:
                    continue
                try:
                    with open(os.path.join(started, name)) as f:
                        pid = int(re.findall(r"^start \S+ pid (\d+)", f.read(), re.M)[-1])
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        assert b"python" in f.read()
                    os.kill(pid, signal.SIGKILL)
                    killed.append((name, pid))
                    return
                except (OSError, IndexError, AssertionError):
                    continue
        time.sleep(0.02)


def _files(folder):
    out = set()
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != ".ocrforge-batch"]
        out.update(os.path.relpath(os.path.join(root, n), folder) for n in names)
    return out


def _same(a, b):
    with open(a, "rb") as f:
        x = f.read()
    with open(b, "rb") as f:
        y = f.read()
    if a.endswith("_res.json"):  # each run's own times
        x, y = (re.sub(rb'"timing_ms": \{[^}]*\}', b"", v) for v in (x, y))
    if a.endswith(".pdf"):  # qpdf's random document ID
        x, y = (re.sub(rb"/ID \[<[0-9a-f]+><[0-9a-f]+>\]", b"", v) for v in (x, y))
    return x == y


def _assert_equal_to_cli(batch_dir, cli_dir):
    assert _files(batch_dir) == _files(cli_dir)
    differ = [f for f in sorted(_files(cli_dir)) if not _same(os.path.join(batch_dir, f), os.path.join(cli_dir, f))]
    assert not differ, differ


def _assert_assembly_runs_twice(cluster, root):
    """Dask runs a finished task again when the worker holding its result dies
    before the client fetched it: the documents of a split PDF, assembled a
    second time from the same staged pages, are the same as `ocrforge ocr`'s."""
    from ocrforge import _batch_worker, dask as odask  # noqa: PLC0415

    state = os.path.join(root, "twice", ".ocrforge-batch")
    out = os.path.join(root, "twice", "a")
    os.makedirs(os.path.join(state, "started"))
    pdf = os.path.join(root, "in", "a", "doc.pdf")
    with distributed.Client(cluster.address, timeout=60) as client:
        name, _ = odask._register(client, odask._flag_list(odask.ocr_flags(FLAGS)["flags"]))
        stages = [os.path.join(state, "staged", f"{first:08d}.bin") for first in (0, 2, 4)]
        units = [client.submit(_batch_worker.run_unit, name,
                               {"id": f"u{first}", "key": f"u{first}", "file": pdf, "out_dir": out, "stem": "doc",
                                "first": first, "count": min(2, 5 - first), "stage": stage}, state, 2, None,
                               pure=False) for first, stage in zip((0, 2, 4), stages)]
        assert [u.result()["status"] for u in units] == ["done"] * 3
        spec = {"key": "doc", "file": pdf, "out_dir": out, "stem": "doc"}
        for _ in range(2):
            got = client.submit(_batch_worker.assemble, name, spec, stages, state, 2, None, pure=False).result()
            assert got["status"] == "done", got
            documents = sorted(f for f in _files(out) if f.startswith("doc.") and not f.endswith(".jpg"))
            assert len(documents) == 6, documents  # txt, hocr, alto, tsv, json, pdf
            differ = [f for f in documents if not _same(os.path.join(out, f), os.path.join(root, "cli", "a", f))]
            assert not differ, differ


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """a/ and b/: 20 images each under the same names img_00.jpg ... (and a
    5-page PDF in a/); p/poison.jpg; and `ocrforge ocr`'s output for a/ and b/."""
    sys.path.insert(0, HERE)
    import sample_documents  # noqa: PLC0415

    root = tmp_path_factory.mktemp("dask")
    for folder in ("a", "b", "p"):
        os.makedirs(root / "in" / folder)
    for i in range(20):
        for k, folder in enumerate(("a", "b")):
            shutil.copy(os.path.join(SAMPLES, IMAGES[(i + k) % len(IMAGES)]), root / "in" / folder / f"img_{i:02d}.jpg")
    sample_documents.write_pdf(str(root / "in" / "a" / "doc.pdf"), [os.path.join(SAMPLES, n) for n in PDF_PAGES],
                               dpi=300)
    shutil.copy(os.path.join(SAMPLES, "ch_word_3.jpg"), root / "in" / "p" / "poison.jpg")
    for folder in ("a", "b"):
        proc = subprocess.run([os.path.join(BINARY_DIR, "ocrforge"), "ocr", "--image_dir", str(root / "in" / folder),
                               "--draw_img_save_dir", str(root / "cli" / folder), *FLAGS],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
    return root


def test_worker_killed_and_poison(inputs):
    root = str(inputs)
    out = os.path.join(root, "out")
    ins = [os.path.join(root, "in", f) for f in ("a", "b", "p")]
    import hashlib  # noqa: PLC0415

    poison_key = hashlib.sha1(os.path.join(root, "in", "p", "poison.jpg#0").encode()).hexdigest()[:20]
    cluster = Cluster(root)
    try:
        proc = _batch(cluster, ins, out)
        killed = []
        killer = threading.Thread(target=_kill_a_reading_worker, args=(out, 10, poison_key, killed))
        killer.start()
        _, err = proc.communicate(timeout=240)
        killer.join()
        assert proc.returncode == 1, err  # 1: an input failed (the poison)
        assert killed, "no worker was killed mid-unit"
        with open(out + ".summary.json") as f:
            summary = json.load(f)
        # The poison, by name, and nothing else.
        assert [f["input"] for f in summary["failed"]] == [os.path.join(root, "in", "p", "poison.jpg")], err
        why = summary["failed"][0]["error"]
        assert "given up after 2 tries" in why and "died 2 time" in why, why
        assert "poison.jpg" in err
        assert summary["retries"] >= 1  # the killed worker's unit was read again elsewhere
        assert summary["pages"] == 45 and summary["units"] == 44  # 40 images + 5 pages in 3 units + the poison
        # Every output once, as the CLI writes it.
        _assert_equal_to_cli(os.path.join(out, "a"), os.path.join(root, "cli", "a"))
        _assert_equal_to_cli(os.path.join(out, "b"), os.path.join(root, "cli", "b"))
        assert _files(os.path.join(out, "p")) == {"system_results.txt"}
        units = [r["unit"] for r in _unit_records(out)]
        assert len(units) == len(set(units)) == 44
        assert os.listdir(os.path.join(out, ".ocrforge-batch", "started")) == []
        assert not os.listdir(os.path.join(out, ".ocrforge-batch", "staged"))  # removed once recorded

        _assert_assembly_runs_twice(cluster, root)

        # A rerun reads nothing: everything is recorded (the poison as failed).
        proc = _batch(cluster, ins, out)
        _, err = proc.communicate(timeout=120)
        with open(out + ".summary.json") as f:
            summary = json.load(f)
        assert proc.returncode == 1 and summary["units_this_run"] == 0, err
        assert summary["failed"][0]["earlier"] is True
        _assert_equal_to_cli(os.path.join(out, "b"), os.path.join(root, "cli", "b"))

        # The same lines as a Dask dataframe, nothing written.
        from ocrforge.dask import ocr_dataframe  # noqa: PLC0415

        with distributed.Client(cluster.address, timeout=60) as client:
            df = ocr_dataframe([os.path.join(root, "in", "b")], client=client, flags=FLAGS[:2]).compute()
        assert list(df.columns) == ["file", "page", "box", "text", "score", "error"]
        with open(os.path.join(root, "cli", "b", "system_results.txt"), encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        cli = {name: [d["transcription"] for d in json.loads(lines)] for name, lines in rows}
        got = {os.path.basename(k): list(g["text"]) for k, g in df.groupby("file", sort=False)}
        assert got == {k: v for k, v in cli.items() if v}
    finally:
        cluster.stop()


def test_scheduler_lost_then_resumed(inputs):
    root = str(inputs)
    out = os.path.join(root, "out-lost")
    ins = [os.path.join(root, "in", "b")]
    cluster = Cluster(root)
    try:
        proc = _batch(cluster, ins, out)
        deadline = time.monotonic() + 120
        while len(_unit_records(out)) < 4 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        os.killpg(cluster.scheduler.pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 3, err
        assert "lost the Dask scheduler" in err and "run the same command again" in err
    finally:
        cluster.stop()
    done_before = len(_unit_records(out))
    assert 4 <= done_before < 20
    cluster = Cluster(root)
    try:
        proc = _batch(cluster, ins, out)
        _, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        with open(out + ".summary.json") as f:
            summary = json.load(f)
        assert summary["units_this_run"] == 20 - done_before
        _assert_equal_to_cli(out, os.path.join(root, "cli", "b"))
    finally:
        cluster.stop()
