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
from datetime import timedelta
from pathlib import Path

import pytest
from tmux_util import wait_for_width

from grill.clock import study_day
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
    too_long = [line for line in screen.splitlines() if len(line) > tmux.width]
    assert not too_long, too_long  # (capture-pane -J joins what the terminal wrapped)

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


def _start_grill(tmux: Tmux, home: Path, args: str) -> None:
    env = {
        "GRILL_HOME": str(home),
        "GRILL_NOW": NOW,
        "NO_COLOR": "1",
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
    }
    assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    grill = f"{shlex.quote(sys.executable)} -m grill {args}"
    tmux.start(
        f"{wait_for_width(tmux.width)} env -i {assignments} {grill}; echo grill-exited-$?; sleep 60"
    )


def _wait_for_prompt(tmux: Tmux) -> None:
    """Until the answer prompt is up: keys sent before it echo outside it and are lost."""
    deadline = time.monotonic() + 15
    while tmux.screen().rstrip().splitlines()[-1:] != [">"]:
        assert time.monotonic() < deadline, f"no answer prompt; the screen shows:\n{tmux.screen()}"
        time.sleep(0.1)


def _answer(tmux: Tmux, text: str) -> str:
    """Type an answer once the prompt is up (keys sent earlier echo outside it), submit it and
    return the screen from that answer on, once its rating keys show."""

    def everything() -> str:  # the scrollback too, so earlier answers are counted
        return tmux.run("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    asked = everything().count(f"> {text}")
    deadline = time.monotonic() + 15
    _wait_for_prompt(tmux)
    tmux.keys(text, literal=True)
    while everything().count(f"> {text}") == asked:
        assert time.monotonic() < deadline, f"answer not typed; the screen shows:\n{tmux.screen()}"
        time.sleep(0.1)
    tmux.keys("Enter")
    while True:  # the prompt erases the answer, then it is echoed again: count it again
        shown = everything()
        feedback = shown.split(f"> {text}")[-1]
        if shown.count(f"> {text}") > asked and "rating:" in feedback:
            return feedback
        assert time.monotonic() < deadline, f"no feedback; the screen shows:\n{feedback}"
        time.sleep(0.1)


def test_undo_on_the_first_card_takes_back_the_answer_it_showed(
    tmux: Tmux, grill_home: Path
) -> None:
    _start_grill(tmux, grill_home, "drill --new 1")
    tmux.wait_for("Healthy loss curve phases?")
    _answer(tmux, "rapid drop then plateau")
    tmux.keys("u")
    screen = tmux.wait_for("answer again")
    assert "undone: your answer (it was not saved)" in screen.replace("\n", " ")
    assert "nothing to undo" not in screen
    _wait_for_prompt(tmux)
    tmux.keys("/quit", literal=True)
    tmux.keys("Enter")
    screen = tmux.wait_for("grill-exited-0")
    assert "0 review(s) of 0 card(s)" in screen
    with Store.open(grill_home / "grill.db") as store:
        assert store.reviews() == []  # the screen said it was taken back: nothing is saved


def test_the_interval_on_the_rating_key_is_the_one_saved(tmux: Tmux, grill_home: Path) -> None:
    env = {**os.environ, "GRILL_HOME": str(grill_home)}
    for n in (1, 2, 3):  # learned two weeks ago: due now, on intervals long enough to fuzz
        env["GRILL_NOW"] = f"2026-11-18T09:0{n}:00+00:00"
        subprocess.run(
            [sys.executable, "-m", "grill", "review", str(n), "--rating", "easy"],
            env=env,
            check=True,
            capture_output=True,
        )
    _start_grill(tmux, grill_home, "drill --new 0")
    promised = {}
    for key in "342":
        screen = _answer(tmux, "warmup, steady descent, plateau")
        keys = " ".join(screen.split("proposed:")[-1].split())
        label = {"2": "hard", "3": "good", "4": "easy"}[key]
        shown = keys.split(f"{key} {label} ")[1].split(" ")[0]
        tmux.keys(key)
        screen = tmux.wait_for(f"saved: {label}")
        saved = screen.split(f"saved: {label} · next in ")[-1].split()[0]
        assert saved == shown
        promised[label] = shown
    tmux.keys("q")
    tmux.wait_for("grill-exited-0")
    with Store.open(grill_home / "grill.db") as store:
        reviews = [r for r in store.reviews() if r.session_id is not None]
    # a review is due from the start of a later study day: "next in 48d" is 48 study days on
    got = {
        r.rating.label: f"{(study_day(r.after.due) - study_day(r.reviewed_at)).days}d"
        for r in reviews
        if r.after
    }
    assert got == promised


def test_a_card_back_before_its_step_says_it_is_early(tmux: Tmux, grill_home: Path) -> None:
    _start_grill(tmux, grill_home, "drill --new 1")
    tmux.wait_for("Healthy loss curve phases?")
    _answer(tmux, "warmup, steady descent, plateau")
    tmux.keys("3")
    tmux.wait_for("saved: good · next in 10m")
    screen = tmux.wait_for("2/2")
    flat = " ".join(screen.split("saved: good · next in 10m")[1].split())
    assert "asked early: due in 10m, but nothing else is waiting Healthy loss curve" in flat
    tmux.keys("C-c")
    tmux.wait_for("grill-exited-0")
    with Store.open(grill_home / "grill.db") as store:
        [review] = store.reviews()
    assert review.after is not None and review.after.due - review.reviewed_at == timedelta(
        minutes=10
    )
