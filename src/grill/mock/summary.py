"""A mock as it is kept: the session summary's shape, written with `to_dict`, read with `from_dict`.

The store keeps a finished mock's summary as JSON (grill.mock.record writes it); the progress
report reads it back (grill.report.data). Both go through these dataclasses, so the format has
one home: `SectionScore`, `TierScore`, `SavedMiss`, `SavedAnswer` and `VerdictCounts` are its
parts, `SavedResult` the scored result (what `grill mock --json` prints), and `MockSummary` the
whole summary (the result and what the recorder adds: deck, prediction, questions, answers).

`from_dict` reads every summary grill ever wrote: a key a newer grill added (a miss's `ticked`,
the summary's `predicted_cards`) or a value of the wrong type reads as its default, so an old
database still reports. A field of a type with no reader in `_READERS` (and no record class)
fails at once, in the tests. Nothing here imports the rest of grill.mock.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from datetime import datetime
from typing import Any, ClassVar, Self

__all__ = [
    "MockSummary",
    "SavedAnswer",
    "SavedMiss",
    "SavedResult",
    "SectionScore",
    "TierScore",
    "VerdictCounts",
]


class _Saved:
    """A dataclass kept as JSON: each field under its name (or its `key` metadata), tuples as
    lists, datetimes as ISO text, nested records as their dicts; read back by each field's type
    (`_READERS`), a missing or mistyped value reading as that type's default."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_dict(self) -> dict[str, object]:
        return {_key(f): _plain(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        return cls(**{f.name: _reader(str(f.type))(d.get(_key(f))) for f in fields(cls)})


@dataclass(frozen=True)
class SectionScore(_Saved):
    """One section of a mock: how many of its cards were asked and how each verdict went."""

    key: str
    title: str
    asked: int
    correct: int
    partial: int
    wrong: int


@dataclass(frozen=True)
class TierScore(_Saved):
    """A self-grading tier: how many of its cards were asked and answered cold; `verdict` is the
    seed's text for the tier, given only when a card in it was missed."""

    name: str = field(metadata={"key": "tier"})
    asked: int
    correct: int
    verdict: str | None

    @property
    def missed(self) -> int:
        return self.asked - self.correct


@dataclass(frozen=True)
class SavedMiss(_Saved):
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


@dataclass(frozen=True)
class SavedAnswer(_Saved):
    """One answer as kept: what was typed, its verdict label and key points, the time it took
    (seconds rounded to a tenth)."""

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


@dataclass(frozen=True)
class VerdictCounts(_Saved):
    """How many of the cards scored were answered correct, partial and wrong."""

    correct: int
    partial: int
    wrong: int


@dataclass(frozen=True)
class SavedResult(_Saved):
    """A scored mock as kept and as `grill mock --json` prints it (`MockResult.record()`).

    `score` is the number answered cold of the `asked` scored (0 when the summary holds no
    score: a mock still open); `target` and `floor` are scaled to `asked`, `full_target` and
    `full_floor` are the deck's; `passed` None: aborted. Seconds are rounded to a tenth."""

    status: str
    score: int
    asked: int
    answered: int
    verdicts: VerdictCounts
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


@dataclass(frozen=True)
class MockSummary(_Saved):
    """A mock session's whole summary: the result (its keys at the top level), and what the
    recorder knew beside it.

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
        own = super().to_dict()
        del own["result"]
        return {**self.result.to_dict(), **own}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        return super().from_dict({**d, "result": d})  # the result's keys are at the top level


# ------------------------------------------------------------------ writing and reading values


def _key(f: Field[Any]) -> str:
    return str(f.metadata.get("key", f.name))


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, _Saved):
        return value.to_dict()
    return value


def _opt_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _opt_float(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _opt_strs(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        return None
    return tuple(v for v in value if isinstance(v, str))


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


_READERS: dict[str, Callable[[object], object]] = {
    "str": lambda v: _opt_str(v) or "",
    "str | None": _opt_str,
    "int": lambda v: _opt_int(v) or 0,
    "int | None": _opt_int,
    "float": lambda v: _opt_float(v) or 0.0,
    "float | None": _opt_float,
    "bool": lambda v: v is True,
    "bool | None": lambda v: v if isinstance(v, bool) else None,
    "tuple[str, ...]": lambda v: _opt_strs(v) or (),
    "tuple[str, ...] | None": _opt_strs,
    "datetime | None": _moment,
}
"""How a value of each field type is read back; anything else is a default."""


def _reader(kind: str) -> Callable[[object], object]:
    """The reader of a field typed `kind`: a plain type's, or a record's (or a tuple of them)."""
    if kind in _READERS:
        return _READERS[kind]
    many = re.fullmatch(r"tuple\[(\w+), \.\.\.\]", kind)
    record = _RECORDS[many[1] if many else kind]
    if many:
        return lambda v: tuple(record.from_dict(r) for r in _records(v))
    return lambda v: record.from_dict(v if isinstance(v, dict) else {})


def _records(value: object) -> list[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


_RECORDS: dict[str, type[_Saved]] = {
    c.__name__: c
    for c in (SavedAnswer, SavedMiss, SavedResult, SectionScore, TierScore, VerdictCounts)
}
