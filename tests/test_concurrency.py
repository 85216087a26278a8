"""Two grills on one database at the same time: no review lost, no "database is locked" shown.

Three pairs of processes start together on one fresh GRILL_HOME (so they also race to create
the database and its schema): two `grill drill` sessions fed N answers each, two loops of
`grill review`, and two processes opening the store for every review (as `grill review` does)
with SQLite's busy timeout cut to 1 ms, so that the store's own retry, not the busy handler,
has to carry them through. Every review of both must be in the log.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

NOW = "2026-12-02T09:00:00+00:00"


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(GRILL_HOME=str(home), GRILL_NOW=NOW, NO_COLOR="1", COLUMNS="100")
    return env


def _together(commands: list[list[str]], home: Path, inputs: list[str] | None = None) -> list[str]:
    """Start the commands at once, wait for all; each must succeed. Returns their output."""
    procs = [
        subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=_env(home),
            text=True,
            encoding="utf-8",
        )
        for command in commands
    ]
    outputs = []
    for i, proc in enumerate(procs):
        text, _ = proc.communicate(inputs[i] if inputs else "", timeout=120)
        assert proc.returncode == 0, text
        outputs.append(text)
    for text in outputs:
        assert "locked" not in text and "busy" not in text and "Traceback" not in text, text
    return outputs


def _log(db: Path) -> list[tuple[str, int | None]]:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [(str(r[0]), r[1]) for r in conn.execute("SELECT card_id, session_id FROM reviews")]
    finally:
        conn.close()


def test_two_drills_at_once_keep_every_review(tmp_path: Path) -> None:
    n = 60
    home = tmp_path / "home"
    lines = "".join(f"answer {i}\n{'1312'[i % 4]}\n" for i in range(n))  # mostly re-asked
    drill = [sys.executable, "-m", "grill", "drill", "--new", "45"]
    outputs = _together([drill, drill], home, [lines, lines])
    assert [out.count("saved: ") for out in outputs] == [n, n]
    log = _log(home / "grill.db")
    sessions = sorted({s for _, s in log})
    print(f"\ntwo drills at once: {len(log)} reviews written of {2 * n}, lost {2 * n - len(log)}")
    assert len(log) == 2 * n
    assert len(sessions) == 2 and all(sum(s == k for _, s in log) == n for k in sessions)


@pytest.mark.slow
def test_two_loops_of_grill_review_at_once_keep_every_review(tmp_path: Path) -> None:
    n = 6
    home = tmp_path / "home"
    loop = (
        "import subprocess, sys\n"
        f"for i in range({n}):\n"
        "    subprocess.run([sys.executable, '-m', 'grill', 'review', str(i % 45 + 1),"
        " '--rating', 'good', '--answer', sys.argv[1] + str(i)], check=True)\n"
    )
    _together(
        [[sys.executable, "-c", loop, "first "], [sys.executable, "-c", loop, "second "]], home
    )
    log = _log(home / "grill.db")
    print(f"\ntwo review loops at once: {len(log)} reviews written of {2 * n}")
    assert len(log) == 2 * n


def test_store_retries_carry_two_writers_past_a_1ms_busy_timeout(tmp_path: Path) -> None:
    n = 150
    home = tmp_path / "home"
    script = (
        "import sys\n"
        "import grill.store\n"
        "from grill.clock import now\n"
        "from grill.deck import load_library\n"
        "from grill.scheduler import Scheduler\n"
        "from grill.session import record_answer\n"
        "from grill.model import Rating\n"
        "grill.store.BUSY_TIMEOUT_MS = 1  # SQLite gives up at once: the store must retry\n"
        "cards = load_library().cards()\n"
        "sched = Scheduler(enable_fuzzing=False)\n"
        f"for i in range({n}):\n"
        "    with grill.store.Store.open() as store:  # one open per review, like grill review\n"
        "        record_answer(store, sched, cards[i % len(cards)], Rating.GOOD, now(),\n"
        "                      answer=sys.argv[1])\n"
    )
    _together([[sys.executable, "-c", script, "a"], [sys.executable, "-c", script, "b"]], home)
    log = _log(home / "grill.db")
    print(f"\ntwo writers, 1 ms busy timeout: {len(log)} reviews written of {2 * n}")
    assert len(log) == 2 * n
