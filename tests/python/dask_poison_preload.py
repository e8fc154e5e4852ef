"""A `dask worker --preload` module for check_dask_batch.py: reading any input
whose name starts with "poison" kills the worker process (SIGKILL), as a
crash in a decoder would, every time. It wraps the reader the tasks use, so
the unit has started (its marker written) when the process dies, as in a
real crash; nothing of ocrforge itself is changed for the test."""
import os
import signal

from ocrforge import _batch_worker

# Dask may run a preload file more than once in a process: wrap the real reader once.
_real_reader = getattr(_batch_worker, "_unpoisoned_reader", _batch_worker._reader)
_batch_worker._unpoisoned_reader = _real_reader


class _PoisonedReader:
    def __init__(self, reader):
        self._reader = reader

    def run_unit(self, file, *args):
        if os.path.basename(file).startswith("poison"):
            os.kill(os.getpid(), signal.SIGKILL)
        return self._reader.run_unit(file, *args)

    def __getattr__(self, name):
        return getattr(self._reader, name)


_batch_worker._reader = lambda name: _PoisonedReader(_real_reader(name))
