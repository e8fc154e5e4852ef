"""The manifest of a batch: what is done, so that a rerun does only the rest.

``OUT/.ocrforge-batch/manifest.jsonl``, one JSON record a line, appended by
the client only (workers never write it, so no two writers race):

* ``{"kind": "run", "settings": {...}, ...}`` at the start of every run; the
  first run's settings (the ocr flags, the unit size) must be those of every
  rerun, or the outputs would mix two configurations.
* ``{"kind": "plan", "input": path, "pages": n, "unit_pages": k}``: a PDF's
  page count and unit size, so a rerun plans the same units without opening
  the PDFs again.
* ``{"kind": "unit", "unit": id, "status": "done" | "failed", ...}``: a unit
  finished; "done" ones carry their system_results.txt lines.
* ``{"kind": "input", "input": path, "status": ...}``: a split PDF's
  documents were assembled (or could not be).

Each record is flushed as it is written and the file is fsynced at most once
a second and at the end: a killed client loses at most the records of its
last moments (their units run again; their files are rewritten the same).
A last line cut by a crash is ignored. One client at a time holds the
folder (flock on ``OUT/.ocrforge-batch/lock``).
"""
import fcntl
import json
import os
import socket
import time

STATE_DIR = ".ocrforge-batch"


class ManifestError(RuntimeError):
    pass


class Manifest:
    def __init__(self, out, settings):
        self.dir = os.path.join(out, STATE_DIR)
        os.makedirs(self.dir, exist_ok=True)
        self._lock = open(os.path.join(self.dir, "lock"), "a+")
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.seek(0)
            holder = self._lock.read().strip() or "another process"
            self._lock.close()
            raise ManifestError(f"{out!r} is being written by {holder}; wait for it or choose another --out") from None
        self._lock.seek(0)
        self._lock.truncate()
        self._lock.write(f"pid {os.getpid()} on {socket.gethostname()} since {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        self._lock.flush()
        self.path = os.path.join(self.dir, "manifest.jsonl")
        self.units = {}  # unit id -> (status, byte offset of its record)
        self.plans = {}  # input path -> its plan record (pages: a number or the error text; unit_pages)
        self.inputs = {}  # input path -> status of its assembly
        self._read(settings)
        self._file = open(self.path, "ab")
        self._reader = None
        self._synced = time.monotonic()
        self.record({"kind": "run", "settings": settings, "time": time.strftime("%Y-%m-%d %H:%M:%S"),
                     "host": socket.gethostname(), "pid": os.getpid()})

    def _read(self, settings):
        if not os.path.exists(self.path):
            return
        first = None
        good = 0  # end of the last whole line
        with open(self.path, "rb") as f:
            for raw in f:
                at = good
                if not raw.endswith(b"\n"):
                    break  # cut by a crash: its unit simply runs again
                good += len(raw)
                try:
                    rec = json.loads(raw)
                except ValueError:
                    continue
                kind = rec.get("kind")
                if kind == "run" and first is None:
                    first = rec.get("settings")
                elif kind == "plan":
                    self.plans[rec["input"]] = rec
                elif kind == "unit":
                    self.units[rec["unit"]] = (rec["status"], at)
                elif kind == "input":
                    self.inputs[rec["input"]] = rec["status"]
        if first is not None and first != settings:
            changed = sorted(k for k in set(first) | set(settings) if first.get(k) != settings.get(k))
            raise ManifestError(
                f"{os.path.dirname(self.dir)!r} was written with other settings ({', '.join(changed)}: "
                f"{first.get(changed[0])!r} then, {settings.get(changed[0])!r} now); rerun with the same ones, "
                "or choose another --out")
        if good != os.path.getsize(self.path):
            with open(self.path, "r+b") as f:  # drop the cut line, so appends start on a line of their own
                f.truncate(good)

    def record(self, rec):
        """Appends one record; returns its byte offset."""
        at = self._file.tell()
        self._file.write(json.dumps(rec, ensure_ascii=False).encode("utf-8", "surrogateescape") + b"\n")
        self._file.flush()
        now = time.monotonic()
        if now - self._synced > 1.0:
            os.fsync(self._file.fileno())
            self._synced = now
        kind = rec["kind"]
        if kind == "unit":
            self.units[rec["unit"]] = (rec["status"], at)
        elif kind == "plan":
            self.plans[rec["input"]] = rec
        elif kind == "input":
            self.inputs[rec["input"]] = rec["status"]
        return at

    def status(self, unit_id):
        got = self.units.get(unit_id)
        return got[0] if got else None

    def read_record(self, unit_id):
        """The unit's last record (read back from the file: the client keeps
        only offsets, not every page's lines)."""
        got = self.units.get(unit_id)
        if not got:
            return None
        self._file.flush()
        if self._reader is None:
            self._reader = open(self.path, "rb")
        self._reader.seek(got[1])
        return json.loads(self._reader.readline())

    def close(self):
        if self._reader:
            self._reader.close()
            self._reader = None
        if self._file:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
        if self._lock:
            self._lock.seek(0)
            self._lock.truncate()
            self._lock.close()
            self._lock = None


def write_atomic(path, data):
    """Writes `data` (bytes) to `path` through a temp file and a rename."""
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.tmp.{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def remove_temp_files(folder):
    """Removes the ".<name>.tmp.XXXXXX" files (write_file_atomic's temp names)
    that a killed worker left in `folder`; only while no worker writes there."""
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    removed = 0
    for name in names:
        at = name.rfind(".tmp.")
        if name.startswith(".") and at > 0 and len(name) - at == 11:
            try:
                os.remove(os.path.join(folder, name))
                removed += 1
            except OSError:
                pass
    return removed
