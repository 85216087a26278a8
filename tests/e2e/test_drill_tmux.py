"""A person at a real terminal: grill runs inside tmux, keys are sent with send-keys, the screen
is read with capture-pane, and the database is checked afterwards.

Skipped when tmux is absent, unless CI or GRILL_CI is set: then it fails (CI installs tmux).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_util import wait_for_width

from grill.model import Rating, SessionStatus
from grill.store import Store

pytestmark = pytest.mark.e2e

NOW = "2026-12-02T09:00:00+00:00"


def _need_tmux() -> str:
    found = shutil.which("tmux")
    if found:
        return found
    if os.environ.get("CI") or os.environ.get("GRILL_CI"):
        pytest.fail(
            "tmux is not installed, and CI must run the terminal test (apt-get install tmux)"
        )
    pytest.skip(
        "tmux is not installed: the real-terminal drill test needs it (apt-get install tmux)"
    )


class Tmux:
    """One private tmux server (its own socket) running one window."""

    def __init__(self, tmux: str, width: int) -> None:
        self.base = [tmux, "-L", f"grill-test-{uuid.uuid4().hex[:8]}"]
        self.width = width

    def run(self, *args: str) -> str:
        proc = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=10)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def start(self, command: str) -> None:
        self.run("new-session", "-d", "-s", "t", "-x", str(self.width), "-y", "50", command)

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", "t", *(["-l"] if literal else []), *keys)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-J", "-t", "t")

    def wait_for(self, text: str, timeout: float = 15) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; the screen shows:\n{screen}")
            time.sleep(0.1)

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10)


@pytest.fixture(params=[80, 60], ids=["80-columns", "60-columns"])
def tmux(request: pytest.FixtureRequest) -> Iterator[Tmux]:
    session = Tmux(_need_tmux(), request.param)
    yield session
    session.kill()


def test_a_drill_in_a_real_terminal(tmux: Tmux, grill_home: Path) -> None:
    env = {
        "GRILL_HOME": str(grill_home),
        "GRILL_NOW": NOW,
        "NO_COLOR": "1",
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
    }
    grill = f"{shlex.quote(sys.executable)} -m grill drill --new 2"
    assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    tmux.start(
        f"{wait_for_width(tmux.width)} env -i {assignments} {grill}; echo grill-exited-$?; sleep 60"
    )

    screen = tmux.wait_for("Healthy loss curve phases?")
    assert "#1 · A Loss curves · tier 1-15" in screen
    assert "Enter: submit · Alt-Enter: new line" in screen
    assert "1/2" in screen

    tmux.keys("warmup then descent", literal=True)
    tmux.keys("Escape", "Enter")  # Alt-Enter: a second line, not a submit
    tmux.keys("then plateau", literal=True)
    screen = tmux.wait_for("  then plateau")
    assert "Answer: Warmup" not in screen
    tmux.keys("Enter")

    # graded (proposal) or self-rated (no grader yet): either way the model answer is shown
    screen = tmux.wait_for("rating:")
    assert "Answer: Warmup → steady descent → plateau / saturation." in screen
    assert "2 hard" in screen
    tmux.keys("2")
    tmux.wait_for("saved: hard")

    tmux.wait_for("Flat early loss?")
    tmux.keys("C-c")
    screen = tmux.wait_for("grill-exited-0")
    assert "session summary" in screen
    assert "1 review(s) of 1 card(s), 1 new" in screen
    assert "\x1b" not in screen
    assert max(len(line) for line in screen.splitlines()) <= tmux.width

    with Store.open(grill_home / "grill.db") as store:
        [review] = store.reviews()
        [session] = store.sessions()
    assert review.card_id == "loss-curve-phases" and review.rating == Rating.HARD
    assert review.answer == "warmup then descent\nthen plateau"
    assert review.response_ms is not None and review.response_ms > 0  # a person was timed
    assert session.status == SessionStatus.INTERRUPTED


@pytest.mark.parametrize("colour", [False, True], ids=["no-color", "colour"])
def test_grill_due_in_a_real_terminal(tmux: Tmux, grill_home: Path, colour: bool) -> None:
    env = {"GRILL_HOME": str(grill_home), "PATH": os.environ.get("PATH", "")}
    for n in (1, 2, 3):  # studied three days ago: due now
        subprocess.run(
            [sys.executable, "-m", "grill", "review", str(n), "--rating", "good"],
            env={**env, "GRILL_NOW": f"2026-11-29T09:0{n}:00+00:00"},
            check=True,
            capture_output=True,
        )
    env.update({"GRILL_NOW": NOW, "TERM": "xterm-256color"} | ({} if colour else {"NO_COLOR": "1"}))
    assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    grill = f"{shlex.quote(sys.executable)} -m grill due"
    tmux.start(
        f"{wait_for_width(tmux.width)} env -i {assignments} {grill}; echo grill-exited-$?; sleep 60"
    )

    screen = tmux.wait_for("grill-exited-0")
    lines = screen.splitlines()
    assert lines[0] == "Due now: 3" and lines[1].startswith("┏━") and lines[3].startswith("┡━")
    rows = [line.split("│") for line in lines if line.startswith("│")]
    assert [(r[1].strip(), r[2].strip()) for r in rows[:3]] == [
        ("1", "loss-curve-phases"),
        ("2", "flat-early-loss"),
        ("3", "mid-training-spikes"),
    ]
    assert "New today: 15 (limit 15/day, 0 introduced today)" in screen
    assert max(len(line) for line in lines) <= tmux.width
    styled = tmux.run("capture-pane", "-p", "-e", "-t", "t")
    # the ids in cyan on a colour terminal; under NO_COLOR no colour, the header still bold
    assert ("\x1b[36mloss-curve-phases" in styled) is colour
    assert "\x1b[1m#" in styled
