"""Agreement of the grader with the labelled answer sets, against the floors of issue 4.

Prints a report (run with `-s` to see it). `dev.jsonl` to `dev5.jsonl` are what rubrics are
tuned on; their floors are the issue's test floors, with "trap rejected" read strictly (graded
wrong). `holdout.jsonl`, `holdout2.jsonl` and `holdout3.jsonl` are never used for tuning: only
their totals are printed, and they are held to the issue's goals for unseen answers (92%
correct-vs-not, 85% three-way, 90% of traps rejected — not accepted as correct — and 90% of
correct answers accepted).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grading.agreement import FLOOR_BINARY, FLOOR_TRAPS, Report, evaluate, load_rows
from grill.deck import load_library

HERE = Path(__file__).parent / "grading"


def _report(name: str) -> Report:
    library = load_library(user_decks=False)
    report = evaluate(library, load_rows(HERE / f"{name}.jsonl"))
    print("\n" + report.format(name, per_card=not name.startswith("holdout")))
    return report


@pytest.mark.parametrize("name", ["dev", "dev2", "dev3", "dev4", "dev5"])
def test_tuning_sets_meet_the_test_floors(name: str) -> None:
    report = _report(name)
    assert report.binary >= FLOOR_BINARY, report.format(name)
    assert report.traps_rejected >= FLOOR_TRAPS, report.format(name)  # graded wrong


@pytest.mark.parametrize("name", ["holdout", "holdout2", "holdout3"])
def test_holdout_sets_meet_the_goals_for_unseen_answers(name: str) -> None:
    report = _report(name)
    summary = report.format(name, per_card=False)
    assert report.binary >= 0.92, summary
    assert report.three_way >= 0.85, summary
    assert report.traps_not_accepted >= 0.90, summary
    assert report.correct_accepted >= 0.90, summary


@pytest.mark.parametrize(
    "name", ["dev", "dev2", "dev3", "dev4", "dev5", "holdout", "holdout2", "holdout3"]
)
def test_a_grader_that_accepts_everything_would_fail(name: str) -> None:
    """The floors can fail: grading every answer correct misses them on both sets."""
    report = evaluate(load_library(user_decks=False), load_rows(HERE / f"{name}.jsonl"))
    for outcome in report.outcomes:
        object.__setattr__(outcome, "verdict", "correct")
    assert report.binary < FLOOR_BINARY and report.traps_not_accepted == 0
