"""The in-session queue rules shared by the drill and the simulator (grill.queue)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from grill import queue, session, simulate
from grill.model import CardState, Phase, Rating
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


def test_ahead_can_keep_a_reask_behind_the_queue_until_it_is_empty() -> None:
    learning = {"x": NOW - timedelta(seconds=1)}
    behind = lambda card, head: False  # noqa: E731
    assert pick(["a"], learning, NOW, behind) == Pick("a", learning=False)
    assert pick([], learning, NOW, behind) == Pick("x", learning=True)
    assert pick(["a"], learning, NOW, lambda card, head: head == "a") == Pick("x", learning=True)


def test_the_simulated_drill_keeps_reasks_behind_the_queue_as_the_drill_does() -> None:
    interview = NOW + timedelta(days=4)
    dated = simulate.FsrsPolicy(0.9, 10, interview)
    assert dated.answer(1, Rating.AGAIN, NOW) is not None  # failed: a re-ask in a minute
    later = NOW + timedelta(minutes=2)
    ahead = dated.ahead(later)
    assert ahead is not None and not ahead(1, 2)  # card 2, never met, goes first
    assert simulate._pick([2], {1: NOW + timedelta(minutes=1)}, later, ahead) == 2
    assert simulate.FsrsPolicy(0.9, 10, None).ahead(later) is None
