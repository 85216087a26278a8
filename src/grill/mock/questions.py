"""The questions of a mock and the answers given to them: the types the engine, the scoring and
the recorder share (`Question`, `MockPlan`, `MockAnswer`).

They live apart from `grill.mock.engine` (which plans and runs a mock) and `grill.mock.score`
(which scores one) so that each of those imports them and neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from grill.mock.summary import SavedAnswer
from grill.model import Card, Deck, Grade

__all__ = ["MockAnswer", "MockPlan", "Question"]


@dataclass(frozen=True)
class Question:
    """One card in the mock, at 0-based `index`, with its time limit in seconds."""

    index: int
    card: Card
    seconds: int


@dataclass(frozen=True)
class MockPlan:
    """The questions in the order they will be asked, and the bar they are scored against.

    `target` and `floor` are the deck's full-size figures (28 and 24 of `deck_size` 45).
    """

    deck: Deck
    questions: tuple[Question, ...]
    seed: int
    target: int
    floor: int | None
    total_seconds: float | None = None
    spoken: bool = False
    section: str | None = None

    @property
    def deck_size(self) -> int:
        return len(self.deck.cards)


@dataclass(frozen=True)
class MockAnswer:
    """One answer as given: the text (or what was ticked), its grade, and the time it took."""

    question: Question
    text: str
    grade: Grade
    seconds: float
    limit: float
    timed_out: bool
    answered_at: datetime
    ticked: tuple[str, ...] | None = None

    def saved(self) -> SavedAnswer:
        """The answer as a mock's summary keeps it (the card by id, the grade by labels and ids)."""
        return SavedAnswer(
            id=self.question.card.id,
            n=self.question.card.n,
            section=self.question.card.section,
            answer=self.text,
            verdict=self.grade.verdict.label,
            seconds=round(self.seconds, 1),
            limit=round(self.limit, 1),
            timed_out=self.timed_out,
            matched=tuple(p.id for p in self.grade.matched),
            missed=tuple(p.id for p in self.grade.missed),
            flags=tuple(f.id for f in self.grade.flags),
            ticked=self.ticked,
            answered_at=self.answered_at,
        )

    def to_dict(self) -> dict[str, object]:
        return self.saved().to_dict()
