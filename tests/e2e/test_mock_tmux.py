"""A mock interview in a real terminal (tmux): the countdown runs while the user types, auto-submit
fires at zero with what was typed, the score screen shows, and the database holds the session.

Skipped when tmux is absent, except under CI (env CI or GRILL_CI), where that is a failure.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tmux_util import wait_for_width

from grill.model import Mode, SessionStatus
from grill.store import Store

pytestmark = pytest.mark.e2e


def _need_tmux() -> None:
    if shutil.which("tmux"):
        return
    if os.environ.get("CI") or os.environ.get("GRILL_CI"):
        pytest.fail("tmux is required under CI (install it: apt-get install -y tmux)")
    pytest.skip("tmux is not installed (apt-get install -y tmux); set CI=1 to make this a failure")


class Screen:
    """One tmux session running one command in a window of a fixed size, on a tmux server of
    its own (`-L`), so it shares nothing with the user's tmux or another test."""

    def __init__(self, name: str) -> None:
        self.name = name

    def tmux(self, *args: str) -> str:
        proc = subprocess.run(
            ["tmux", "-L", self.name, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            timeout=10,
        )
        return proc.stdout

    def start(self, command: str, env: dict[str, str], width: int = 100, height: int = 40) -> None:
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # the terminal, not the test's COLUMNS, sets the width; the window stays open after
        # grill exits so its last screen can be read
        shell = (
            f"{wait_for_width(width)} env -u COLUMNS -u LINES {exports} {command};"
            " echo GRILL-EXIT=$?; sleep 120"
        )
        self.tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), shell)

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", self.name)

    def type(self, keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", keys)

    def wait_for(self, check: Callable[[str], bool], timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.text()
            if check(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting; the screen shows:\n{self.text()}")

    def close(self) -> None:
        socket = self.tmux("display-message", "-p", "#{socket_path}").strip()
        self.tmux("kill-server")
        if socket:
            Path(socket).unlink(missing_ok=True)


@pytest.fixture
def screen() -> Iterator[Screen]:
    _need_tmux()
    s = Screen(f"grill-e2e-{uuid.uuid4().hex[:8]}")
    yield s
    s.close()


def _colours(raw: str) -> set[str]:
    """The colour codes (not bold, reverse or resets) in a screen captured with escapes."""
    found = set()
    for params in re.findall(r"\x1b\[([0-9;]*)m", raw):
        for code in params.split(";"):
            if code.isdigit() and (
                30 <= int(code) <= 38 or 40 <= int(code) <= 48 or int(code) >= 90
            ):
                found.add(code)
    return found


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {
        "GRILL_HOME": str(home),
        "GRILL_NOW": "2026-12-02T09:00:00+00:00",
        "TERM": "xterm-256color",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"),
    }
    return {**env, **extra}


def _mock_command(seconds: int) -> str:
    args = ["-m", "grill", "mock", "--count", "2", "--section", "A", "--seed", "1"]
    return shlex.join([sys.executable, *args, "--per-question", str(seconds)])


def test_auto_submit_fires_and_the_session_is_saved(screen: Screen, tmp_path: Path) -> None:
    home = tmp_path / "home"
    screen.start(_mock_command(3), _env(home))
    screen.wait_for(lambda s: "left · question 1/2" in s)
    screen.type("bad batch and")  # part of an answer, never submitted by hand
    typed_at = time.monotonic()
    shown = screen.wait_for(lambda s: "GRILL-EXIT=" in s)
    assert time.monotonic() - typed_at < 15
    assert shown.count("time: submitted what was typed") == 2
    assert "Question 2 of 2" in shown
    assert "Score " in shown and "/2 answered cold · target 2:" in shown
    assert "you: bad batch and" in shown
    assert "GRILL-EXIT=0" in shown
    with Store.open(home / "grill.db") as store:
        [session] = store.sessions(Mode.MOCK)
        reviews = store.reviews(session_id=session.id)
    assert session.status == SessionStatus.DONE
    assert session.summary["timed_out"] == 2 and session.summary["answered"] == 2
    assert [r.answer for r in reviews] == ["bad batch and", ""]
    assert all(r.response_ms == 3000 for r in reviews)


def test_narrow_no_color_terminal_shows_the_countdown_and_ctrl_c_keeps_answers(
    screen: Screen, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    screen.start(_mock_command(30), _env(home, NO_COLOR="1"), width=60, height=24)
    screen.wait_for(lambda s: "left · question 1/2" in s)
    screen.type("overfitting")
    screen.tmux("send-keys", "-t", screen.name, "Enter")
    screen.wait_for(lambda s: "left · question 2/2" in s)
    screen.tmux("send-keys", "-t", screen.name, "C-c")
    shown = screen.wait_for(lambda s: "GRILL-EXIT=" in s)
    raw = screen.tmux("capture-pane", "-p", "-e", "-S", "-200", "-t", screen.name)
    assert _colours(raw) == set(), raw  # NO_COLOR: bold, dim and reverse only
    assert "STOPPED after 1 answer(s)" in shown
    assert max(len(line) for line in shown.splitlines()) <= 60, shown
    with Store.open(home / "grill.db") as store:
        [session] = store.sessions(Mode.MOCK)
        [review] = store.reviews(session_id=session.id)
    assert session.status == SessionStatus.INTERRUPTED and review.answer == "overfitting"


def test_case_answer_over_two_lines_is_submitted_at_zero(screen: Screen, tmp_path: Path) -> None:
    home = tmp_path / "home"
    deck = Path(__file__).resolve().parents[1] / "decks" / "cases" / "mini-case.yaml"
    args = ["-m", "grill", "case", "mini-spike", "--deck", str(deck), "--minutes", "0.05"]
    screen.start(shlex.join([sys.executable, *args]), _env(home))
    screen.wait_for(lambda s: "left · case mini-spike" in s)
    screen.type("grad norm spiked")
    screen.tmux("send-keys", "-t", screen.name, "Escape", "Enter")  # Alt-Enter: a new line
    screen.type("so roll back to the last ckpt")
    shown = screen.wait_for(lambda s: "Follow-up 1 of 2" in s)
    assert "Case answer: PARTIAL (submitted at zero)" in shown
    screen.tmux("send-keys", "-t", screen.name, "C-c")
    shown = screen.wait_for(lambda s: "GRILL-EXIT=" in s)
    assert "Stopped. The attempt so far is saved." in shown and "Model answer" in shown
    with Store.open(home / "grill.db") as store:
        [session] = store.sessions(Mode.CASE)
        [review] = store.reviews(session_id=session.id)
    assert session.status == SessionStatus.INTERRUPTED
    assert review.answer == "grad norm spiked\nso roll back to the last ckpt"
