"""Timing commands: wall time with `time.perf_counter`, peak memory with GNU `time -v`.

`compare({name: Command}, runs)` runs every command `runs` times, interleaved (A B C, then
C B A, ...) after one untimed warm-up each, so a machine busy with something else slows all of
them alike rather than whichever happened to run then. The wall time includes `/usr/bin/time`'s
own fork and exec (well under a millisecond), the same for every command compared.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["GNU_TIME", "Command", "Sample", "compare", "gnu_time", "summary"]

GNU_TIME = Path("/usr/bin/time")


@dataclass(frozen=True)
class Command:
    """A command line with its environment changes and working folder."""

    argv: Sequence[str]
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path | None = None


@dataclass(frozen=True)
class Sample:
    """One run: wall seconds and peak resident memory in MB."""

    seconds: float
    peak_mb: float


def gnu_time() -> Path:
    """GNU time, which reports a child's peak memory; install it when it is missing."""
    if not GNU_TIME.exists() and shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "time"], check=False)
    if not GNU_TIME.exists():
        raise SystemExit("bench: GNU time is needed for peak memory: apt-get install -y time")
    return GNU_TIME


def run(command: Command) -> Sample:
    """Run once; a failing command stops the bench with its output."""
    env = {**os.environ, **command.env}
    # as installed: compiled bytecode is written (by the warm-up run) and reused, so an edited
    # module is not compiled again on every run when the shell sets PYTHONDONTWRITEBYTECODE
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        argv = [str(gnu_time()), "-v", "-o", report.name, *command.argv]
        start = time.perf_counter()
        proc = subprocess.run(
            argv, env=env, cwd=command.cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        seconds = time.perf_counter() - start
        text = report.read()
    if proc.returncode != 0:
        shown = " ".join(command.argv)
        raise SystemExit(f"bench: `{shown}` failed ({proc.returncode}):\n{proc.stderr.decode()}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    return Sample(seconds, int(found.group(1)) / 1024 if found else float("nan"))


def compare(commands: Mapping[str, Command], runs: int) -> dict[str, list[Sample]]:
    """Each command `runs` times, interleaved, after one untimed warm-up run each."""
    for command in commands.values():
        run(command)
    samples: dict[str, list[Sample]] = {name: [] for name in commands}
    names = list(commands)
    for i in range(runs):
        for name in names if i % 2 == 0 else reversed(names):
            samples[name].append(run(commands[name]))
    return samples


def summary(samples: Sequence[Sample]) -> Sample:
    """The median wall time and the highest peak memory of the runs."""
    return Sample(statistics.median(s.seconds for s in samples), max(s.peak_mb for s in samples))
