"""ocrforge-batch: ``ocrforge ocr`` over a Dask cluster (ocrforge.dask.read_many).

    dask scheduler &
    dask worker tcp://HOST:8786 --nthreads 1 --nworkers 2 &     # on each machine
    ocrforge-batch --scheduler tcp://HOST:8786 INPUT... --out OUT [ocr flags]

(``python3 -m ocrforge.batch`` where the console script is not installed.)
Every flag of ``ocrforge ocr`` is taken with its meaning there, and its own
command line works as it is: ``--image_dir`` is an input, and
``--draw_img_save_dir`` the output folder when --out is not given.
"""
import os
import signal
import sys

from . import _ocrforge

USAGE = """usage: ocrforge-batch [--scheduler ADDRESS] INPUT... --out OUT [options] [ocrforge ocr flags]

Reads images, PDFs and multi-page TIFFs (files, folders) on a Dask cluster and
writes what `ocrforge ocr --image_dir INPUT --draw_img_save_dir OUT` writes,
exactly once and resumable: run the same command again after a crash or
Ctrl-C and only the rest is read (OUT/.ocrforge-batch/manifest.jsonl).

options:
  --scheduler ADDRESS   Dask scheduler (default: $DASK_SCHEDULER_ADDRESS; without
                        either, a local cluster of --local_workers processes)
  --local_workers N     worker processes of the local cluster, 1 thread each
                        (default: the CPUs of this machine)
  --out OUT             output folder (on a file system every worker sees)
  --recursive           read the subfolders of input folders too
  --unit_pages N        pages of a PDF per work unit (default: enough units for
                        two per worker thread, at most 32 pages)
  --max_tries N         starts of a unit before it is reported failed (default 3)
  --unit_timeout S      seconds a unit may run; a worker past it is ended and
                        the unit tried again (default: no limit)
  --retry_failed        read the units an earlier run reported failed again
  --progress S          a progress line every S seconds (default 10; 0: none)
  --summary_json FILE   write the run's summary there too
ocrforge ocr flags: `ocrforge ocr --help` (--lang, --use_angle_cls,
--output_format, --pdf_dpi, --cpu_threads, ...). Exit status: 0 all read, 1
some inputs failed (named in the summary), 2 bad usage, 3 scheduler lost.
"""

OWN = {"--scheduler": str, "--local_workers": int, "--out": str, "--recursive": bool, "--unit_pages": int,
       "--max_tries": int, "--unit_timeout": float, "--retry_failed": bool, "--progress": float,
       "--summary_json": str}


class UsageError(Exception):
    pass


def parse_args(argv):
    """ocrforge-batch's own options, then the rest as `ocrforge ocr` reads it."""
    own, rest = {}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=")
        kind = OWN.get(name)
        if kind is None:
            rest.append(a)
        elif kind is bool:
            if eq and value.lower() not in ("true", "false", "1", "0"):
                raise UsageError(f"{name} takes no value (or true / false)")
            own[name] = not eq or value.lower() in ("true", "1")
        else:
            if not eq:
                i += 1
                if i >= len(argv):
                    raise UsageError(f"{name} needs a value")
                value = argv[i]
            try:
                own[name] = kind(value)
            except ValueError:
                what = "a whole number" if kind is int else "a number"
                raise UsageError(f"{name}={value!r}: expected {what}") from None
        i += 1
    got = _ocrforge.batch_flags(rest)
    if "help" in got:
        return None, None, None
    flags = dict(got["flags"])
    inputs = list(got["positional"])
    if "image_dir" in flags:
        inputs.append(flags.pop("image_dir"))
    out = own.get("--out") or flags.pop("draw_img_save_dir", None)
    flags.pop("draw_img_save_dir", None)
    if not inputs:
        raise UsageError("no inputs: give files or folders to read (or --image_dir)")
    if not out:
        raise UsageError("--out is required (the output folder)")
    return own, inputs, (out, [f"--{k}={v}" for k, v in flags.items()])


def _client(own):
    from distributed import Client, LocalCluster  # noqa: PLC0415 (after the arguments are checked)

    address = own.get("--scheduler") or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if address:
        return Client(address), None
    n = own.get("--local_workers") or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
    return Client(cluster), cluster


def _print_summary(s, out):
    err = sys.stderr
    err.write(f"ocrforge-batch: {s['inputs']} inputs, {s['units']} units ({s['units_done']} done, "
              f"{s['units_failed']} failed; {s['units_this_run']} this run): {s['pages']} pages in "
              f"{s['seconds']:.1f} s, "
              f"{s['pages_per_s']:.2f} pages/s on {s['threads']} worker threads; {s['retries']} retries; "
              f"models loaded in {s['model_load_s']['max'] or 0:.2f} s per worker\n")
    for f in s["failed"]:
        where = f" {f['page']}" if "page" in f else f" ({f['pages']})" if "pages" in f else ""
        err.write(f"ocrforge-batch: failed: {f['input']}{where}: {f['error']}\n")
    err.write(f"ocrforge-batch: results in {out}; manifest {s['manifest']}\n")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0 if argv else 2
    try:
        own, inputs, rest = parse_args(argv)
    except (UsageError, ValueError) as e:
        sys.stderr.write(f"ocrforge-batch: error: {e}\n")
        return 2
    if own is None:
        sys.stdout.write(USAGE + "\n" + _ocrforge.batch_flags(["--help"])["help"])
        return 0
    out, flags = rest
    from . import _batch_plan  # noqa: PLC0415
    from ._batch_manifest import ManifestError  # noqa: PLC0415
    from .dask import SchedulerLost, ocr_flags, read_many  # noqa: PLC0415 (imports dask)

    try:  # before a local cluster starts: a typo costs no worker processes
        ocr_flags(flags)
        _batch_plan.list_inputs(inputs, os.path.abspath(out), own.get("--recursive", False))
    except ValueError as e:
        sys.stderr.write(f"ocrforge-batch: error: {e}\n")
        return 2

    # Ctrl-C while Dask is busy: a KeyboardInterrupt at the next wait; the
    # manifest keeps what is done.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    client = cluster = None
    try:
        client, cluster = _client(own)
        if client.dashboard_link:
            sys.stderr.write(f"ocrforge-batch: Dask dashboard {client.dashboard_link}\n")
        progress = own.get("--progress", 10.0)
        summary = read_many(client, inputs, out, flags=flags, unit_pages=own.get("--unit_pages"),
                            max_tries=own.get("--max_tries", 3), unit_timeout=own.get("--unit_timeout"),
                            retry_failed=own.get("--retry_failed", False), recursive=own.get("--recursive", False),
                            progress=progress or None)
    except (ValueError, ManifestError) as e:
        sys.stderr.write(f"ocrforge-batch: error: {e}\n")
        return 2
    except SchedulerLost as e:
        sys.stderr.write(f"ocrforge-batch: error: {e}\n")
        return 3
    except OSError as e:  # no scheduler at that address
        sys.stderr.write(f"ocrforge-batch: error: {e}\n")
        return 3
    except KeyboardInterrupt:
        sys.stderr.write("ocrforge-batch: interrupted; what is done is recorded: run the same command again to "
                         "read the rest\n")
        return 130
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    _print_summary(summary, out)
    if own.get("--summary_json"):
        import json  # noqa: PLC0415

        with open(own["--summary_json"], "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1, ensure_ascii=False)
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
