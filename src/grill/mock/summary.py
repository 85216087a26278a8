"""A mock as it is kept: the session summary's shape, written with `to_dict`, read with `from_dict`.

The store keeps a finished mock's summary as JSON (grill.mock.record writes it); the progress
report reads it back (grill.report.data). Both go through these dataclasses, so the format has
one home: `SectionScore`, `TierScore`, `SavedMiss` and `SavedAnswer` are its rows, `SavedResult`
the scored result (what `grill mock --json` prints), and `MockSummary` the whole summary (the
result and what the recorder adds: deck, prediction, questions, answers).

`from_dict` reads every summary grill ever wrote: a key a newer grill added (a miss's `ticked`,
the summary's `predicted_cards`) or a value of the wrong type reads as its default, so an old
database still reports. Nothing here imports the rest of grill.mock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = [
    "MockSummary",
    "SavedAnswer",
    "SavedMiss",
    "SavedResult",
    "SectionScore",
    "TierScore",
]


@dataclass(frozen=True)
class SectionScore:
    """One section of a mock: how many of its cards were asked and how each verdict went."""

    key: str
    title: str
    asked: int
    correct: int
    partial: int
    wrong: int

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "title": self.title,
            "asked": self.asked,
            "correct": self.correct,
            "partial": self.partial,
            "wrong": self.wrong,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SectionScore:
        counts = (_int(d.get(k)) for k in ("asked", "correct", "partial", "wrong"))
        return cls(_str(d.get("key")), _str(d.get("title")), *counts)


@dataclass(frozen=True)
class TierScore:
    """A self-grading tier: how many of its cards were asked and answered cold; `verdict` is the
    seed's text for the tier, given only when a card in it was missed."""

    name: str
    asked: int
    correct: int
    verdict: str | None

    @property
    def missed(self) -> int:
        return self.asked - self.correct

    def to_dict(self) -> dict[str, object]:
        return {
            "tier": self.name,
            "asked": self.asked,
            "correct": self.correct,
            "verdict": self.verdict,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TierScore:
        asked, correct = _int(d.get("asked")), _int(d.get("correct"))
        return cls(_str(d.get("tier")), asked, correct, _opt_str(d.get("verdict")))


@dataclass(frozen=True)
class SavedMiss:
    """A card not answered cold, as kept: `verdict` is its label, or "not reached" when the total
    time ran out first; `ticked` the key points a speaker ticked (None: a typed answer)."""

    id: str
    n: int
    question: str
    verdict: str
    answer: str
    short_answer: str
    timed_out: bool
    ticked: tuple[str, ...] | None

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "n": self.n,
            "question": self.question,
            "verdict": self.verdict,
            "answer": self.answer,
            "short_answer": self.short_answer,
            "timed_out": self.timed_out,
            "ticked": _list_or_none(self.ticked),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SavedMiss:
        return cls(
            id=_str(d.get("id")),
            n=_int(d.get("n")),
            question=_str(d.get("question")),
            verdict=_str(d.get("verdict")),
            answer=_str(d.get("answer")),
            short_answer=_str(d.get("short_answer")),
            timed_out=d.get("timed_out") is True,
            ticked=_strs_or_none(d.get("ticked")),
        )


@dataclass(frozen=True)
class SavedAnswer:
    """One answer as kept: what was typed, its verdict label and key points, the time it took."""

    id: str
    n: int
    section: str
    answer: str
    verdict: str
    seconds: float
    limit: float
    timed_out: bool
    matched: tuple[str, ...]
    missed: tuple[str, ...]
    flags: tuple[str, ...]
    ticked: tuple[str, ...] | None
    answered_at: datetime | None

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "n": self.n,
            "section": self.section,
            "answer": self.answer,
            "verdict": self.verdict,
            "seconds": round(self.seconds, 1),
            "limit": round(self.limit, 1),
            "timed_out": self.timed_out,
            "matched": list(self.matched),
            "missed": list(self.missed),
            "flags": list(self.flags),
            "ticked": _list_or_none(self.ticked),
            "answered_at": None if self.answered_at is None else self.answered_at.isoformat(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SavedAnswer:
        return cls(
            id=_str(d.get("id")),
            n=_int(d.get("n")),
            section=_str(d.get("section")),
            answer=_str(d.get("answer")),
            verdict=_str(d.get("verdict")),
            seconds=_float(d.get("seconds")),
            limit=_float(d.get("limit")),
            timed_out=d.get("timed_out") is True,
            matched=_strs(d.get("matched")),
            missed=_strs(d.get("missed")),
            flags=_strs(d.get("flags")),
            ticked=_strs_or_none(d.get("ticked")),
            answered_at=_moment(d.get("answered_at")),
        )


@dataclass(frozen=True)
class SavedResult:
    """A scored mock as kept and as `grill mock --json` prints it (`MockResult.record()`).

    `score` is the number answered cold of the `asked` scored; `target` and `floor` are scaled
    to `asked`, `full_target` and `full_floor` are the deck's; `passed` None: aborted."""

    status: str
    score: int
    asked: int
    answered: int
    partial: int
    wrong: int
    target: int | None
    floor: int | None
    full_target: int | None
    full_floor: int | None
    deck_size: int
    scaled: bool
    passed: bool | None
    above_floor: bool | None
    sections: tuple[SectionScore, ...]
    tiers: tuple[TierScore, ...]
    misses: tuple[SavedMiss, ...]
    seconds_used: float
    wall_seconds: float
    timed_out: int
    seed: int
    spoken: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "status": self.status,
            "score": self.score,
            "asked": self.asked,
            "answered": self.answered,
            "verdicts": {"correct": self.score, "partial": self.partial, "wrong": self.wrong},
            "target": self.target,
            "floor": self.floor,
            "full_target": self.full_target,
            "full_floor": self.full_floor,
            "deck_size": self.deck_size,
            "scaled": self.scaled,
            "passed": self.passed,
            "above_floor": self.above_floor,
            "sections": [s.to_dict() for s in self.sections],
            "tiers": [t.to_dict() for t in self.tiers],
            "misses": [m.to_dict() for m in self.misses],
            "seconds_used": round(self.seconds_used, 1),
            "wall_seconds": round(self.wall_seconds, 1),
            "timed_out": self.timed_out,
            "seed": self.seed,
            "spoken": self.spoken,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SavedResult:
        """The result in `d`; a summary with no score (a mock still open) reads as none asked."""
        verdicts = d.get("verdicts")
        counts: Mapping[str, Any] = verdicts if isinstance(verdicts, dict) else {}
        scored = _opt_int(d.get("score")) is not None
        return cls(
            status=_str(d.get("status")),
            score=_int(d.get("score")),
            asked=_int(d.get("asked")) if scored else 0,
            answered=_int(d.get("answered")),
            partial=_int(counts.get("partial")),
            wrong=_int(counts.get("wrong")),
            target=_opt_int(d.get("target")),
            floor=_opt_int(d.get("floor")),
            full_target=_opt_int(d.get("full_target")),
            full_floor=_opt_int(d.get("full_floor")),
            deck_size=_int(d.get("deck_size")),
            scaled=d.get("scaled") is True,
            passed=_opt_bool(d.get("passed")),
            above_floor=_opt_bool(d.get("above_floor")),
            sections=tuple(SectionScore.from_dict(r) for r in _records(d.get("sections"))),
            tiers=tuple(TierScore.from_dict(r) for r in _records(d.get("tiers"))),
            misses=tuple(SavedMiss.from_dict(r) for r in _records(d.get("misses"))),
            seconds_used=_float(d.get("seconds_used")),
            wall_seconds=_float(d.get("wall_seconds")),
            timed_out=_int(d.get("timed_out")),
            seed=_int(d.get("seed")),
            spoken=d.get("spoken") is True,
        )


@dataclass(frozen=True)
class MockSummary:
    """A mock session's whole summary: the result, and what the recorder knew beside it.

    `predicted` is the expected cold score of the cards scored as things stood just before the
    mock, for `predicted_cards` cards (None: a summary kept before that was recorded);
    `questions` are the ids planned, `answers` those given, in order."""

    result: SavedResult
    deck: str
    section: str | None
    scheduled: bool
    predicted: float | None
    predicted_cards: int | None
    questions: tuple[str, ...]
    answers: tuple[SavedAnswer, ...]

    @property
    def prediction(self) -> float | None:
        """The prediction for the cards the mock scored. Mocks kept before `predicted_cards`
        was recorded predicted every planned question even when aborted (2.8 for a mock of 1):
        that is scaled to the questions scored, by the mean chance per planned question."""
        asked, planned = self.result.asked, len(self.questions)
        if self.predicted is None or self.predicted_cards is not None or planned <= asked:
            return self.predicted
        return self.predicted * asked / planned

    def to_dict(self) -> dict[str, object]:
        return {
            **self.result.to_dict(),
            "deck": self.deck,
            "section": self.section,
            "scheduled": self.scheduled,
            "predicted": self.predicted,
            "predicted_cards": self.predicted_cards,
            "questions": list(self.questions),
            "answers": [a.to_dict() for a in self.answers],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MockSummary:
        return cls(
            result=SavedResult.from_dict(d),
            deck=_str(d.get("deck")),
            section=_opt_str(d.get("section")),
            scheduled=d.get("scheduled") is True,
            predicted=_opt_float(d.get("predicted")),
            predicted_cards=_opt_int(d.get("predicted_cards")),
            questions=_strs(d.get("questions")),
            answers=tuple(SavedAnswer.from_dict(r) for r in _records(d.get("answers"))),
        )


# ------------------------------------------------------------------ reading values tolerantly


def _opt_float(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _opt_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _int(value: object) -> int:
    return _opt_int(value) or 0


def _float(value: object) -> float:
    number = _opt_float(value)
    return 0.0 if number is None else number


def _opt_bool(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _strs(value: object) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _strs_or_none(value: object) -> tuple[str, ...] | None:
    return _strs(value) if isinstance(value, list) else None


def _list_or_none(values: tuple[str, ...] | None) -> list[str] | None:
    return None if values is None else list(values)


def _records(value: object) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(value, list):
        return ()
    return tuple(v for v in value if isinstance(v, dict))


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None
