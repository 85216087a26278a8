"""A drill that ends uncleanly keeps what was answered: an undo refused because another grill
reviewed the card since lets the drill go on to its summary, and closing the terminal (SIGHUP)
saves the answer graded but not rated yet, as Ctrl-C does."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console

from grill.model import Rating
from grill.scheduler import Scheduler
from grill.session import Drill, DrillOptions
from grill.store import Store
from grill.ui.drill import run_drill
from grill.ui.prompt import LineReader
from test_store_robust import _review
from test_ui_drill import LIB, grader

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SCHED = Scheduler(enable_fuzzing=False)


def test_undo_after_another_grill_reviewed_the_card_is_refused_and_the_drill_goes_on(
    tmp_path: Path,
) -> None:
    db = tmp_path / "grill.db"
    with Store.open(db, now=T0) as store, Store.open(db, now=T0) as other:

        class Typing(io.StringIO):
            """The keys typed; before `/undo`, another grill reviews the card just rated."""

            def readline(self, size: int | None = -1) -> str:
                line = super().readline()
                if line == "/undo\n":
                    _review(other, "c7")
                return line

        console = Console(file=io.StringIO(), width=80, color_system=None)
        drill = Drill(store, SCHED, LIB, DrillOptions(new_limit=2), grader=grader, clock=lambda: T0)
        typed = Typing("lr lower\n3\n/undo\nlr\n2\n")
        summary = run_drill(console, drill, LineReader(typed, console))
        screen = console.file.getvalue()  # type: ignore[attr-defined]
    assert "reviewed again since" in screen and "nothing was undone" in screen
    assert "session summary" in screen and summary.session_id is not None
    # c7 rated, then reviewed by the other grill; c8 answered after the refused undo
    assert [r["card_id"] for r in _logged(db)] == ["c7", "c7", "c8"]


def _logged(db: Path) -> list[sqlite3.Row]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT card_id, rating FROM reviews ORDER BY id").fetchall()
    finally:
        conn.close()


def test_closing_the_terminal_saves_the_graded_answer_as_ctrl_c_does(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {
        **os.environ,
        "GRILL_HOME": str(home),
        "GRILL_NOW": T0.isoformat(),
        "NO_COLOR": "1",
        "PYTHONUNBUFFERED": "1",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "grill", "drill", "--new", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("warmup, then descent, then plateau\n")
    proc.stdin.flush()
    seen = ""
    deadline = time.monotonic() + 60
    while "proposed: " not in seen:  # graded: the rating is asked for, not given yet
        assert proc.poll() is None and time.monotonic() < deadline, seen
        seen += proc.stdout.readline()
    time.sleep(0.3)  # waiting for the key
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(timeout=60) == 128 + signal.SIGHUP
    proposed = seen.split("proposed: ")[1].split()[0]
    (row,) = _logged(home / "grill.db")
    assert Rating(row["rating"]).label == proposed
    proc.stdin.close()
    proc.stdout.close()
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
    proc.stderr.close()


def test_a_ctrl_c_while_the_prompt_starts_is_still_a_ctrl_c() -> None:
    # prompt_toolkit runs asyncio: a Ctrl-C landing as its loop starts came out as CancelledError
    import asyncio

    from grill.ui.prompt import prompt_once

    class Interrupted:
        def prompt(self, *args: object, **kwargs: object) -> str:
            raise asyncio.CancelledError

    class Typed:
        def prompt(self, *args: object, **kwargs: object) -> str:
            return f"typed {args} {kwargs}"

    with pytest.raises(KeyboardInterrupt):
        prompt_once(Interrupted())  # type: ignore[arg-type]
    typed = prompt_once(Typed(), "> ", multiline=True)  # type: ignore[arg-type]
    assert typed == "typed ('> ',) {'multiline': True}"
