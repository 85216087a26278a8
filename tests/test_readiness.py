"""Readiness: the exact Poisson-binomial distribution against brute force, and golden values
with fixed dates (FSRS retrievability is 0.9 exactly when the elapsed days equal the stability)."""

from __future__ import annotations

import itertools
import math
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grill.model import Card, CardState, Deck, Phase, Point, Rubric, Section, Tier
from grill.readiness import at_least, poisson_binomial, readiness, recall_at

T = datetime(2026, 12, 16, 9, 0, tzinfo=UTC)


def brute_force(chances: list[float]) -> list[float]:
    """P(score == k) by enumerating every outcome of every card."""
    dist = [0.0] * (len(chances) + 1)
    for outcome in itertools.product((0, 1), repeat=len(chances)):
        mass = 1.0
        for hit, p in zip(outcome, chances, strict=True):
            mass *= p if hit else 1 - p
        dist[sum(outcome)] += mass
    return dist


@given(st.lists(st.floats(min_value=0, max_value=1), max_size=9))
def test_poisson_binomial_equals_brute_force_enumeration(chances: list[float]) -> None:
    exact = poisson_binomial(chances)
    assert len(exact) == len(chances) + 1
    assert exact == pytest.approx(brute_force(chances), abs=1e-12)
    assert sum(exact) == pytest.approx(1.0)


def test_poisson_binomial_tail_matches_brute_force_on_random_cases() -> None:
    rng = random.Random(7)
    for size in range(1, 13):
        chances = [rng.random() for _ in range(size)]
        exact, slow = poisson_binomial(chances), brute_force(chances)
        for k in range(size + 2):
            assert at_least(exact, k) == pytest.approx(sum(slow[k:]), abs=1e-12)


def test_poisson_binomial_of_a_large_deck_matches_the_step_by_step_recurrence() -> None:
    rng = random.Random(11)
    chances = [rng.choice([0.0, 1.0, rng.random()]) for _ in range(400)]
    dist = [1.0]
    for p in chances:  # one event at a time: P(k) = P_old(k)(1 - p) + P_old(k - 1)p
        dist = [a * (1 - p) + b * p for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    fast = poisson_binomial(chances)
    assert len(fast) == len(chances) + 1
    assert fast == pytest.approx(dist, abs=1e-12)
    for k in (0, 100, 200, 250, 300, 401):
        assert at_least(fast, k) == pytest.approx(at_least(dist, k), abs=1e-9)


def test_equal_chances_give_the_binomial_distribution() -> None:
    dist = poisson_binomial([0.9] * 45)
    for k in (0, 28, 40, 45):
        assert dist[k] == pytest.approx(math.comb(45, k) * 0.9**k * 0.1 ** (45 - k), rel=1e-9)


def test_at_least_edges() -> None:
    dist = poisson_binomial([0.5, 0.5])
    assert at_least(dist, 0) == 1.0
    assert at_least(dist, -3) == 1.0
    assert at_least(dist, 2) == pytest.approx(0.25)
    assert at_least(dist, 3) == 0.0


def make_card(n: int, section: str) -> Card:
    point = Point("p", "the point", ("point",))
    return Card(f"c{n}", n, section, f"question {n}?", f"answer {n}", Rubric((point,)), "d")


def _state(card_id: str, stability: float, reviewed: datetime) -> CardState:
    return CardState("d", card_id, Phase.REVIEW, None, stability, 5.0, reviewed, reviewed)


def _deck(count: int) -> Deck:
    cards = tuple(make_card(n, "A" if n <= count // 2 else "B") for n in range(1, count + 1))
    half = count // 2
    return Deck(
        "d",
        "Deck",
        "d.yaml",
        cards=cards,
        sections=(Section("A", "Alpha"), Section("B", "Beta")),
        tiers=(Tier(1, half, "first half"), Tier(half + 1, count, "second half")),
        target=3,
        floor=2,
    )


def test_golden_readiness_with_fixed_dates() -> None:
    states = [
        _state("c1", 10.0, T - timedelta(days=10)),  # elapsed = stability: 0.9 exactly
        _state("c2", 5.0, T - timedelta(days=5)),  # 0.9 again
        _state("c4", 1.0, T - timedelta(hours=12)),  # half a day counts: (1 + F/2)^-d
    ]  # c3 never studied: 0
    chances = recall_at(states, T)
    r4 = 0.94034  # by hand: (1 + 0.98047 * 0.5)^-0.1542
    assert chances == pytest.approx({"c1": 0.9, "c2": 0.9, "c4": r4}, abs=1e-5)
    ready = readiness(_deck(4), chances, T, target=3)
    assert ready.expected == pytest.approx(1.8 + r4, abs=1e-5)
    p3 = 0.81 * r4
    p2 = 0.81 * (1 - r4) + 0.18 * r4
    p1 = 0.18 * (1 - r4) + 0.01 * r4
    p0 = 0.01 * (1 - r4)
    assert ready.distribution == pytest.approx((p0, p1, p2, p3, 0.0), abs=1e-5)
    assert ready.p_target == pytest.approx(p3, abs=1e-5)
    assert ready.p_floor == pytest.approx(p2 + p3, abs=1e-5)
    assert ready.studied == 3
    assert [(g.key, round(g.expected, 5), g.n) for g in ready.sections] == [
        ("A", 1.8, 2),
        ("B", r4, 2),
    ]
    assert [g.verdict for g in ready.tiers] == ["first half", "second half"]
    assert [c.id for c in ready.weakest(2)] == ["c3", "c1"]


def test_golden_retrievability_between_whole_days() -> None:
    # FSRS-6: R = (1 + F t/S)^-d, d = 0.1542, F = 0.9^(-1/d) - 1; t is the exact elapsed time
    # (fsrs itself counts whole days, which would give 0.8580 for 4 days here)
    decay = 0.1542
    factor = 0.9 ** (-1 / decay) - 1
    state = _state("c1", 2.3065, T - timedelta(days=4, hours=20))
    (chance,) = recall_at([state], T).values()
    assert chance == pytest.approx((1 + factor * (4 + 20 / 24) / 2.3065) ** -decay, rel=1e-12)
    assert chance == pytest.approx(0.8418, abs=1e-4)  # by hand: (1 + 0.98047 * 2.09553)^-0.1542


def test_target_probability_on_the_45_card_deck() -> None:
    deck = _deck(45)
    chances = {f"c{n}": 0.9 for n in range(1, 31)}  # 30 cards known at 0.9, 15 never studied
    ready = readiness(deck, chances, T, target=28, floor=24)
    binomial = sum(math.comb(30, k) * 0.9**k * 0.1 ** (30 - k) for k in range(28, 31))
    assert ready.expected == pytest.approx(27.0)
    assert ready.p_target == pytest.approx(binomial, rel=1e-9)
    assert ready.p_target == pytest.approx(0.4114, abs=1e-4)
    assert ready.tiers[0].mastery == pytest.approx(0.9)
    assert ready.tiers[1].mastery == pytest.approx(0.9 * 8 / 23)


def test_a_card_reviewed_after_the_moment_did_not_count_yet() -> None:
    later = _state("c1", 10.0, T + timedelta(days=1))
    assert recall_at([later], T) == {}
    assert readiness(_deck(4), {}, T, target=3).expected == 0.0
    assert readiness(_deck(4), {}, T, target=3).p_target == 0.0
