"""The drill summary's check of recent recall against the model's prediction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from typer.testing import CliRunner

from grill.cli import app
from grill.deck import load_library
from grill.memory import default_fit, traces
from grill.model import Rating
from grill.report.recall import RecallCheck, recall_check
from grill.scheduler import Scheduler
from grill.session import record_answer
from grill.store import Store

SCHED = Scheduler(enable_fuzzing=False)
NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)  # tests/conftest.py's GRILL_NOW
runner = CliRunner()


def _study(store: Store, recalled: int, cards: int = 20) -> None:
    """`cards` cards learned three days ago (Good, then Good at the 10-minute step), asked again
    this morning: the first `recalled` remembered, the rest forgotten."""
    met = NOW - timedelta(days=3)
    for i, card in enumerate(load_library([]).main_deck().cards[:cards]):  # type: ignore[union-attr]
        record_answer(store, SCHED, card, Rating.GOOD, met)
        record_answer(store, SCHED, card, Rating.GOOD, met + timedelta(minutes=10))
        again = Rating.GOOD if i < recalled else Rating.AGAIN
        record_answer(store, SCHED, card, again, NOW - timedelta(hours=1))


def _check(store: Store) -> RecallCheck | None:
    """The check under FSRS's average learner (the memory before any fit)."""
    return recall_check(traces(store.reviews(), UTC), default_fit())


def test_recall_far_below_the_prediction_is_flagged() -> None:
    with Store.open() as store:
        _study(store, recalled=4)
        check = _check(store)
    assert check is not None
    assert (check.reviews, check.recalled) == (20, 4)  # the first day's reviews are left out
    assert 14 < check.expected < 20 and check.p_low < 1e-6 and check.far_below
    assert check.sentence().startswith(
        "You recalled 4 of the last 20 reviews of cards seen on an earlier day; grill expected "
        f"about {check.expected:.0f}: your memory may be fading faster"
    )


def test_recall_as_predicted_is_not_flagged() -> None:
    with Store.open() as store:
        _study(store, recalled=18)
        check = _check(store)
    assert check is not None and check.recalled == 18 and not check.far_below


def test_a_few_reviews_are_not_enough_to_judge() -> None:
    with Store.open() as store:
        _study(store, recalled=0, cards=5)
        check = _check(store)
        first_day = traces(store.reviews()[:2], UTC)
    assert check is not None and check.reviews == 5 and check.p_low < 0.05
    assert not check.far_below
    assert recall_check(first_day, default_fit()) is None  # a re-ask the same day is no test


def test_the_drill_summary_says_when_recall_is_far_below_the_prediction() -> None:
    with Store.open() as store:
        _study(store, recalled=4)
    shown = runner.invoke(app, ["drill", "--new", "1"], input="my answer\n3\n" * 80)
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.stdout.split())
    assert "session summary" in text
    assert "You recalled 4 of the last 20 reviews of cards seen on an earlier day" in text


def test_the_drill_summary_is_quiet_when_recall_matches() -> None:
    with Store.open() as store:
        _study(store, recalled=19)
    shown = runner.invoke(app, ["drill", "--new", "1"], input="my answer\n3\n" * 80)
    assert shown.exit_code == 0, shown.output
    assert "session summary" in shown.stdout and "You recalled" not in shown.stdout
