"""The best forecast a simulated learner's log allows: the posterior over the simulator's own
memory models, against which the calibration can tell grill's misses from the log's."""

from __future__ import annotations

import copy
import random

from grill.calibration import calibrate, format_calibration
from grill.ceiling import _least_outside, posterior
from grill.model import Rating
from grill.simulate import ALL_MEMORY_MODELS, FsrsMemory, LeechMemory, memory_of

Event = tuple[int, float, bool, Rating]


def _log(kind: str, seed: int, cards: int = 12) -> tuple[list[Event], float]:
    """A learner of `kind` studying each card on days 0, 1, 3 and 6 at 18:00; and its true
    expected score four days after the last."""
    memory = memory_of(kind, random.Random(seed), cards)
    answers = random.Random(seed + 1)
    events: list[Event] = []
    for day in (0, 1, 3, 6):
        at = day + 0.75
        for card in range(cards):
            chance = memory.chance(card, at) if day else 0.25
            recalled = answers.random() < chance
            rating = Rating.GOOD if recalled else Rating.AGAIN
            memory.study(card, at, recalled, rating)
            events.append((card, at, recalled, rating))
    return events, sum(memory.chance(c, 10.75) for c in range(cards))


def test_the_log_of_a_fast_forgetter_points_at_fast_forgetting_and_a_slow_one_at_slow() -> None:
    for kind, other in (("fast", "slow"), ("slow", "fast")):
        events, truth = _log(kind, seed=3)
        best = posterior(
            events, 10.75, cards=12, target=8, kinds=(kind, other), draws=20, variants=4
        )
        family = dict(best.family)
        assert family[kind] > 0.9, (kind, family)
        assert abs(best.expected - truth) < 2.5, (kind, best.expected, truth)
        assert 0 <= best.p <= 1 and 1 <= best.draws <= 40


def test_the_more_the_models_agree_the_fewer_misses_are_unavoidable() -> None:
    assert abs(_least_outside([10.0, 20.0], [0, 0], [0.5, 0.5], 3) - 0.5) < 1e-12
    assert abs(_least_outside([10.0, 12.0, 30.0], [0, 0, 0], [0.45, 0.45, 0.1], 3) - 0.1) < 1e-12
    assert _least_outside([10.0, 15.9], [0, 0], [0.5, 0.5], 3) == 0.0
    assert _least_outside([5.0], [0.0], [1.0], 3) == 0.0
    # one normal with sd 3: the best window of +-3 (one sd) leaves about 32% outside
    assert abs(_least_outside([5.0], [9.0], [1.0], 3) - 0.3173) < 0.002
    # a card's own uncertainty adds to the models' disagreement
    assert _least_outside([10.0, 15.0], [4.0, 4.0], [0.5, 0.5], 3) > 0.1


def test_drawing_a_learners_cards_afresh_keeps_the_learner() -> None:
    for kind in ALL_MEMORY_MODELS:
        memory = memory_of(kind, random.Random(7), 30)
        again = copy.deepcopy(memory)
        again.draw_cards(random.Random(8), 30)
        kept = {k: v for k, v in vars(memory).items() if not isinstance(v, list)}
        assert kept == {k: v for k, v in vars(again).items() if not isinstance(v, list)}, kind
        assert vars(memory) != vars(again), kind  # some trait of a card moved
    leech = LeechMemory(random.Random(7), 30)
    plain = FsrsMemory(random.Random(7), 30)
    assert leech.w == plain.w and leech.offset == plain.offset  # the same stream as before


def test_the_calibration_shows_the_best_forecast_beside_grills() -> None:
    cal = calibrate(["fast"], learners=1, days=4, ahead=3, seed=8, ceiling=True)
    (row,) = cal.rows
    assert row.ceiling is not None
    assert dict(row.ceiling.family).get("fast", 0) > 0.5
    best = cal.ceiling_summary()
    assert best is not None and best["learners"] == 1
    text = format_calibration(cal)
    assert "best the log allows:" in text and "no forecast can avoid" in text
    assert calibrate(["fast"], learners=1, days=2, ahead=3, seed=8).ceiling_summary() is None
