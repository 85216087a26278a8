"""The in-session queue rules shared by the drill and the simulator (grill.queue)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from grill import queue, session, simulate
from grill.model import CardState, Phase
from grill.queue import LEARN_AHEAD, Pick, pick, reask

NOW = datetime(2026, 12, 2, 9, tzinfo=UTC)


def test_a_learning_card_whose_step_is_up_comes_before_the_queue() -> None:
    assert pick(["a", "b"], {"x": NOW - timedelta(seconds=1)}, NOW) == Pick("x", learning=True)


def test_the_queue_comes_before_learning_cards_not_yet_due() -> None:
    assert pick(["a"], {"x": NOW + timedelta(minutes=5)}, NOW) == Pick("a", learning=False)


def test_with_the_queue_empty_a_card_due_within_learn_ahead_is_asked_early() -> None:
    soon = NOW + timedelta(minutes=9)
    assert pick([], {"x": soon, "y": soon + timedelta(minutes=1)}, NOW) == Pick(
        "x", learning=True, early=timedelta(minutes=9)
    )
    assert pick([], {"x": NOW + LEARN_AHEAD + timedelta(seconds=1)}, NOW) is None


def _state(phase: Phase, due: datetime) -> CardState:
    return CardState("d", "c", phase, 0, 1.0, 5.0, due, NOW)


def test_only_learning_cards_due_soon_are_asked_again_in_the_session() -> None:
    soon = NOW + timedelta(minutes=10)
    assert reask(_state(Phase.LEARNING, soon), NOW) == soon
    assert reask(_state(Phase.RELEARNING, soon), NOW) == soon
    assert reask(_state(Phase.REVIEW, soon), NOW) is None
    assert reask(_state(Phase.LEARNING, NOW + timedelta(hours=1)), NOW) is None
    assert reask(None, NOW) is None


def test_the_drill_and_the_simulator_run_the_same_queue_rules() -> None:
    assert session.pick is queue.pick and simulate.pick is queue.pick
    assert session.reask is queue.reask and simulate.reask is queue.reask
    assert not hasattr(simulate, "_LEARN_AHEAD")
    learning = {1: NOW + timedelta(minutes=3)}
    q: list[int] = []
    assert simulate._pick(q, learning, NOW) == 1 and learning == {}
