"""Readiness: will the target be reached on the day? Expected cold score and P(score >= target).

Pure: it takes each card's chance of cold recall at a moment T and returns numbers, no I/O.
A card's chance at T is its FSRS retrievability at T (`recall_at` asks the scheduler); a card never
studied counts as 0. The score of a cold run through the deck is then a sum of independent
Bernoulli draws with different chances: a Poisson-binomial variable. Its distribution is computed
exactly by dynamic programming (O(n^2), n = 45 here), not by a normal approximation, because the
tail P(score >= 28) is what the user asks about and a normal approximation is poorest in the tails.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from grill.model import CardState, Deck
from grill.odds import at_least, poisson_binomial
from grill.scheduler import Scheduler

__all__ = [
    "CardRecall",
    "GroupReadiness",
    "Readiness",
    "at_least",
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
) -> Readiness:
    """Readiness of `deck` at `at` from each card's chance (card id -> chance; absent: never
    studied, chance 0). `target` and `floor` are scores out of the deck's cards."""
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
        distribution=poisson_binomial(c.chance for c in cards),
        sections=tuple(g for g in sections if g.n),
        tiers=tiers,
    )


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
    states: Iterable[CardState],
    card_ids: Iterable[str],
    at: datetime,
    scheduler: Scheduler | None = None,
) -> float:
    """The expected cold score of a mock asking `card_ids` at `at` (one deck's states): the sum
    of their chances of recall, a card never studied counting 0. Recorded just before a mock, it
    is checked against the real score later (calibration)."""
    wanted = set(card_ids)
    chances = recall_at((s for s in states if s.card_id in wanted), at, scheduler)
    return sum(chances.values())
