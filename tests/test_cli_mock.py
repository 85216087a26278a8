"""`grill mock` and `grill case` from the command line with piped input: what they print, what
the database holds afterwards."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fakes import fake_grade, fake_grade_case
from grill.cli import app
from grill.deck import load_deck
from grill.mock import MockOptions, plan_mock
from grill.model import Mode, SessionStatus
from grill.store import Store

runner = CliRunner()
MINI_CASE = Path(__file__).parent / "decks" / "cases" / "mini-case.yaml"
MINI_DECK = Path(__file__).parent / "decks" / "mock" / "mini.yaml"
ESC = re.compile(r"\x1b\[")


@pytest.fixture(autouse=True)
def graders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keyword graders, so these tests pin the command and not the grader's judgement."""
    monkeypatch.setattr("grill.ui.mock.load_grader", lambda: fake_grade)
    monkeypatch.setattr("grill.ui.case.load_case_grader", lambda: fake_grade_case)


def sessions(mode: Mode) -> list:  # type: ignore[type-arg]
    with Store.open() as store:
        return store.sessions(mode)


def test_piped_mock_prints_plain_text_and_saves_the_session() -> None:
    result = runner.invoke(
        app, ["mock", "--count", "3", "--seed", "5"], input="right\nhalf\nright\n"
    )
    assert result.exit_code == 0, result.output
    assert not ESC.search(result.stdout)
    assert "Question 3 of 3" in result.stdout
    assert "Score 2/3 answered cold · target 2: PASS · floor 2: at the floor" in result.stdout
    assert "target 28/45 -> 2/3, floor 24/45 -> 2" in result.stdout
    [session] = sessions(Mode.MOCK)
    assert session.status == SessionStatus.DONE and session.summary["seed"] == 5
    assert session.summary["scheduled"] is True
    assert session.summary["predicted"] == 0.0  # nothing studied yet: every card counts 0
    with Store.open() as store:
        assert len(store.reviews(mode=Mode.MOCK)) == 3 and len(store.states()) == 3


def test_the_same_seed_asks_the_same_questions() -> None:
    first = runner.invoke(app, ["mock", "-n", "4", "--seed", "9", "--json"], input="x\n" * 4)
    again = runner.invoke(app, ["mock", "-n", "4", "--seed", "9", "--json"], input="x\n" * 4)
    ids = [s.summary["questions"] for s in sessions(Mode.MOCK)]
    assert first.exit_code == again.exit_code == 0
    assert ids[0] == ids[1] and len(ids[0]) == 4


def test_json_output_is_the_result_alone() -> None:
    result = runner.invoke(
        app, ["mock", "--section", "F", "--seed", "1", "--json"], input="right\nno\nno\n"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["score"], data["asked"], data["target"], data["passed"]) == (1, 3, 2, False)
    assert data["sections"] == [
        {
            "key": "F",
            "title": "Loss spikes and recovery",
            "asked": 3,
            "correct": 1,
            "partial": 0,
            "wrong": 2,
        }
    ]
    assert [m["verdict"] for m in data["misses"]] == ["wrong", "wrong"]


def test_eof_saves_an_aborted_mock() -> None:
    result = runner.invoke(app, ["mock", "--count", "5", "--no-schedule"], input="right\n")
    assert result.exit_code == 0, result.output
    assert "STOPPED after 1 answer(s): 1/1 cold so far" in result.stdout
    [session] = sessions(Mode.MOCK)
    assert session.status == SessionStatus.INTERRUPTED and session.summary["status"] == "aborted"
    with Store.open() as store:
        assert len(store.reviews(mode=Mode.MOCK)) == 1 and store.states() == {}


def test_bad_options_are_one_line_errors() -> None:
    result = runner.invoke(app, ["mock", "--section", "Z"])
    assert result.exit_code != 0
    assert "no section 'Z'" in str(result.exception) or "no section 'Z'" in result.output


def test_piped_case_then_history() -> None:
    lines = "grad-norm spiked; rollback\n\n\n1\n\n\n"
    result = runner.invoke(app, ["case", "mini-spike", "--deck", str(MINI_CASE)], input=lines)
    assert result.exit_code == 0, result.output
    assert "Case answer: PARTIAL" in result.stdout
    assert "Follow-up 2 of 2" in result.stdout and "Model answer" in result.stdout
    history = runner.invoke(app, ["case", "--history"])
    assert runner.invoke(app, ["case", "spike", "--history", "--json"]).stdout.strip() == "[]"
    assert "✓culprits ✓triage ✗prevention" in history.stdout
    data = json.loads(runner.invoke(app, ["case", "mini-spike", "--history", "--json"]).stdout)
    assert len(data) == 1 and data[0]["grade"]["verdict"] == "partial"
    assert [f["verdict"] for f in data[0]["follow_ups"]] == ["correct", "wrong"]


def test_case_history_when_empty() -> None:
    result = runner.invoke(app, ["case", "--history"])
    assert result.exit_code == 0 and "No case attempts yet" in result.stdout


def test_unknown_case_is_not_found() -> None:
    result = runner.invoke(app, ["case", "nope", "--deck", str(MINI_CASE)], input="x\n")
    assert result.exit_code != 0 and "no case 'nope'" in str(result.exception)


def test_a_real_piped_mock_with_the_real_grader() -> None:
    """`python -m grill mock` run as a script on a small deck of its own, graded for real."""
    deck = load_deck(MINI_DECK)
    p = plan_mock(
        deck, MockOptions(seed=3), per_question_seconds=60, quick_fire_seconds=20, target=28
    )
    said = {
        "clip": "clip at 1.0",
        "decay": "linear",
        "bf16": "nothing extra",
        "warmup": "2k to 8k steps",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "grill", "mock", "--deck", str(MINI_DECK), "--seed", "3"],
        input="".join(said[q.card.id] + "\n" for q in p.questions),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert not ESC.search(proc.stdout)
    out = proc.stdout
    assert "Score 3/4 answered cold · target 3: PASS · floor 2: above the floor" in out
    assert "Scaled" not in out
    assert "If you can't answer 1-2, start again." in out and "keep going" not in out
    assert re.search(r"A First\s*│\s*1/2\s*│\s*0\s*│\s*1", out)
    assert re.search(r"B Second\s*│\s*2/2\s*│\s*0\s*│\s*0", out)
    assert "#2 Decay shape? (wrong)" in out and "you: linear" in out and "answer: Cosine." in out
    [session] = sessions(Mode.MOCK)
    assert session.summary["deck"] == "mini"
    assert session.summary["questions"] == [q.card.id for q in p.questions]
