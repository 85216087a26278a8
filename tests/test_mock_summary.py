"""A mock's saved summary: written by the recorder with `to_dict`, read back with `from_dict`,
the same bytes both ways; and summaries as older grills wrote them still read and report."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from fakes import FakeClock, fake_grade
from grill.config import Settings
from grill.deck import load_library
from grill.mock import (
    MockOptions,
    MockRun,
    MockSummary,
    SavedAnswer,
    SavedMiss,
    SavedResult,
    SectionScore,
    StoreRecorder,
    TierScore,
    VerdictCounts,
    plan_mock,
)
from grill.model import Mode
from grill.report import gather, render
from grill.store import Store

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)

# A mock's summary as the grill of 2 December 2026 (the first to keep mocks) wrote it: its misses
# have no `ticked` and the summary no `predicted_cards`; its prediction covered every planned
# question although the mock was aborted after one.
OLD_SUMMARY = {
    "status": "aborted",
    "score": 0,
    "asked": 1,
    "answered": 1,
    "verdicts": {"correct": 0, "partial": 0, "wrong": 1},
    "target": 1,
    "floor": 1,
    "full_target": 28,
    "full_floor": 24,
    "deck_size": 45,
    "scaled": True,
    "passed": None,
    "above_floor": None,
    "sections": [
        {"key": "B", "title": "Learning rate", "asked": 1, "correct": 0, "partial": 0, "wrong": 1}
    ],
    "tiers": [{"tier": "1-15", "asked": 1, "correct": 0, "verdict": "Keep drilling."}],
    "misses": [
        {
            "id": "warmup-why",
            "n": 7,
            "question": "Why warm up?",
            "verdict": "wrong",
            "answer": "no idea",
            "short_answer": "Adam's early estimates",
            "timed_out": False,
        }
    ],
    "seconds_used": 4.2,
    "wall_seconds": 5.0,
    "timed_out": 0,
    "seed": 3,
    "spoken": False,
    "deck": "training-behaviors",
    "section": None,
    "scheduled": True,
    "predicted": 2.0,
    "questions": ["warmup-why", "a", "b", "c"],
    "answers": [
        {
            "id": "warmup-why",
            "n": 7,
            "section": "B",
            "answer": "no idea",
            "verdict": "wrong",
            "seconds": 4.2,
            "limit": 60.0,
            "timed_out": False,
            "matched": [],
            "missed": ["adam"],
            "flags": [],
            "ticked": None,
            "answered_at": "2026-12-01T09:00:04+00:00",
        }
    ],
}


@pytest.fixture
def store(grill_home: Path) -> Iterator[Store]:
    with Store.open() as s:
        yield s


def saved_mock(store: Store) -> dict[str, object]:
    """Run a real mock of four questions (one spoken, one left unanswered by time) into the
    store and return its summary as kept."""
    deck = load_library().deck("training-behaviors")
    options = MockOptions(count=4, seed=2, total_minutes=2)
    plan = plan_mock(deck, options, per_question_seconds=60, quick_fire_seconds=20, target=28)
    clock = FakeClock()
    recorder = StoreRecorder(store, scheduler=None, predict=lambda ids: 0.5 * len(ids))
    run = MockRun(plan, clock=clock, now=lambda: NOW, grader=fake_grade, recorder=recorder)
    for text in ("right", "half"):
        run.start()
        clock.advance(12.34)
        run.submit(text)
    run.start()
    clock.advance(3)
    question = run.current
    assert question is not None
    run.submit_ticks([question.card.rubric.points[0].id])
    clock.advance(200)  # the total time runs out before the fourth question
    run.finish()
    (session,) = store.sessions(Mode.MOCK)
    return dict(session.summary)


def test_a_saved_summary_reads_back_to_the_same_bytes(store: Store) -> None:
    saved = saved_mock(store)
    summary = MockSummary.from_dict(saved)
    assert json.dumps(summary.to_dict()) == json.dumps(saved)
    assert summary.result.asked == 4 and summary.result.answered == 3
    assert summary.predicted == 2.0 and summary.predicted_cards == 4
    assert [m.verdict for m in summary.result.misses][-1] == "not reached"
    assert summary.answers[2].ticked is not None and summary.answers[0].ticked is None
    assert summary.answers[0].seconds == 12.3 and summary.answers[0].answered_at == NOW
    assert MockSummary.from_dict(summary.to_dict()) == summary


def test_a_summary_as_an_older_grill_wrote_it_still_reads() -> None:
    summary = MockSummary.from_dict(OLD_SUMMARY)
    (miss,) = summary.result.misses
    assert miss == SavedMiss(
        "warmup-why", 7, "Why warm up?", "wrong", "no idea", "Adam's early estimates", False, None
    )
    assert summary.predicted_cards is None
    assert summary.prediction == pytest.approx(2.0 / 4)  # it covered the 4 planned, 1 scored
    assert summary.result.sections[0].title == "Learning rate"
    assert summary.result.tiers[0].verdict == "Keep drilling."
    assert summary.answers[0].answered_at == NOW - timedelta(days=1, seconds=-4)


def test_values_of_the_wrong_type_read_as_their_defaults() -> None:
    odd = {"score": 2, "asked": "3", "sections": ["x", {"key": 5, "asked": True}], "misses": {}}
    result = MockSummary.from_dict(odd).result
    assert (result.score, result.asked, result.misses) == (2, 0, ())
    assert (result.sections[0].key, result.sections[0].asked) == ("", 0)
    assert MockSummary.from_dict({}).result.asked == 0  # a mock still open: nothing scored


@pytest.mark.parametrize(
    "record",
    [MockSummary, SavedAnswer, SavedMiss, SavedResult, SectionScore, TierScore, VerdictCounts],
)
def test_every_field_of_every_record_can_be_read_and_written(record: type[Any]) -> None:
    empty = record.from_dict({})  # a field type with no reader fails here
    assert record.from_dict(json.loads(json.dumps(empty.to_dict()))) == empty


def test_the_reports_show_an_older_mock_from_its_typed_summary(store: Store) -> None:
    session = store.start_session(Mode.MOCK, NOW - timedelta(days=1))
    store.finish_session(session.id, NOW - timedelta(hours=23), summary=OLD_SUMMARY)
    data = gather(store, load_library([]), Settings(), NOW)
    (entry,) = data.mocks
    assert entry.predicted == pytest.approx(0.5) and entry.status == "aborted"
    page = render(data, "html")
    assert ">Why warm up?</td>" in page and ">B Learning rate</td>" in page
    assert "| 7 | Why warm up? | no idea | Adam's early estimates |" in render(data, "md")
    (mock,) = json.loads(render(data, "json"))["mocks"]
    assert mock["misses"][0]["ticked"] is None and mock["sections"] == OLD_SUMMARY["sections"]
