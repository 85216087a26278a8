"""Run one read-only query over many parameter sets and return its single text value for each
(as UTF-8 bytes, in order) on several CPU cores: how `Store.export_log` builds a long export.

SQLite connections on threads of one process do not run in parallel here (measured: two
threads, each with half a million reviews to turn into JSON, took as long as one thread with
all of them), while processes do. So `stream(job, runs, workers)` starts `workers` copies of
this file as scripts, each handed every `workers`-th run, and reads their results back in
order; each worker computes its next result while the previous one is read.

A worker is started as a script (`python -I -S this-file`), never imported through grill, so
it loads the standard library's sqlite3 and nothing else. It reads the job as JSON on stdin:
{"uri": read-only database URI, "timeout": seconds, "setup": [[sql, rows or null], ...],
"sql": the query, "runs": [params, ...]}, and writes, for each run, an 8-byte big-endian
signed length then that many bytes of UTF-8 (-1 for NULL). Text stays bytes from SQLite to
the file it ends in: decoding and encoding 250 MB again would cost the parent 0.3 s.

An error ends a worker with status 1 and, on stderr, {"error": class name, "message": ...,
"code" and "name": SQLite's extended result code and its name}; the parent raises it again as
the sqlite3 exception it was, so the store turns it into the same message as any other. With
one worker (or no file to start, or no Python to start it with), the runs are made in this
process instead.

Imports nothing from grill: this file must run on its own.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

__all__ = ["WORKERS", "results", "stream"]

WORKERS = max(1, min(4, os.cpu_count() or 1))
"""Processes `stream` uses by default: one per core, at most four."""

_LENGTH = struct.Struct(">q")


def results(job: dict[str, Any]) -> Iterator[bytes | None]:
    """The query's value for each run of `job`, in order, made in this process."""
    conn = sqlite3.connect(job["uri"], uri=True, timeout=job.get("timeout", 5.0))
    conn.text_factory = bytes
    try:
        for sql, rows in job.get("setup", []):
            if rows is None:
                conn.execute(sql)
            else:
                conn.executemany(sql, rows)
        for params in job["runs"]:
            row = conn.execute(job["sql"], params).fetchone()
            value = None if row is None else row[0]
            yield value if value is None or isinstance(value, bytes) else str(value).encode()
    finally:
        conn.close()


def stream(
    job: dict[str, Any], runs: Sequence[Sequence[Any]], workers: int = WORKERS
) -> Iterator[bytes | None]:
    """The query's value for each of `runs`, in order, computed by `workers` processes."""
    workers = min(workers, len(runs))
    # a frozen build's executable is not a Python that can run this file
    if workers <= 1 or getattr(sys, "frozen", False) or not Path(__file__).is_file():
        yield from results({**job, "runs": list(runs)})
        return
    procs = [_start({**job, "runs": list(runs[k::workers])}) for k in range(workers)]
    try:
        for i in range(len(runs)):
            yield _read(procs[i % workers])
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()


def _start(job: dict[str, Any]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(Path(__file__))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    with proc.stdin:
        proc.stdin.write(json.dumps(job).encode())
    return proc


def _read(proc: subprocess.Popen[bytes]) -> bytes | None:
    """The next value `proc` writes; its error raised again when it stopped instead."""
    assert proc.stdout is not None
    head = _exactly(proc.stdout, _LENGTH.size)
    if head is not None:
        (size,) = _LENGTH.unpack(head)
        if size < 0:
            return None
        body = _exactly(proc.stdout, size)
        if body is not None:
            return body
    raise _failure(proc)


def _exactly(pipe: IO[bytes], size: int) -> bytes | None:
    data = pipe.read(size)
    return data if len(data) == size else None


def _failure(proc: subprocess.Popen[bytes]) -> sqlite3.Error:
    """The error a worker reported, as the sqlite3 exception class it was."""
    assert proc.stderr is not None
    status = proc.wait()
    text = proc.stderr.read().decode(errors="replace").strip()
    try:
        report = json.loads(text.splitlines()[-1])
        kind = getattr(sqlite3, report["error"], sqlite3.OperationalError)
        exc = kind(report["message"]) if isinstance(kind, type) else None
    except (ValueError, IndexError, KeyError, TypeError):
        exc = None
    if not isinstance(exc, sqlite3.Error):
        stopped = sqlite3.OperationalError(f"export worker stopped (status {status}): {text}")
        stopped.sqlite_errorcode, stopped.sqlite_errorname = 0, ""
        return stopped
    exc.sqlite_errorcode = report.get("code") or 0
    exc.sqlite_errorname = report.get("name") or ""
    return exc


def _main() -> int:
    job = json.loads(sys.stdin.buffer.read())
    out = sys.stdout.buffer
    try:
        for value in results(job):
            if value is None:
                out.write(_LENGTH.pack(-1))
            else:
                out.write(_LENGTH.pack(len(value)))
                out.write(value)
            out.flush()
    except sqlite3.Error as exc:
        report = {
            "error": type(exc).__name__,
            "message": str(exc),
            "code": getattr(exc, "sqlite_errorcode", 0),
            "name": getattr(exc, "sqlite_errorname", ""),
        }
        sys.stderr.write(json.dumps(report) + "\n")
        return 1
    except BrokenPipeError:  # the reader stopped early: nothing more is wanted
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(_main())
