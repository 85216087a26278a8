"""Scoring a mock as the seed defines it: cards answered cold (verdict correct) of those asked.

Against the target (28 of 45) and the floor (24): when fewer cards are asked both are scaled to
the number asked, rounded up, and the result says so (`scaled`). Broken down by section (A-G and
quick fire) and by the seed's self-grading tiers (1-15, 16-30, 31-45), each tier carrying the
seed's verdict when a card in it was missed; every miss keeps the card's short answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from grill.mock.questions import MockAnswer, MockPlan, Question
from grill.mock.summary import SavedMiss, SavedResult, SectionScore, TierScore, VerdictCounts
from grill.model import Card, Verdict

__all__ = [
    "ABORTED",
    "COMPLETED",
    "Miss",
    "MockResult",
    "scale",
    "score_mock",
]

COMPLETED = "completed"
ABORTED = "aborted"


@dataclass(frozen=True)
class Miss:
    """A card not answered cold: what was typed (or, spoken, the key points ticked), and the
    short answer to learn. `verdict` None: the total time never reached it."""

    card: Card
    verdict: Verdict | None
    answer: str
    timed_out: bool
    ticked: tuple[str, ...] | None = None

    @property
    def reached(self) -> bool:
        return self.verdict is not None

    def saved(self) -> SavedMiss:
        """The miss as a mock's summary keeps it (the card by id, number and text)."""
        return SavedMiss(
            id=self.card.id,
            n=self.card.n,
            question=self.card.question,
            verdict=self.verdict.label if self.verdict is not None else "not reached",
            answer=self.answer,
            short_answer=self.card.answer,
            timed_out=self.timed_out,
            ticked=self.ticked,
        )


@dataclass(frozen=True)
class MockResult:
    """The scored mock. `asked` is the number scored: the questions planned (a question the
    total time never reached counts as missed), or those answered when the mock was aborted.
    `target`/`floor` are scaled to `asked`; `passed` is None for an aborted mock."""

    status: str
    asked: int
    answered: int
    correct: int
    partial: int
    wrong: int
    target: int
    floor: int | None
    full_target: int
    full_floor: int | None
    deck_size: int
    sections: tuple[SectionScore, ...]
    tiers: tuple[TierScore, ...]
    misses: tuple[Miss, ...]
    seconds_used: float
    wall_seconds: float
    seed: int
    spoken: bool
    timed_out: int

    @property
    def scaled(self) -> bool:
        return self.asked != self.deck_size

    @property
    def passed(self) -> bool | None:
        if self.status == ABORTED:
            return None
        return self.correct >= self.target

    @property
    def above_floor(self) -> bool | None:
        if self.status == ABORTED or self.floor is None:
            return None
        return self.correct >= self.floor

    @property
    def not_reached(self) -> int:
        return self.asked - self.answered

    def record(self) -> SavedResult:
        """The result as a mock's summary keeps it and `grill mock --json` prints it."""
        return SavedResult(
            status=self.status,
            score=self.correct,
            asked=self.asked,
            answered=self.answered,
            verdicts=VerdictCounts(self.correct, self.partial, self.wrong),
            target=self.target,
            floor=self.floor,
            full_target=self.full_target,
            full_floor=self.full_floor,
            deck_size=self.deck_size,
            scaled=self.scaled,
            passed=self.passed,
            above_floor=self.above_floor,
            sections=self.sections,
            tiers=self.tiers,
            misses=tuple(m.saved() for m in self.misses),
            seconds_used=round(self.seconds_used, 1),
            wall_seconds=round(self.wall_seconds, 1),
            timed_out=self.timed_out,
            seed=self.seed,
            spoken=self.spoken,
        )

    def to_dict(self) -> dict[str, object]:
        return self.record().to_dict()


def scale(full: int, asked: int, deck_size: int) -> int:
    """A full-deck bar scaled to the number of cards asked, rounded up (28/45 of 10 -> 7)."""
    if asked >= deck_size or deck_size == 0:
        return full
    return math.ceil(full * asked / deck_size - 1e-9)


def score_mock(
    plan: MockPlan,
    answers: Sequence[MockAnswer],
    *,
    status: str = COMPLETED,
    wall_seconds: float = 0.0,
) -> MockResult:
    """Score answers against the plan: X answered cold of the cards asked, by section and tier."""
    given = {a.question.index: a for a in answers}
    scored = [q for q in plan.questions if status != ABORTED or q.index in given]
    verdicts = {
        q.index: (given[q.index].grade.verdict if q.index in given else None) for q in scored
    }

    def count(qs: Iterable[Question], verdict: Verdict) -> int:
        return sum(1 for q in qs if verdicts[q.index] == verdict)

    sections = []
    for section in plan.deck.sections:
        qs = [q for q in scored if q.card.section == section.key]
        if qs:
            wrong = len(qs) - count(qs, Verdict.CORRECT) - count(qs, Verdict.PARTIAL)
            sections.append(
                SectionScore(
                    section.key,
                    section.title,
                    len(qs),
                    count(qs, Verdict.CORRECT),
                    count(qs, Verdict.PARTIAL),
                    wrong,
                )
            )
    tiers = []
    for tier in plan.deck.tiers:
        qs = [q for q in scored if tier.contains(q.card.n)]
        if qs:
            right = count(qs, Verdict.CORRECT)
            tiers.append(
                TierScore(tier.name, len(qs), right, tier.verdict if right < len(qs) else None)
            )
    misses = tuple(
        Miss(q.card, verdicts[q.index], "", False)
        if q.index not in given
        else Miss(
            q.card,
            verdicts[q.index],
            given[q.index].text,
            given[q.index].timed_out,
            given[q.index].ticked,
        )
        for q in scored
        if verdicts[q.index] != Verdict.CORRECT
    )
    asked = len(scored)
    correct = count(scored, Verdict.CORRECT)
    partial = count(scored, Verdict.PARTIAL)
    return MockResult(
        status=status,
        asked=asked,
        answered=len(given),
        correct=correct,
        partial=partial,
        wrong=asked - correct - partial,
        target=scale(plan.target, asked, plan.deck_size),
        floor=scale(plan.floor, asked, plan.deck_size) if plan.floor is not None else None,
        full_target=plan.target,
        full_floor=plan.floor,
        deck_size=plan.deck_size,
        sections=tuple(sections),
        tiers=tuple(tiers),
        misses=misses,
        seconds_used=sum(a.seconds for a in answers),
        wall_seconds=wall_seconds,
        seed=plan.seed,
        spoken=plan.spoken,
        timed_out=sum(1 for a in answers if a.timed_out),
    )
