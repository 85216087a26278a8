"""Readiness: will the target be reached on the day? Expected cold score and P(score >= target).

Pure: it takes each card's chance of cold recall at a moment T and returns numbers, no I/O.
A card's chance at T is its FSRS retrievability at T (`recall_at` asks the scheduler); a card never
studied counts as 0. The score of a cold run through the deck is then a sum of independent
Bernoulli draws with different chances: a Poisson-binomial variable. Its distribution is computed
exactly by dynamic programming (O(n^2), n = 45 here), not by a normal approximation, because the
tail P(score >= 28) is what the user asks about and a normal approximation is poorest in the tails.

`forecast` does the same under a person's fitted memory (grill.memory): each mixture component
(a candidate model and a time scale, weighted by how well it explains the log) gives its own
chances; the distribution is the weighted mixture of their Poisson-binomials, so P(score >=
target) is integrated over what is not known about the person, and `low`-`high` is the 80%
interval of the expected score across components.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from grill.memory import INTERVAL, Forecaster, MemoryFit, Trace, components, interval
from grill.model import CardState, Deck
from grill.odds import at_least, interval_text, poisson_binomial
from grill.scheduler import Scheduler

__all__ = [
    "INTERVAL",
    "CardRecall",
    "GroupReadiness",
    "Readiness",
    "at_least",
    "forecast",
    "forecast_for",
    "forecast_with",
    "poisson_binomial",
    "predicted_score",
    "readiness",
    "readiness_at",
    "recall_at",
]


@dataclass(frozen=True)
class CardRecall:
    """One card's chance of cold recall at the readiness moment."""

    id: str
    n: int
    section: str
    tier: str | None
    chance: float
    studied: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "n": self.n,
            "section": self.section,
            "tier": self.tier,
            "chance": round(self.chance, 4),
            "studied": self.studied,
        }


@dataclass(frozen=True)
class GroupReadiness:
    """A section or tier: its cards' expected cold score out of `n`; `verdict` for tiers."""

    key: str
    title: str
    n: int
    expected: float
    studied: int
    verdict: str | None = None

    @property
    def mastery(self) -> float:
        """The mean chance of cold recall in the group (0 for an empty group)."""
        return self.expected / self.n if self.n else 0.0

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "key": self.key,
            "title": self.title,
            "n": self.n,
            "expected": round(self.expected, 3),
            "mastery": round(self.mastery, 4),
            "studied": self.studied,
        }
        if self.verdict is not None:
            data["verdict"] = self.verdict
        return data


@dataclass(frozen=True)
class Readiness:
    """The deck's readiness at `at`: per-card chances and the exact score distribution."""

    deck: str
    at: datetime
    target: int
    floor: int | None
    cards: tuple[CardRecall, ...]
    distribution: tuple[float, ...]
    sections: tuple[GroupReadiness, ...]
    tiers: tuple[GroupReadiness, ...]
    low: float | None = None
    high: float | None = None
    """The 80% interval of the expected score (None: computed from a single model)."""
    stretch: float | None = None
    """How far beyond the gaps of the log it was fitted on a forecast reaches
    (`Forecaster.stretch`; None: not a forecast from a log)."""

    @property
    def total(self) -> int:
        return len(self.cards)

    @property
    def expected(self) -> float:
        """The expected cold score: the sum of the cards' chances."""
        return sum(c.chance for c in self.cards)

    @property
    def studied(self) -> int:
        return sum(1 for c in self.cards if c.studied)

    @property
    def interval(self) -> str:
        """The 80% interval of the expected score as text, e.g. "80%: 21-27" ("" without one)."""
        return interval_text(self.low, self.high)

    def p_at_least(self, k: int) -> float:
        return at_least(self.distribution, k)

    @property
    def p_target(self) -> float:
        """P(score >= target), exact."""
        return self.p_at_least(self.target)

    @property
    def p_floor(self) -> float | None:
        return self.p_at_least(self.floor) if self.floor is not None else None

    def weakest(self, count: int = 10) -> tuple[CardRecall, ...]:
        """The cards least likely to be recalled cold, lowest first (ties: deck order)."""
        return tuple(sorted(self.cards, key=lambda c: (c.chance, c.n))[:count])

    def to_dict(self) -> dict[str, object]:
        p_floor = self.p_floor
        return {
            "deck": self.deck,
            "at": self.at.isoformat(),
            "total": self.total,
            "target": self.target,
            "floor": self.floor,
            "studied": self.studied,
            "expected": round(self.expected, 3),
            "expected_low": None if self.low is None else round(self.low, 3),
            "expected_high": None if self.high is None else round(self.high, 3),
            "p_target": round(self.p_target, 4),
            "p_floor": None if p_floor is None else round(p_floor, 4),
            "distribution": [round(p, 6) for p in self.distribution],
            "sections": [g.to_dict() for g in self.sections],
            "tiers": [g.to_dict() for g in self.tiers],
            "cards": [c.to_dict() for c in self.cards],
        }


def recall_at(
    states: Iterable[CardState], at: datetime, scheduler: Scheduler | None = None
) -> dict[str, float]:
    """Each studied card's FSRS retrievability at `at`, keyed by card id (one deck's states).

    A card reviewed only after `at` had not been learned yet at `at`: it counts as never studied.
    """
    sched = scheduler or Scheduler()
    return {
        s.card_id: sched.retrievability(s, at)
        for s in states
        if s.last_review is not None and s.last_review <= at
    }


def readiness(
    deck: Deck,
    chances: Mapping[str, float],
    at: datetime,
    target: int,
    floor: int | None = None,
    *,
    distribution: Sequence[float] | None = None,
    interval: tuple[float, float] | None = None,
) -> Readiness:
    """Readiness of `deck` at `at` from each card's chance (card id -> chance; absent: never
    studied, chance 0). `target` and `floor` are scores out of the deck's cards. A forecast
    passes its mixture `distribution` and `interval` (else: the chances' Poisson-binomial)."""
    cards = tuple(
        CardRecall(
            id=card.id,
            n=card.n,
            section=card.section,
            tier=tier.name if (tier := deck.tier_of(card.n)) else None,
            chance=min(1.0, max(0.0, chances.get(card.id, 0.0))),
            studied=card.id in chances,
        )
        for card in deck.cards
    )
    sections = tuple(
        _group(s.key, s.title, [c for c in cards if c.section == s.key]) for s in deck.sections
    )
    tiers = tuple(
        _group(t.name, t.name, [c for c in cards if c.tier == t.name], t.verdict)
        for t in deck.tiers
    )
    return Readiness(
        deck=deck.name,
        at=at,
        target=target,
        floor=deck.floor if floor is None else floor,
        cards=cards,
        distribution=tuple(distribution)
        if distribution is not None
        else poisson_binomial(c.chance for c in cards),
        sections=tuple(g for g in sections if g.n),
        tiers=tiers,
        low=None if interval is None else interval[0],
        high=None if interval is None else interval[1],
    )


def forecast_for(
    deck: Deck, by_card: Mapping[str, Trace], fitted: MemoryFit, at: datetime, target: int
) -> Readiness:
    """Readiness of `deck` at `at` under a fitted memory, from its traces by card id."""
    return forecast(deck, [by_card.get(cid) for cid in deck.cards.ids], fitted, at, target)


def forecast(
    deck: Deck, traces: Sequence[Trace | None], fitted: MemoryFit, at: datetime, target: int
) -> Readiness:
    """Readiness of `deck` at `at` under a fitted memory; `traces` in deck card order."""
    return forecast_with(deck, Forecaster(fitted, traces), at, target)


def forecast_with(deck: Deck, forecaster: Forecaster, at: datetime, target: int) -> Readiness:
    """`forecast` from a Forecaster made once for the deck's traces (in deck card order), for
    readiness at many moments."""
    traces = forecaster.traces
    comps = forecaster.at(at)
    mean = [sum(c.weight * c.chances[i] for c in comps) for i in range(len(traces))]
    chances = {
        cid: p
        for cid, p, t in zip(deck.cards.ids, mean, traces, strict=True)
        if t is not None and t.at[0] <= at
    }
    dist = [0.0] * (len(traces) + 1)
    for c in comps:
        for k, p in enumerate(poisson_binomial(c.chances)):
            dist[k] += c.weight * p
    ready = readiness(deck, chances, at, target, distribution=dist, interval=interval(comps))
    return replace(ready, stretch=forecaster.stretch(at))


def readiness_at(
    deck: Deck,
    states: Iterable[CardState],
    at: datetime,
    target: int,
    scheduler: Scheduler | None = None,
) -> Readiness:
    """Readiness of `deck` at `at` from its stored card states (recall as FSRS predicts it)."""
    return readiness(deck, recall_at(states, at, scheduler), at, target)


def _group(
    key: str, title: str, cards: Sequence[CardRecall], verdict: str | None = None
) -> GroupReadiness:
    return GroupReadiness(
        key=key,
        title=title,
        n=len(cards),
        expected=sum(c.chance for c in cards),
        studied=sum(1 for c in cards if c.studied),
        verdict=verdict,
    )


def predicted_score(
    by_card: Mapping[str, Trace], card_ids: Iterable[str], fitted: MemoryFit, at: datetime
) -> float:
    """The expected cold score of a mock asking `card_ids` at `at`: the sum of their chances
    of cold recall under the person's memory, a card never studied counting 0 (so never more
    than the questions asked). Recorded just before a mock, it is checked against the real
    score later (calibration)."""
    wanted = list(dict.fromkeys(card_ids))
    comps = components(fitted, [by_card.get(cid) for cid in wanted], at)
    return sum(c.weight * c.expected for c in comps)
