"""A review log as memory evidence: per card, the times and ratings of its reviews.

The memory models (grill.memory.models) and the fit (grill.memory.fitting) read the log only through
`Trace`s, so they never see the store's rows. A trace's `days` are *study days*, the whole-day
clock FSRS is fitted on (a review at 23:00 and one at 05:00 the next morning are a day apart;
the day starts at 4 am, `grill.clock.study_day`); `at` keeps the exact time, which is what recall
is computed from (`Trace.elapsed`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from grill.clock import study_day
from grill.model import Rating, Review

__all__ = ["Trace", "Trial", "traces", "trials"]

SECONDS_PER_DAY = 86400.0


@dataclass(frozen=True)
class Trace:
    """One card's reviews, oldest first: exact times (UTC), study-day numbers and ratings."""

    key: tuple[str, str]
    at: tuple[datetime, ...]
    days: tuple[int, ...]
    ratings: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.ratings)

    def upto(self, count: int) -> Trace:
        """The first `count` reviews."""
        return Trace(self.key, self.at[:count], self.days[:count], self.ratings[:count])

    def elapsed(self, moment: datetime) -> float:
        """Days (fractional) from the last review to `moment`; 0 when `moment` is before it."""
        return max(0.0, (moment - self.at[-1]).total_seconds() / SECONDS_PER_DAY)


@dataclass(frozen=True)
class Trial:
    """One review to predict: the card's trace before it, the time since its last review and
    whether it was recalled (any rating but Again)."""

    trace: Trace
    index: int
    """Position of the predicted review in `trace` (>= 1: a first look predicts nothing)."""
    elapsed: float
    recalled: bool
    at: datetime

    @property
    def cross_day(self) -> bool:
        """True when it was asked on a later study day than the review before it: evidence of
        memory over time, not of a re-ask minutes after seeing the answer."""
        return self.trace.days[self.index] > self.trace.days[self.index - 1]


def traces(reviews: Iterable[Review], tz: tzinfo) -> list[Trace]:
    """Per card, the reviews that scheduled it (a logged answer without a state change, such as
    a case part, is not memory evidence), oldest first; study days counted in `tz`."""
    by_card: dict[tuple[str, str], list[tuple[datetime, int]]] = {}
    for r in reviews:
        if r.after is None:
            continue
        by_card.setdefault(r.key, []).append((r.reviewed_at, int(r.rating)))
    out = []
    origin: datetime | None = None
    for key, rows in by_card.items():
        rows.sort()
        if origin is None:
            origin = study_day(rows[0][0].astimezone(tz))
        days = tuple((study_day(at.astimezone(tz)) - origin).days for at, _ in rows)
        out.append(Trace(key, tuple(at for at, _ in rows), days, tuple(g for _, g in rows)))
    return out


def trials(all_traces: Sequence[Trace]) -> list[Trial]:
    """Every review after a card's first, in time order."""
    out = [
        Trial(
            trace=t,
            index=i,
            elapsed=(t.at[i] - t.at[i - 1]).total_seconds() / SECONDS_PER_DAY,
            recalled=t.ratings[i] != int(Rating.AGAIN),
            at=t.at[i],
        )
        for t in all_traces
        for i in range(1, len(t))
    ]
    out.sort(key=lambda x: x.at)
    return out
