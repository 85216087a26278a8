"""`grill grade` and the phrase check of `grill decks validate`, as a user types them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from grill.cli import app
from grill.errors import DeckError, NotFoundError, UsageError
from grill.model import Flag, Grade, Point, Verdict
from grill.ui.grade import render_grade

runner = CliRunner()

DECK = """\
deck: mini
title: Mini
sections: [{key: A, title: A}]
cards:
  - id: mini-clip
    n: 1
    section: A
    question: Standard clip value?
    answer: 1.0 by global norm.
    rubric:
      points:
        - {id: one, says: clip at 1.0, match: ["{1}"]}
        - {id: global, says: on the global norm, match: ["global norm"]}
      wrong:
        - {id: per-layer, says: clips each layer on its own, match: ["per layer"]}
cases:
  - id: mini-spike
    title: Spikes
    question: What causes loss spikes?
    tests: t
    covers: c
    wrong_answers: w
    parts:
      - id: culprits
        says: causes
        items: [{id: overflow, says: fp16 overflow, match: ["fp16 overflow"]}]
      - id: triage
        says: triage
        items: [{id: rollback, says: roll back, match: ["rollback"]}]
    red_flags:
      - {id: restart_from_scratch, says: restarts, match: ["restart .. scratch"]}
    follow_ups_text: f
    example: e
    source: s
"""


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    path = tmp_path / "mini.yaml"
    path.write_text(DECK, encoding="utf-8")
    return path


def invoke(*args: str, input: str | None = None) -> tuple[int, str, BaseException | None]:
    result = runner.invoke(app, list(args), input=input)
    exc = result.exception if not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.stdout, exc


def test_grade_json(deck: Path) -> None:
    code, out, exc = invoke(
        "grade", "mini-clip", "--deck", str(deck), "--answer", "1.0 global norm", "--json"
    )
    assert code == 0 and exc is None, out
    data = json.loads(out)
    assert data["verdict"] == "correct" and data["matched"] == ["one", "global"]
    assert data["short_answer"] == "1.0 by global norm."


def test_grade_human_output_shows_why(deck: Path) -> None:
    answer = "clip [i] per layer at 1"
    code, out, _ = invoke("grade", "mini/1", "--deck", str(deck), "--answer", answer)
    assert code == 0, out
    assert "wrong" in out
    assert "clips each layer on its own" in out
    assert "you wrote: “per layer”" in out
    assert "Short answer: 1.0 by global norm." in out


def test_grade_answer_file_and_stdin(deck: Path, tmp_path: Path) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text("one, on the global norm\n", encoding="utf-8")
    code, out, _ = invoke("grade", "mini-clip", "--deck", str(deck), "--answer-file", str(answer))
    assert code == 0 and "correct" in out
    code, out, _ = invoke(
        "grade", "mini-clip", "--deck", str(deck), "--answer-file", "-", "--json", input="1.0"
    )
    assert json.loads(out)["verdict"] == "partial"


def test_grade_case(deck: Path) -> None:
    code, out, _ = invoke(
        "grade", "mini-spike", "--deck", str(deck), "--answer", "fp16 overflow; roll back", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["verdict"] == "correct"
    assert data["parts"] == {
        "culprits": {"covered": True, "items": ["overflow"]},
        "triage": {"covered": True, "items": ["rollback"]},
    }
    code, out, _ = invoke("grade", "mini-spike", "--deck", str(deck), "-a", "restart from scratch")
    assert code == 0 and "Red flags" in out and "restart from scratch" in out


def test_batch_keeps_order_and_names_bad_lines(deck: Path, tmp_path: Path) -> None:
    batch = tmp_path / "b.jsonl"
    lines = [
        {"card": "mini-clip", "answer": "1.0 global norm"},
        {"card": "mini-spike", "answer": "restart from scratch"},
        {"card": "mini/1", "answer": "idk"},
    ]
    batch.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    code, out, _ = invoke("grade", "--batch", str(batch), "--deck", str(deck), "--json")
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["verdict"] for r in results] == ["correct", "wrong", "wrong"]
    assert results[1]["red_flags"] == ["restart_from_scratch"]
    batch.write_text('{"card": "1", "answer": "x"}\n{"card": 1, "answer"\n', encoding="utf-8")
    code, out, exc = invoke("grade", "--batch", str(batch), "--deck", str(deck))
    assert isinstance(exc, UsageError) and f"{batch}:2: not valid JSON" in str(exc)
    assert out == ""


def test_usage_errors(deck: Path) -> None:
    _, _, exc = invoke("grade", "mini-clip", "--deck", str(deck))
    assert isinstance(exc, UsageError)
    _, _, exc = invoke("grade", "mini-clip", "--deck", str(deck), "-a", "x", "--batch", "f")
    assert isinstance(exc, UsageError)
    _, _, exc = invoke("grade", "nope", "--deck", str(deck), "-a", "x")
    assert isinstance(exc, NotFoundError) and "no case 'nope'" in str(exc)


def test_builtin_cards_grade_by_number() -> None:
    code, out, _ = invoke("grade", "21", "--answer", "1.0 on the global norm", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["card"] == "clip-value"
    assert set(data) == {"card", "verdict", "score", "matched", "missed", "flags", "short_answer"}
    assert data["verdict"] in ("correct", "partial", "wrong")


def test_decks_validate_reports_bad_phrases(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(DECK.replace('["global norm"]', '["global (norm"]'), encoding="utf-8")
    _, _, exc = invoke("decks", "validate", str(bad))
    assert isinstance(exc, DeckError) and exc.exit_code == 2
    assert "bad.yaml:5:" in str(exc)
    assert "card 'mini-clip' point 'global' match 'global (norm'" in str(exc)
    good = tmp_path / "good.yaml"
    good.write_text(DECK, encoding="utf-8")
    code, out, exc = invoke("decks", "validate", str(good))
    assert code == 0 and exc is None and "ok" in out


def test_rendering_never_reads_user_text_as_markup() -> None:
    flag = Flag("w", "says [red]w", "clip [bold]per layer[/] at 1")
    point = Point("p", "says [p]", ("p",))
    grade = Grade("c", Verdict.WRONG, 0.0, (), (point,), (flag,), "x", "short [/] answer")
    console = Console(file=io.StringIO(), width=100, color_system=None)
    render_grade(console, grade)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "“clip [bold]per layer[/] at 1”" in shown
    assert "says [red]w" in shown and "says [p]" in shown and "short [/] answer" in shown


@pytest.mark.parametrize(
    ("answer", "rule"),
    [
        ("clip at 1.0, never the global norm", "negation.hard"),
        ("clip at 1.0; the global norm is not used", "negation.verbal"),
    ],
)
def test_grade_json_names_the_trigger_of_a_contradiction(
    deck: Path, answer: str, rule: str
) -> None:
    code, out, _ = invoke("grade", "mini-clip", "--deck", str(deck), "-a", answer, "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["verdict"] == "wrong"
    assert [(f["id"], f["rule"]) for f in data["flags"]] == [("global", rule)]
