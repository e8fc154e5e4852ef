"""What runs inside the Dask workers for ocrforge.dask.

``ReaderPlugin`` is a Dask worker plugin: registered once by the client, it
is set up in every worker process, current and future (a process that
replaces a dead one included), and loads that process's pipeline there, once.
Only the flags travel through the scheduler, never the models.

Tasks (``run_unit``, ``assemble``, ``rows``) find the pipeline through the
plugin. Each unit leaves a marker file while it runs
(``OUT/.ocrforge-batch/started/<unit>``, a line per start): a worker process
that dies mid-unit (killed, out of memory, a crash in a decoder, over
``unit_timeout``) leaves its line behind, and the next try of that unit sees
how often it was started before. After ``max_tries`` starts the unit is given
up and reported failed by name instead of taking down yet another worker.
Units that merely waited on a dying worker were never started there, so they
are retried without being blamed (Dask's own ``allowed-failures`` counts
those too).
"""
import asyncio
import hashlib
import os
import signal
import socket
import sys
import threading
import time

from distributed import WorkerPlugin, get_worker

from . import _locations, _ocrforge

PLUGIN_PREFIX = "ocrforge-batch-"


def plugin_name(flags):
    """One plugin (one loaded pipeline per worker) per flag set."""
    return PLUGIN_PREFIX + hashlib.sha1("\n".join(flags).encode()).hexdigest()[:12]


def _with_models(flags):
    """`flags` plus the model files of this machine's ocrforge for those not
    given, as PaddleOCR() resolves them (workers on other machines may have
    the package elsewhere)."""
    from ._paddleocr import PaddleOCR  # noqa: PLC0415 (keeps the import of this module light)

    given = dict(f[2:].split("=", 1) for f in flags)
    lang = given.get("lang", _ocrforge.available_langs()[0])
    extra = PaddleOCR._model_flags(given, lang)
    if given.get("precision") == "int8" and "int8_calibration_dir" not in given:
        calibration = _locations.calibration_dir()
        if calibration:
            extra["int8_calibration_dir"] = calibration
    return [f"--{k}={v}" for k, v in extra.items()] + list(flags)


class ReaderPlugin(WorkerPlugin):
    """Loads one BatchReader (pipeline and writers) per worker process."""

    def __init__(self, flags):
        self.flags = list(flags)
        self.name = plugin_name(self.flags)
        self.reader = None
        self.load_s = None
        self._lock = threading.Lock()

    def __getstate__(self):  # what travels: the flags only
        return {"flags": self.flags}

    def __setstate__(self, state):
        self.__init__(state["flags"])

    async def setup(self, worker):
        # In a thread: the worker's event loop keeps answering heartbeats
        # while the models load.
        await asyncio.get_running_loop().run_in_executor(None, self.load)

    def teardown(self, worker):
        self.reader = None

    def load(self):
        with self._lock:
            if self.reader is None:
                t = time.perf_counter()
                self.reader = _ocrforge.BatchReader(_with_models(self.flags))
                self.load_s = time.perf_counter() - t
            return self.reader


def _reader(name):
    plugin = get_worker().plugins.get(name)
    if plugin is None:
        raise RuntimeError(f"worker plugin {name!r} is not registered on this worker (ocrforge.dask registers it)")
    return plugin.load()


def worker_info(dask_worker, name):
    """For client.run: this worker's model load time (None before it loaded)."""
    plugin = dask_worker.plugins.get(name)
    return {"pid": os.getpid(), "host": socket.gethostname(), "load_s": plugin.load_s if plugin else None}


# ------------------------------------------------------------ markers


def _history(marker):
    try:
        with open(marker, encoding="utf-8", errors="replace") as f:
            return [line.rstrip("\n") for line in f]
    except FileNotFoundError:
        return []


def _note(marker, line):
    with open(marker, "a", encoding="utf-8", errors="replace") as f:
        f.write(line.replace("\n", " ") + "\n")


def _remove(marker):
    try:
        os.remove(marker)
    except FileNotFoundError:
        pass


def _gave_up(history, unit_timeout):
    starts = sum(1 for h in history if h.startswith("start "))
    errors = [h[6:] for h in history if h.startswith("error ")]
    timeouts = sum(1 for h in history if h == "timeout")
    died = starts - len(errors)
    why = []
    if died:
        over = f", {timeouts} of them over unit_timeout={unit_timeout:g} s" if timeouts and unit_timeout else ""
        why.append(f"the worker process reading it died {died} time(s){over}")
    if errors:
        why.append(f"it failed {len(errors)} time(s), last: {errors[-1]}")
    return f"given up after {starts} tries: " + "; ".join(why)


def _watchdog(seconds, marker, what):
    """Ends this worker process when one unit runs longer than `seconds`:
    C++ code cannot be interrupted, and a stuck unit would hold the worker
    for ever. The nanny starts a fresh process; the marker tells the next
    try why."""

    def fire():
        _note(marker, "timeout")
        sys.stderr.write(f"ocrforge-batch: {what} ran over unit_timeout={seconds:g} s; ending worker process "
                         f"{os.getpid()} (its nanny starts another)\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


def _tried(marker, what, max_tries, unit_timeout, work):
    """Runs work() under the marker protocol; a result dict with status
    done / failed (final) / retry (the client submits it again)."""
    history = _history(marker)
    starts = sum(1 for h in history if h.startswith("start "))
    if starts >= max_tries:
        _remove(marker)
        return {"status": "failed", "error": _gave_up(history, unit_timeout), "tries": starts}
    try:
        _note(marker, f"start {socket.gethostname()} pid {os.getpid()} {time.strftime('%H:%M:%S')}")
    except OSError as e:  # perhaps only this worker lacks the mount: another may succeed
        return {"status": "retry", "error": f"{socket.gethostname()} cannot write {marker} ({e}); the output "
                "folder must be on a file system every worker sees, at the same path"}
    timer = _watchdog(unit_timeout, marker, what) if unit_timeout else None
    t = time.perf_counter()
    try:
        result = work()
    except ValueError as e:  # the input itself cannot be read: trying again changes nothing
        _remove(marker)
        return {"status": "failed", "error": str(e), "tries": starts + 1}
    except Exception as e:  # noqa: BLE001 (a full disk, a lost mount: maybe not next time)
        _note(marker, f"error {type(e).__name__}: {e}")
        return {"status": "retry", "error": f"{type(e).__name__}: {e}", "tries": starts + 1}
    finally:
        if timer:
            timer.cancel()
    _remove(marker)
    result.update(status="done", tries=starts + 1, seconds=time.perf_counter() - t, worker=get_worker().address)
    return result


# ------------------------------------------------------------ tasks


def run_unit(name, unit, state_dir, max_tries, unit_timeout):
    """One unit: {"id", "key", "file", "out_dir", "stem", "first", "count", "stage"}."""
    marker = os.path.join(state_dir, "started", unit["key"])
    return _tried(marker, f"unit {unit['id']!r}", max_tries, unit_timeout,
                  lambda: _reader(name).run_unit(unit["file"], unit["out_dir"], unit["stem"], unit["first"],
                                                 unit["count"], unit["stage"]))


def assemble(name, inp, stage_paths, state_dir, max_tries, unit_timeout):
    """The --output_format files of a split PDF, from its units' staged pages."""
    marker = os.path.join(state_dir, "started", "assemble-" + inp["key"])

    # The staged pages stay: the client removes them once the manifest holds
    # this result. Dask runs a finished task again when the worker holding
    # its result dies before the client fetched it, and that run needs them.
    def work():
        return {"documents": _reader(name).assemble(inp["file"], inp["out_dir"], inp["stem"], stage_paths)}

    return _tried(marker, f"the documents of {inp['file']!r}", max_tries, unit_timeout, work)


def rows(name, file, first, count):
    """Pages of one unit as records for a Dask bag; nothing is written."""
    out = []
    for page, error, lines in _reader(name).read_rows(file, first, count):
        if error is not None:
            out.append({"file": file, "page": page, "box": None, "text": None, "score": float("nan"), "error": error})
        for box, text, score in lines:
            out.append({"file": file, "page": page, "box": [list(p) for p in box], "text": text, "score": score,
                        "error": None})
    return out
