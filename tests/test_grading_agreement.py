"""The grader against the labelled answer sets: tuning sets pinned, held-out sets reported.

The tuning sets (`dev.jsonl` to `dev5.jsonl`, and `fresh1.jsonl`, `fresh3.jsonl` to
`fresh32.jsonl`, `fresh34.jsonl` to `fresh36.jsonl`, `fresh38.jsonl` to `fresh40.jsonl` after their
first-contact runs) are pinned row by row at the verdicts the grader gives them now, on the
built-in deck and on the deck made from `seed-questions.csv` (`grading/pinned.json`): a change that
moves any row fails here and names it, and if the move is right the set is re-pinned with `python
tests/grading/agreement.py --pin` in the same commit. A floor of 90% would let a tenth of them
drift unseen.

The held-out sets (`holdout*.jsonl`) are reported, never gated: a gate every tuning step looks
at turns them into tuning sets. Run with `-s` to see their totals. The figure to trust is a
fresh set's first contact (README, Grading).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grading.agreement import (
    PINNED,
    SEED_CSV,
    TUNING,
    Report,
    csv_library,
    evaluate,
    load_rows,
    verdict_letters,
)
from grill.deck import load_library

HERE = Path(__file__).parent / "grading"
HELD_OUT = ("holdout", "holdout2", "holdout3")


def _report(name: str) -> Report:
    return evaluate(load_library(user_decks=False), load_rows(HERE / f"{name}.jsonl"))


def _csv_report(name: str) -> Report:
    made, ids = csv_library(SEED_CSV)
    return evaluate(made, load_rows(HERE / f"{name}.jsonl"), ids)


@pytest.mark.parametrize("deck", ["built-in", "csv"])
@pytest.mark.parametrize("name", TUNING)
def test_tuning_sets_keep_their_pinned_verdicts(name: str, deck: str) -> None:
    key = name if deck == "built-in" else f"{name}:csv"
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))[key]
    report = _report(name) if deck == "built-in" else _csv_report(name)
    now = verdict_letters(report)
    assert len(now) == len(pinned), f"{name} has {len(now)} rows, {len(pinned)} pinned: re-pin"
    moved = [
        f"{key}:{o.row.line} {o.row.label}: pinned {was}, now {o.verdict}: {o.row.answer!r}"
        for o, was, is_ in zip(report.outcomes, pinned, now, strict=True)
        if was != is_
    ]
    assert not moved, "\n".join(moved)


@pytest.mark.parametrize("name", HELD_OUT)
def test_held_out_sets_are_reported(name: str) -> None:
    report = _report(name)
    print("\n" + report.format(name, per_card=False))
    assert report.total > 0


def test_a_grader_that_accepts_everything_would_be_caught() -> None:
    """Pinning is not vacuous: grading every answer correct moves rows of every tuning set."""
    pins = json.loads(PINNED.read_text(encoding="utf-8"))
    for name in TUNING:
        assert set(pins[name]) >= {"c", "p", "w"}, name
