"""Record what grill's commands print as SVG pictures in docs/img/, for the README.

Each shot runs the real `grill` (`python -m grill`) with a fresh GRILL_HOME in a temporary
folder, a fixed GRILL_NOW, COLUMNS=80 and FORCE_COLOR=1, replays its coloured output into a
recording Rich console and saves that as an SVG. Run it again whenever the output changes, so
the pictures stay true to the code. To add a picture, append a Shot to SHOTS.

Usage: scripts/screenshots [--out DIR] [NAME...]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import NamedTuple

from rich.console import Console
from rich.text import Text

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-12-02T09:00:00+00:00"
WIDTH = 80
SHOWN_HOME = "~/.local/share/grill"  # what a Linux user sees instead of the temporary folder


class Shot(NamedTuple):
    """One picture: its file name (without .svg), grill's arguments, extra environment, input,
    and `prepare`, which studies in the shot's GRILL_HOME first and may return the input."""

    name: str
    argv: tuple[str, ...]
    env: Mapping[str, str] = {}
    stdin: str = ""
    prepare: Callable[[Path], str] | None = None


def quiet(home: Path, argv: Sequence[str], now: str, stdin: str = "") -> str:
    """Run grill for a shot's setup (no colour) and return its stdout."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "GRILL_DEBUG")}
    env |= {"GRILL_HOME": str(home), "GRILL_NOW": now, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "grill", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    if proc.returncode != 0:
        raise SystemExit(f"setup grill {' '.join(argv)} failed:\n{proc.stderr}")
    return proc.stdout


def short_answers(home: Path, argv: Sequence[str], wrong: int) -> str:
    """Input answering a seeded mock with each card's short answer, but the last `wrong` ones:
    a dry run in a scratch folder tells the order the seed gives."""
    with tempfile.TemporaryDirectory(prefix="grill-shot-") as scratch:
        dry = json.loads(quiet(Path(scratch), [*argv, "--json"], NOW, "x\n" * 60))
    answers = [m["short_answer"] for m in dry["misses"]]
    return "\n".join(answers[: len(answers) - wrong] + ["not sure"] * wrong) + "\n"


def studied(home: Path, days: int = 9) -> None:
    """A week and a bit of daily drills, then two mock interviews."""
    for day in range(days):
        when = (datetime.fromisoformat(NOW) - timedelta(days=days - day)).isoformat()
        ratings = "3313231334"  # mostly good, some again and hard: a plausible week
        answers = "".join(f"my answer\n{ratings[i % len(ratings)]}\n" for i in range(60))
        quiet(home, ["drill", "--new", "8"], when, answers)
    for day, wrong in ((4, 9), (1, 4)):
        when = (datetime.fromisoformat(NOW) - timedelta(days=day, hours=-2)).isoformat()
        argv = ["mock", "--section", "Q", "--seed", str(day)]
        quiet(home, argv, when, short_answers(home, argv, wrong))


def mock_input(home: Path) -> str:
    return short_answers(home, MOCK, 2)


def stats_input(home: Path) -> str:
    studied(home)
    return ""


MOCK = ("mock", "--section", "Q", "--count", "6", "--seed", "7")
DRILL_INPUT = "warmup, then a long steady descent, then a plateau\n\nlr too low\n\n"
SHOTS = [
    Shot("decks-list", ("decks", "list")),
    Shot("card-7", ("card", "7")),
    Shot("drill", ("drill", "--new", "2"), stdin=DRILL_INPUT),
    Shot("mock", MOCK, prepare=mock_input),
    Shot("stats", ("stats",), prepare=stats_input),
]


def run(shot: Shot, home: Path) -> str:
    """grill's stdout for this shot, with ANSI colours."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "GRILL_DEBUG")}
    env |= {
        "GRILL_HOME": str(home),
        "GRILL_NOW": NOW,
        "COLUMNS": str(WIDTH),
        "LINES": "50",
        "FORCE_COLOR": "1",
        "TERM": "xterm-256color",
    }
    env |= dict(shot.env)
    stdin = shot.prepare(home) if shot.prepare else shot.stdin
    proc = subprocess.run(
        [sys.executable, "-m", "grill", *shot.argv],
        input=stdin or shot.stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    if proc.returncode != 0:
        raise SystemExit(f"grill {' '.join(shot.argv)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout.replace(str(home), SHOWN_HOME)


def record(shot: Shot, output: str, folder: Path) -> Path:
    """Replay `output` under its command line into a recording console and save the SVG."""
    console = Console(
        record=True, width=WIDTH, force_terminal=True, color_system="truecolor", file=io.StringIO()
    )
    command = "grill " + " ".join(shot.argv)
    console.print(Text.assemble(("$ ", "dim"), (command, "bold")))
    console.print(Text.from_ansi(output.rstrip("\n")), soft_wrap=True)
    path = folder / f"{shot.name}.svg"
    console.save_svg(str(path), title=command)
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="shots to take (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args(argv)
    unknown = set(args.names) - {s.name for s in SHOTS}
    if unknown:
        parser.error(f"unknown shot(s): {', '.join(sorted(unknown))}")
    args.out.mkdir(parents=True, exist_ok=True)
    for shot in SHOTS:
        if args.names and shot.name not in args.names:
            continue
        with tempfile.TemporaryDirectory(prefix="grill-shot-") as home:
            path = record(shot, run(shot, Path(home)), args.out)
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
