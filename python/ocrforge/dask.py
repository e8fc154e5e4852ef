"""Batch reading on a Dask cluster (docs/scale-out.md).

    from distributed import Client
    from ocrforge.dask import read_many
    client = Client("tcp://scheduler:8786")
    summary = read_many(client, ["/data/scans"], out="/data/ocr", lang="en")

``read_many`` writes, for every input, the files ``ocrforge ocr`` writes
(``<name>_res.json``, the picture or the ``--output_format`` documents, and
per output folder ``system_results.txt``), equal to the CLI's for the same
files and flags; it is exactly-once and resumable through a manifest in
``OUT/.ocrforge-batch`` (_batch_manifest.py). ``ocr_bag`` / ``ocr_dataframe``
give the lines as a Dask bag / dataframe instead (file, page, box, text,
score, error), nothing written.

Settings are PaddleOCR's keywords (``lang="en"``, ``use_angle_cls=True``,
...) and/or ``ocrforge ocr`` flags (``flags=["--det_db_box_thresh=0.5"]``);
the defaults are ``ocrforge ocr``'s (PDF pages at 300 dpi, not the 144 of
``PaddleOCR()``), since the files are the CLI's.
"""
import collections
import hashlib
import json
import os
import shutil
import sys
import time
from concurrent.futures import CancelledError

try:
    import dask
    import dask.bag
    from distributed import wait
    from distributed.scheduler import KilledWorker
except ModuleNotFoundError as e:  # optional: the rest of ocrforge runs without Dask
    raise ModuleNotFoundError(
        f"ocrforge.dask needs Dask ({e.name} is missing): install Debian's python3-dask and python3-distributed "
        "(scripts/bootstrap.sh does), or `pip install dask distributed`"
    ) from e

from . import _batch_manifest, _batch_plan, _batch_worker, _keywords, _ocrforge

__all__ = ["read_many", "ocr_bag", "ocr_dataframe", "ocr_flags", "SchedulerLost"]

MAX_TRIES = 3  # starts of one unit before it is given up (a poison input)


class SchedulerLost(RuntimeError):
    """The Dask scheduler went away mid-run; the manifest holds what was done."""


def ocr_flags(flags=(), output_format=None, **keywords):
    """PaddleOCR keywords plus ``ocrforge ocr`` flags -> the checked command
    line, as ``_ocrforge.batch_flags`` reads it ({"flags": {name: value},
    "positional": [...], "formats": [...], "visualize": bool}). ValueError
    names a bad keyword or flag."""
    args = []
    if keywords:
        settings = _keywords.resolve(keywords)
        args += [f"--{k}={v}" for k, v in settings.flags.items()]
        if "lang" in keywords:
            args.append(f"--lang={settings.lang}")
    args += [os.fspath(a) for a in flags]
    if output_format:
        args.append("--output_format=" + (output_format if isinstance(output_format, str) else ",".join(output_format)))
    return _ocrforge.batch_flags(args)


def _flag_list(given):
    return [f"--{k}={v}" for k, v in sorted(given.items()) if k not in ("image_dir", "draw_img_save_dir")]


def _register(client, flag_list):
    """Registers the reader plugin (each worker loads its pipeline, once);
    returns its name and the seconds registration took (the slowest
    worker's model load)."""
    plugin = _batch_worker.ReaderPlugin(flag_list)
    t = time.perf_counter()
    client.register_worker_plugin(plugin, name=plugin.name)
    return plugin.name, time.perf_counter() - t


def _total_threads(client):
    return max(1, sum(client.nthreads().values()))


def _key(text):
    return hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:20]


# ------------------------------------------------------------------ read_many


def read_many(client, inputs, out, *, flags=(), output_format=None, unit_pages=None, max_tries=MAX_TRIES,
              unit_timeout=None, retry_failed=False, recursive=False, progress=None, **keywords):
    """Reads `inputs` (files and folders) on the cluster of `client`, writing
    every input's files under `out`; returns the run's summary (a dict:
    pages, pages_per_s, failed, retries, ... ; also in
    OUT/.ocrforge-batch/summary.json).

    unit_pages: pages of a PDF per unit (None: enough units for every
    worker thread to get two of a long PDF, at most 32 pages). max_tries:
    starts of a unit (its worker dying, an error that may pass) before it is
    reported failed. unit_timeout: seconds one unit may run before its
    worker process is ended (and the unit tried again). retry_failed: try
    the units an earlier run reported failed again. progress: print a line
    on stderr every this many seconds. Other keywords: PaddleOCR's
    (lang="en", use_angle_cls=True, ...). Raises SchedulerLost when the
    scheduler goes away (rerun to go on), ValueError for bad settings.
    """
    got = ocr_flags(flags, output_format, **keywords)
    if "help" in got:
        raise ValueError("--help is for the command line (ocrforge-batch --help)")
    if got["positional"]:
        raise ValueError(f"unexpected argument {got['positional'][0]!r} in flags (flags are written --name=value)")
    if unit_pages is not None and int(unit_pages) < 1:
        raise ValueError(f"unit_pages={unit_pages!r}: expected a whole number >= 1")
    if int(max_tries) < 1:
        raise ValueError(f"max_tries={max_tries!r}: expected a whole number >= 1")
    out = os.path.abspath(os.fspath(out))
    plan = _batch_plan.list_inputs(inputs, out, recursive)
    settings = {"flags": {k: v for k, v in got["flags"].items() if k not in ("image_dir", "draw_img_save_dir")},
                "unit_pages": unit_pages or "auto"}
    # The workers load their models first: a flag they refuse (a value out of
    # range, a missing model) fails here, before the manifest records it.
    name, register_s = _register(client, _flag_list(got["flags"]))
    manifest = _batch_manifest.Manifest(out, settings)
    try:
        run = _Run(client, manifest, plan, got, unit_pages, int(max_tries), unit_timeout, retry_failed, progress)
        return run.run(name, register_s)
    finally:
        manifest.close()


class _Run:
    def __init__(self, client, manifest, inputs, got, unit_pages, max_tries, unit_timeout, retry_failed, progress):
        self.client, self.manifest, self.inputs = client, manifest, inputs
        self.flag_list = _flag_list(got["flags"])
        self.documents = bool(got["formats"])
        self.unit_pages, self.max_tries, self.unit_timeout = unit_pages, max_tries, unit_timeout
        self.retry_failed, self.progress = retry_failed, progress
        self.state = manifest.dir
        # In the Dask keys: the same input read into two folders (or with two
        # flag sets) at once on one cluster must be two tasks, not one shared.
        self.tag = _key(self.state + "\n" + "\n".join(self.flag_list))[:8]
        self.in_flight = {}  # future -> (kind, unit or input)
        self.submissions = collections.Counter()
        self.failures, self.pages, self.retries, self.resubmitted = [], 0, 0, 0
        self.units_done = self.units_failed = 0
        self.failed_now = set()  # units given up in this run

    # ---------------------------------------------------------- planning

    def _plan(self, threads):
        pdfs = [i.path for i in self.inputs if i.is_pdf and i.path not in self.manifest.plans]
        for path, pages in _batch_plan.count_pdf_pages(self.flag_list, pdfs).items():
            size = self.unit_pages or (_batch_plan.auto_unit_pages(pages, threads) if isinstance(pages, int) else 1)
            self.manifest.record({"kind": "plan", "input": path, "pages": pages, "unit_pages": size})
        self.units = {}
        self.resolved_before = 0  # units an earlier run finished
        todo, assemble = [], []
        for inp in self.inputs:
            rec = self.manifest.plans.get(inp.path)
            if rec:
                units = _batch_plan.units_of(inp, rec["pages"], rec["unit_pages"])
            else:
                units = [_batch_plan.Unit(inp, 0, -1, 1)]
            self.units[inp.path] = units
            for u in units:
                status = self.manifest.status(u.id)
                if status is None or (status == "failed" and self.retry_failed):
                    todo.append(u)
                else:
                    self.resolved_before += 1
            if self._ready_to_assemble(inp):
                if self.manifest.inputs.get(inp.path) != "done":
                    assemble.append(inp)
                else:  # left by a client that stopped between recording and removing them
                    self._remove_staged(inp)
        return todo, assemble

    def _ready_to_assemble(self, inp):
        units = self.units[inp.path]
        return self.documents and len(units) > 1 and all(self.manifest.status(u.id) == "done" for u in units)

    def _stage_path(self, unit):
        if not (unit.split and self.documents):
            return ""
        return os.path.join(self.state, "staged", _key(unit.input.path), f"{unit.first:08d}.bin")

    # ---------------------------------------------------------- submitting

    def _submit_unit(self, u):
        self.submissions[u.id] += 1
        spec = {"id": u.id, "key": u.key, "file": u.input.path, "out_dir": u.input.out_dir, "stem": u.input.stem,
                "first": u.first, "count": u.count, "stage": self._stage_path(u)}
        fut = self.client.submit(_batch_worker.run_unit, self.name, spec, self.state, self.max_tries,
                                 self.unit_timeout, key=f"ocrforge-unit-{self.tag}-{u.key}-{self.submissions[u.id]}")
        self.in_flight[fut] = ("unit", u)

    def _submit_assembly(self, inp):
        k = "assemble-" + inp.path
        self.submissions[k] += 1
        spec = {"key": _key(inp.path), "file": inp.path, "out_dir": inp.out_dir, "stem": inp.stem}
        stages = [self._stage_path(u) for u in self.units[inp.path]]
        key = f"ocrforge-assemble-{self.tag}-{spec['key']}-{self.submissions[k]}"
        fut = self.client.submit(_batch_worker.assemble, self.name, spec, stages, self.state, self.max_tries,
                                 self.unit_timeout, key=key, priority=1)  # before more units: its staged pages can go
        self.in_flight[fut] = ("assemble", inp)

    # ---------------------------------------------------------- results

    def _finish(self, fut):
        kind, obj = self.in_flight.pop(fut)
        status = fut.status
        if status == "finished":
            try:
                res = fut.result()  # from the worker that holds it; if that one died meanwhile, Dask runs it again
            except Exception as e:  # noqa: BLE001
                if self.client.status != "running":
                    raise SchedulerLost(self._lost_message()) from None
                res = {"status": "retry", "error": f"{type(e).__name__}: {e}"}
        elif status == "error":
            exc = fut.exception()
            # KilledWorker: Dask gave up after workers died holding it; the
            # marker decides whether this unit was the cause (_batch_worker).
            res = {"status": "retry", "error": f"{type(exc).__name__}: {exc}", "killed": isinstance(exc, KilledWorker)}
        elif status == "cancelled":
            if self.client.status != "running":  # the client cancels every future when the scheduler goes
                raise SchedulerLost(self._lost_message())
            res = {"status": "retry", "error": "cancelled by the scheduler"}
        else:  # "lost" / "pending": the worker holding its result died; Dask computes it again
            self.in_flight[fut] = (kind, obj)
            return
        fut.release()
        key = obj.id if kind == "unit" else "assemble-" + obj.path
        if res["status"] == "retry":
            self.resubmitted += 1
            if self.submissions[key] < self.max_tries + 2:
                (self._submit_unit if kind == "unit" else self._submit_assembly)(obj)
                return
            res = {"status": "failed", "error": res["error"], "tries": self.submissions[key]}
        self.retries += max(0, res.get("tries", 1) - 1)
        if kind == "assemble":
            self._record_assembly(obj, res)
        else:
            self._record_unit(obj, res)

    def _record_unit(self, u, res):
        rec = {"kind": "unit", "unit": u.id, "input": u.input.path, "first": u.first, "count": u.count,
               "status": res["status"], "tries": res.get("tries")}
        if res["status"] == "done":
            self.units_done += 1
            self.pages += res["pages"]
            rec.update(pages=res["pages"], items=res["items"], lines=res["lines"], failed_pages=res["failed"],
                       document_error=res["document_error"], worker=res["worker"], seconds=round(res["seconds"], 4),
                       decode_ms=round(res["decode_ms"], 1), ocr_ms=round(res["ocr_ms"], 1),
                       write_ms=round(res["write_ms"], 1))
            for page, why in res["failed"]:
                self.failures.append({"input": u.input.path, "page": page, "error": why})
            if res["document_error"]:
                self.failures.append({"input": u.input.path, "error": res["document_error"]})
        else:
            self.units_failed += 1
            self.failed_now.add(u.id)
            rec["error"] = res["error"]
            self.failures.append({"input": u.input.path, "pages": self._pages_text(u), "error": res["error"]})
        self.manifest.record(rec)
        if u.split and self.documents:
            units = self.units[u.input.path]
            if self._ready_to_assemble(u.input):
                self._submit_assembly(u.input)
            elif all(self.manifest.status(x.id) is not None for x in units):
                why = "documents not written: pages of it failed (" + ", ".join(
                    self._pages_text(x) for x in units if self.manifest.status(x.id) == "failed") + ")"
                self.manifest.record({"kind": "input", "input": u.input.path, "status": "failed", "error": why})
                self.failures.append({"input": u.input.path, "error": why})

    def _record_assembly(self, inp, res):
        rec = {"kind": "input", "input": inp.path, "status": res["status"], "tries": res.get("tries")}
        if res["status"] == "done":
            rec["documents"] = res["documents"]
        else:
            rec["error"] = res["error"]
            self.failures.append({"input": inp.path, "error": "documents: " + res["error"]})
        self.manifest.record(rec)
        if res["status"] == "done":  # recorded: a rerun no longer needs them
            self._remove_staged(inp)

    def _remove_staged(self, inp):
        folder = os.path.join(self.state, "staged", _key(inp.path))
        shutil.rmtree(folder, ignore_errors=True)

    @staticmethod
    def _pages_text(u):
        return "all pages" if u.count < 0 else f"pages {u.first + 1}-{u.first + u.count} of those selected"

    def _lost_message(self):
        address = getattr(self.client.scheduler, "address", "?")
        return (f"lost the Dask scheduler ({address}); {self.units_done} units were done and are recorded in "
                f"{self.manifest.path}: run the same command again (on a scheduler) to read the rest")

    # ---------------------------------------------------------- the run

    def run(self, name, register_s):
        t0 = time.perf_counter()
        os.makedirs(os.path.join(self.state, "started"), exist_ok=True)
        self.name = name
        threads = _total_threads(self.client)
        todo, assemble = self._plan(threads)
        total_units = sum(len(u) for u in self.units.values())
        pending = collections.deque(todo)
        window = max(16, 4 * threads)  # the scheduler holds a few per thread, not ten million
        for inp in assemble:
            self._submit_assembly(inp)
        last_note = time.monotonic()
        start = time.perf_counter()
        complete = False
        try:
            while pending or self.in_flight:
                while pending and len(self.in_flight) < window:
                    self._submit_unit(pending.popleft())
                try:
                    done, _ = wait(list(self.in_flight), timeout=1.0, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = []
                    if self.client.status in ("closing", "closed"):
                        raise SchedulerLost(self._lost_message()) from None
                except CancelledError:  # the client cancels every future when it loses the scheduler
                    if self.client.status != "running":
                        raise SchedulerLost(self._lost_message()) from None
                    done = [f for f in self.in_flight if f.status == "cancelled"]
                for fut in done:
                    self._finish(fut)
                if self.progress and time.monotonic() - last_note >= self.progress:
                    last_note = time.monotonic()
                    self._note(total_units, time.perf_counter() - start)
            complete = True
        except BaseException:
            if self.client.status == "running":
                self.client.cancel(list(self.in_flight))  # running units finish; queued ones are dropped
            raise
        finally:
            seconds = time.perf_counter() - start
            self._write_system_results(clean=complete)
        summary = self._summary(seconds, time.perf_counter() - t0 + register_s, register_s, total_units)
        _batch_manifest.write_atomic(os.path.join(self.state, "summary.json"),
                                     json.dumps(summary, indent=1, ensure_ascii=False).encode())
        return summary

    def _note(self, total_units, seconds):
        done = self.resolved_before + self.units_done + self.units_failed
        sys.stderr.write(f"ocrforge-batch: {done}/{total_units} units, {self.pages} pages in {seconds:.0f} s "
                         f"({self.pages / max(seconds, 1e-9):.2f} pages/s), {len(self.failures)} failed, "
                         f"{self.retries} retries\n")
        sys.stderr.flush()

    def _write_system_results(self, clean):
        """system_results.txt of every output folder, from the manifest: the
        lines of every done page in input order, as the CLI lists them.
        After a complete run the temp files of killed workers go too."""
        folders = collections.OrderedDict()
        for inp in self.inputs:
            folders.setdefault(inp.out_dir, []).append(inp)
        for folder, inputs in folders.items():
            lines = []
            for inp in inputs:
                for u in self.units[inp.path]:
                    if self.manifest.status(u.id) == "done":
                        lines.extend(self.manifest.read_record(u.id)["lines"])
            os.makedirs(folder, exist_ok=True)
            data = "".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")
            _batch_manifest.write_atomic(os.path.join(folder, "system_results.txt"), data)
            if clean:
                _batch_manifest.remove_temp_files(folder)

    def _summary(self, seconds, wall, register_s, total_units):
        workers = {}
        try:
            workers = self.client.run(_batch_worker.worker_info, name=self.name)
        except Exception:  # noqa: BLE001 (figures only)
            pass
        loads = [w["load_s"] for w in workers.values() if w.get("load_s") is not None]
        states = collections.Counter(self.manifest.status(u.id) for units in self.units.values() for u in units)
        earlier = []  # failures an earlier run recorded, still failed: the user sees every failed input
        for units in self.units.values():
            for u in units:
                if self.manifest.status(u.id) == "failed" and u.id not in self.failed_now:
                    earlier.append({"input": u.input.path, "pages": self._pages_text(u),
                                    "error": self.manifest.read_record(u.id).get("error"), "earlier": True})
        return {
            "inputs": len(self.inputs), "units": total_units, "units_done": states.get("done", 0),
            "units_failed": states.get("failed", 0), "units_this_run": self.units_done + self.units_failed,
            "pages": self.pages, "seconds": round(seconds, 3), "pages_per_s": round(self.pages / max(seconds, 1e-9), 3),
            "retries": self.retries, "resubmitted": self.resubmitted, "failed": self.failures + earlier,
            "workers": len(workers), "threads": _total_threads(self.client),
            "model_load_s": {"mean": round(sum(loads) / len(loads), 3) if loads else None,
                             "max": round(max(loads), 3) if loads else None},
            "register_s": round(register_s, 3), "wall_s": round(wall, 3),
            "manifest": self.manifest.path, "dashboard": getattr(self.client, "dashboard_link", None),
        }


# ------------------------------------------------------------------ bag / dataframe


def ocr_bag(inputs, *, client=None, flags=(), unit_pages=None, recursive=False, **keywords):
    """The lines of `inputs` as a Dask bag of dicts {file, page, box, text,
    score, error}, one per recognised line (a page that could not be read:
    one record with its error), read on the cluster when computed; nothing
    is written. PDFs are split in units of `unit_pages` pages as read_many."""
    from distributed import default_client  # noqa: PLC0415

    client = client or default_client()
    got = ocr_flags(flags, None, **keywords)
    flag_list = _flag_list(got["flags"])
    name, _ = _register(client, flag_list)
    threads = _total_threads(client)
    plan = _batch_plan.list_inputs(inputs, os.path.join(os.sep, "nonexistent-ocrforge-out"), recursive)
    counts = _batch_plan.count_pdf_pages(flag_list, [i.path for i in plan if i.is_pdf])
    parts = []
    for inp in plan:
        pages = counts.get(inp.path)
        size = unit_pages or (_batch_plan.auto_unit_pages(pages, threads) if isinstance(pages, int) else 1)
        for u in _batch_plan.units_of(inp, pages, size):
            parts.append(dask.delayed(_batch_worker.rows, pure=True)(
                name, inp.path, u.first, u.count, dask_key_name=f"ocrforge-rows-{u.key}"))
    return dask.bag.from_delayed(parts)


def ocr_dataframe(inputs, **kwargs):
    """ocr_bag as a Dask dataframe: columns file, page, box, text, score, error."""
    import pandas as pd  # noqa: PLC0415

    meta = pd.DataFrame({"file": pd.Series(dtype=object), "page": pd.Series(dtype="int64"),
                         "box": pd.Series(dtype=object), "text": pd.Series(dtype=object),
                         "score": pd.Series(dtype="float64"), "error": pd.Series(dtype=object)})
    return ocr_bag(inputs, **kwargs).to_dataframe(meta=meta)
