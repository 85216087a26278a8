"""Everything the progress report and `grill stats` show, gathered in one place from the Store,
the Library and readiness; the writers (html, markdown, json, csv, terminal) only format it.

`gather(store, library, settings, now)` reads the database once and returns a frozen
`ReportData`. Readiness is computed now and, when an interview date is set and still ahead, on
that day as things stand (no more study). Its history is rebuilt from the review log: each
review keeps the card's state after it, so the state of every card at the end of every past
study day is known. Study days start at 4 am in `now`'s timezone (grill.clock.study_day).
`to_dict()` is the JSON report, schema 2 (docs/report-json.md).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta, timezone
from typing import BinaryIO, TextIO

from grill import personal
from grill.clock import DAY_ROLLOVER_HOUR, study_day, to_utc
from grill.config import Settings
from grill.memory import Forecaster, MemoryFit, Trace
from grill.memory.forecast import FAR_STRETCH, SETTLED_DAYS
from grill.mock.summary import MockSummary, SavedMiss, SectionScore, TierScore
from grill.model import (
    Card,
    CardState,
    Deck,
    Library,
    Mode,
    Rating,
    Review,
    SessionRecord,
    Verdict,
)
from grill.odds import wilson
from grill.plan import Deadline
from grill.readiness import Readiness, forecast_for, forecast_with
from grill.report.logformat import CSV_AROUND, LogRow, csv_sql, json_around, json_sql
from grill.store import Store, from_db_time

__all__ = [
    "FORECAST_DAYS",
    "HEATMAP_WEEKS",
    "SCHEMA",
    "DayCount",
    "LogRow",
    "MockEntry",
    "MockPoint",
    "ReadinessPoint",
    "ReportData",
    "WeakCard",
    "as_text",
    "gather",
    "chunk_writer",
    "csv_chunks",
    "iter_log",
    "log_chunks",
    "mock_points",
]

SCHEMA = 2
"""The version of the JSON report; bumped when a field changes meaning or goes away."""

FORECAST_DAYS = 14
HEATMAP_WEEKS = 26
HISTORY_DAYS = 120
WEAKEST = 10
MOCK_Z = 1.2816
"""The normal quantile of the 80% interval drawn around a shorter mock's score."""


@dataclass(frozen=True)
class DayCount:
    """A number for one study day (reviews done, or cards due)."""

    day: date
    count: int


@dataclass(frozen=True)
class ReadinessPoint:
    """Readiness at the end of one study day, rebuilt from the review log."""

    day: date
    expected: float
    p_target: float
    studied: int


@dataclass(frozen=True)
class MockEntry:
    """A finished or aborted mock interview, from its session summary."""

    id: int
    at: datetime
    status: str
    score: int
    asked: int
    target: int | None
    floor: int | None
    passed: bool | None
    predicted: float | None
    sections: tuple[SectionScore, ...]
    tiers: tuple[TierScore, ...]
    misses: tuple[SavedMiss, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "at": _iso(self.at),
            "status": self.status,
            "score": self.score,
            "asked": self.asked,
            "target": self.target,
            "floor": self.floor,
            "passed": self.passed,
            "predicted": None if self.predicted is None else round(self.predicted, 2),
            "sections": [s.to_dict() for s in self.sections],
            "tiers": [t.to_dict() for t in self.tiers],
            "misses": [m.to_dict() for m in self.misses],
        }


@dataclass(frozen=True)
class MockPoint:
    """A finished mock as the charts draw it, on the whole deck's scale (`total` cards).

    `score` is the score scaled to the deck; `low`..`high` is where the whole deck's score could
    land (80%) given the cards asked: the cards not asked are taken to go as the asked ones did,
    within the Wilson interval of that proportion. A full mock is its own score (no interval);
    a 5-question one spans much of the axis. `predicted` is the prediction made just before the
    mock, scaled the same way, so forecast and outcome are compared on one scale."""

    mock: MockEntry
    total: int
    score: float
    low: float
    high: float
    predicted: float | None

    @property
    def partial(self) -> bool:
        return self.mock.asked < self.total

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.mock.id,
            "score": round(self.score, 2),
            "low": round(self.low, 2),
            "high": round(self.high, 2),
            "predicted": None if self.predicted is None else round(self.predicted, 2),
        }


def mock_points(
    mocks: Sequence[MockEntry], total: int
) -> tuple[tuple[MockPoint, ...], tuple[MockEntry, ...]]:
    """The mocks the charts draw as scores, and the aborted ones they leave out (and list): a mock
    stopped before its end was scored on what had been answered by then, often a question or
    two, which is no score out of the deck at all."""
    drawn = tuple(_point(m, total) for m in mocks if m.status != "aborted")
    return drawn, tuple(m for m in mocks if m.status == "aborted")


def _point(m: MockEntry, total: int) -> MockPoint:
    rest = max(0, total - m.asked)
    low, high = wilson(m.score, m.asked, MOCK_Z)
    scale = total / m.asked if total else 1.0
    predicted = None if m.predicted is None else m.predicted * scale
    if not rest:
        return MockPoint(m, total, m.score, m.score, m.score, predicted)
    return MockPoint(
        m, total, m.score * scale, m.score + rest * low, m.score + rest * high, predicted
    )


@dataclass(frozen=True)
class WeakCard:
    """A studied card with a low chance of cold recall, and what was last answered to it."""

    id: str
    n: int
    deck: str
    section: str
    question: str
    short_answer: str
    chance: float
    reviews: int
    lapses: int
    due: datetime | None
    last_review: datetime | None
    last_answer: str | None
    last_verdict: str | None

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "n": self.n,
            "deck": self.deck,
            "section": self.section,
            "question": self.question,
            "short_answer": self.short_answer,
            "chance": round(self.chance, 4),
            "reviews": self.reviews,
            "lapses": self.lapses,
            "due": _iso(self.due),
            "last_review": _iso(self.last_review),
            "last_answer": self.last_answer,
            "last_verdict": self.last_verdict,
        }


@dataclass(frozen=True)
class ReportData:
    """The whole report. `day` is readiness at the interview (None: no date ahead)."""

    generated_at: datetime
    deck: str
    deck_title: str
    total: int
    target: int
    floor: int | None
    interview: datetime | None
    now: Readiness
    day: Readiness | None
    history: tuple[ReadinessPoint, ...]
    activity: tuple[DayCount, ...]
    streak: int
    best_streak: int
    total_reviews: int
    days_studied: int
    due_now: int
    forecast: tuple[DayCount, ...]
    mocks: tuple[MockEntry, ...]
    weakest: tuple[WeakCard, ...]
    log: tuple[LogRow, ...] = field(repr=False)
    next_steps: tuple[str, ...]

    @property
    def early(self) -> str | None:
        """What to say of an interview-day forecast made from a log of a few study days."""
        if self.day is None or not 0 < self.days_studied < SETTLED_DAYS:
            return None
        days = f"{self.days_studied} day{'s' if self.days_studied != 1 else ''}"
        return (
            f"With {days} of study the interview-day range is wide: a log this short cannot yet "
            "tell a memory that holds for a week from one that fades. It narrows after about "
            f"{SETTLED_DAYS} days."
        )

    @property
    def far(self) -> str | None:
        """What to say of an interview-day forecast that reaches far beyond the gaps its log has
        tested (`FAR_STRETCH`), once the log is past `early`."""
        stretch = None if self.day is None else self.day.stretch
        if stretch is None or stretch < FAR_STRETCH or self.early is not None:
            return None
        return (
            f"The interview lies about {stretch:.0f}x further from your last reviews than the gaps"
            " your log has tested, so this range leans on how memory fades past anything your"
            " reviews show: for simulated learners forecast 5-10x past their logs, it held the"
            " truth about 7 times in 10. Reviews nearer the day narrow it."
        )

    @property
    def caveats(self) -> tuple[str, ...]:
        """The notes under the interview-day forecast: `early`, `far`."""
        return tuple(note for note in (self.early, self.far) if note)

    @property
    def focus(self) -> Readiness:
        """The readiness that matters: on the interview day when one is set, else now."""
        return self.day or self.now

    @property
    def unseen(self) -> int:
        return self.total - self.now.studied

    def to_dict(self) -> dict[str, object]:
        return {
            "schema": SCHEMA,
            "generated_at": _iso(self.generated_at),
            "deck": {"name": self.deck, "title": self.deck_title, "cards": self.total},
            "target": self.target,
            "floor": self.floor,
            "interview": _iso(self.interview),
            "readiness": {
                "now": self.now.to_dict(),
                "interview": None if self.day is None else self.day.to_dict(),
            },
            "history": [
                {
                    "day": p.day.isoformat(),
                    "expected": round(p.expected, 3),
                    "p_target": round(p.p_target, 4),
                    "studied": p.studied,
                }
                for p in self.history
            ],
            "activity": {
                "days": [{"day": d.day.isoformat(), "reviews": d.count} for d in self.activity],
                "streak": self.streak,
                "best_streak": self.best_streak,
                "total_reviews": self.total_reviews,
                "days_studied": self.days_studied,
            },
            "due_now": self.due_now,
            "forecast": [{"day": d.day.isoformat(), "due": d.count} for d in self.forecast],
            "mocks": [m.to_dict() for m in self.mocks],
            "mock_chart": self._mock_chart(),
            "weakest": [w.to_dict() for w in self.weakest],
            "next_steps": list(self.next_steps),
            "reviews": [r.to_dict() for r in self.log],
        }

    def _mock_chart(self) -> dict[str, object]:
        drawn, aborted = mock_points(self.mocks, self.total)
        return {"drawn": [p.to_dict() for p in drawn], "aborted": [m.id for m in aborted]}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else to_utc(moment).isoformat()


# ---------------------------------------------------------------- gathering


def gather(
    store: Store,
    library: Library,
    settings: Settings,
    now: datetime,
    *,
    log: bool = True,
    warn: Callable[[str], None] | None = None,
) -> ReportData:
    """Read the database once and compute every figure of the report at `now`.

    Only the main deck's reviews are read as Review objects; the activity is counted in SQL.
    With `log=False` the review log is left out (`log` is empty): a writer that needs it
    streams it from the store (`log_chunks`, `iter_log`), as a long log would not fit."""
    deck = library.main_deck()
    if deck is None:
        deck = Deck("none", "No deck loaded", "")
    fitted = personal.load(store, now, warn=warn)
    scheduler = personal.scheduler(store, settings.desired_retention, now)
    states = {s.card_id: s for s in store.states(deck.name).values()}
    reviews = store.reviews(deck=deck.name)
    by_card = personal.deck_traces(reviews, deck.name, now.tzinfo or UTC)
    deadline = Deadline.on(settings.interview_date, now, scheduler)
    ahead = deadline if deadline is not None and deadline.active(now) else None
    target = settings.target
    current = forecast_for(deck, by_card, fitted, now, target)
    day = None
    if ahead is not None:
        day = forecast_for(deck, by_card, fitted, ahead.at, target)
    activity = _activity(_day_counts(store, now), now)
    streak, best = _streaks(activity, now)
    forecast, due_now = _forecast(deck, states, ahead, now)
    mocks = _mocks(store.sessions(Mode.MOCK))
    data = ReportData(
        generated_at=now,
        deck=deck.name,
        deck_title=deck.title,
        total=len(deck.cards),
        target=target,
        floor=deck.floor,
        interview=deadline.at if deadline else None,
        now=current,
        day=day,
        history=_history(deck, reviews, by_card, fitted, target, now),
        activity=activity,
        streak=streak,
        best_streak=best,
        total_reviews=store.count_reviews(),
        days_studied=sum(1 for d in activity if d.count),
        due_now=due_now,
        forecast=forecast,
        mocks=mocks,
        weakest=_weakest(deck, current, states, reviews),
        log=tuple(iter_log(store, library)) if log else (),
        next_steps=(),
    )
    return _with_next_steps(data, settings)


def _day_counts(store: Store, now: datetime) -> Mapping[date, int]:
    """Reviews per study day. In `now`'s timezone at a fixed UTC offset (as `grill.clock.now`
    gives) the days are counted in SQL; any other timezone reads every review's time."""
    offset = now.utcoffset()
    if isinstance(now.tzinfo, timezone) and offset is not None:
        return store.count_by_day(offset - timedelta(hours=DAY_ROLLOVER_HOUR))
    return Counter(_local_day(r.reviewed_at, now) for r in store.iter_reviews())


def _local_day(moment: datetime, now: datetime) -> date:
    return study_day(moment.astimezone(now.tzinfo)).date()


def _activity(counts: Mapping[date, int], now: datetime) -> tuple[DayCount, ...]:
    """Reviews per study day, every day from the first review (or the heatmap's span) to today."""
    today = _local_day(now, now)
    start = today - timedelta(weeks=HEATMAP_WEEKS) + timedelta(days=1)
    if counts:
        start = min(start, min(counts))
    days = (today - start).days + 1
    return tuple(
        DayCount(start + timedelta(days=i), counts.get(start + timedelta(days=i), 0))
        for i in range(days)
    )


def _streaks(activity: Sequence[DayCount], now: datetime) -> tuple[int, int]:
    """The current streak (ending today, or yesterday when today has no review yet) and the
    longest one, in study days with at least one review."""
    best = run = 0
    for d in activity:
        run = run + 1 if d.count else 0
        best = max(best, run)
    current = 0
    days = list(activity)
    if days and not days[-1].count:
        days.pop()  # today is not over: a streak up to yesterday still stands
    for d in reversed(days):
        if not d.count:
            break
        current += 1
    return current, best


def _forecast(
    deck: Deck, states: Mapping[str, CardState], deadline: Deadline | None, now: datetime
) -> tuple[tuple[DayCount, ...], int]:
    """Cards coming due on each of the next FORECAST_DAYS study days (today: including overdue),
    with the interview date's adjustments when one is ahead; and the number due right now."""
    known = set(deck.cards.ids)
    scoped = {k: s for k, s in states.items() if k in known}
    if deadline is not None:
        scoped = deadline.adjust_due(scoped, now)
    today = study_day(now)
    counts = Counter(
        max(0, (study_day(s.due.astimezone(now.tzinfo)) - today).days) for s in scoped.values()
    )
    forecast = tuple(
        DayCount((today + timedelta(days=k)).date(), counts.get(k, 0)) for k in range(FORECAST_DAYS)
    )
    return forecast, sum(1 for s in scoped.values() if s.due <= now)


def _history(
    deck: Deck,
    reviews: Sequence[Review],
    by_card: Mapping[str, Trace],
    fitted: MemoryFit,
    target: int,
    now: datetime,
) -> tuple[ReadinessPoint, ...]:
    """Readiness at the end of each study day since the first review (the last HISTORY_DAYS)."""
    ids = set(deck.cards.ids)
    mine = [r for r in reviews if r.deck == deck.name and r.card_id in ids and r.after]
    if not mine:
        return ()
    first = study_day(mine[0].reviewed_at.astimezone(now.tzinfo))
    today = study_day(now)
    start = max(first, today - timedelta(days=HISTORY_DAYS - 1))
    points = []
    day = first
    forecaster = Forecaster(fitted, [by_card.get(cid) for cid in deck.cards.ids])
    while day <= today:
        end = min(day + timedelta(days=1), now)
        if day >= start:
            ready = forecast_with(deck, forecaster, end, target)
            points.append(ReadinessPoint(day.date(), ready.expected, ready.p_target, ready.studied))
        day += timedelta(days=1)
    return tuple(points)


def _mocks(sessions: Sequence[SessionRecord]) -> tuple[MockEntry, ...]:
    """Mock sessions that recorded a score (an empty or still open one is left out)."""
    out = []
    for s in sessions:
        summary = MockSummary.from_dict(s.summary)
        result = summary.result
        if result.asked <= 0:
            continue
        out.append(
            MockEntry(
                id=s.id,
                at=s.started_at,
                status=result.status or str(s.status),
                score=result.score,
                asked=result.asked,
                target=result.target,
                floor=result.floor,
                passed=result.passed,
                predicted=summary.prediction,
                sections=result.sections,
                tiers=result.tiers,
                misses=result.misses,
            )
        )
    return tuple(out)


def _weakest(
    deck: Deck, ready: Readiness, states: Mapping[str, CardState], reviews: Sequence[Review]
) -> tuple[WeakCard, ...]:
    """The studied cards least likely to be recalled cold now, with their last answer."""
    by_card: dict[str, list[Review]] = {}
    for r in reviews:
        if r.deck == deck.name:
            by_card.setdefault(r.card_id, []).append(r)
    studied = [c for c in ready.cards if c.studied]
    weakest = sorted(studied, key=lambda c: (c.chance, c.n))[:WEAKEST]
    return tuple(
        _weak_card(card, c.chance, states.get(c.id), by_card.get(c.id, []))
        for c in weakest
        if (card := deck.card(c.id)) is not None
    )


def _weak_card(
    card: Card, chance: float, state: CardState | None, history: Sequence[Review]
) -> WeakCard:
    answered = [r for r in history if r.answer and r.answer.strip()]
    last = answered[-1] if answered else None
    return WeakCard(
        id=card.id,
        n=card.n,
        deck=card.deck,
        section=card.section,
        question=card.question,
        short_answer=card.answer,
        chance=chance,
        reviews=len(history),
        lapses=sum(1 for r in history if r.rating == Rating.AGAIN and not r.first),
        due=state.due if state else None,
        last_review=history[-1].reviewed_at if history else None,
        last_answer=last.answer if last else None,
        last_verdict=last.verdict.label if last and last.verdict is not None else None,
    )


def _numbers(library: Library) -> dict[tuple[str, str], int]:
    return {
        (d.name, card_id): n
        for d in library.decks
        for card_id, n in zip(d.cards.ids, d.cards.numbers, strict=True)
    }


_RATINGS = {int(r): r.label for r in Rating}
_VERDICTS = {int(v): v.label for v in Verdict}


def iter_log(store: Store, library: Library) -> Iterator[LogRow]:
    """The review log as LogRows, oldest first, read from the store a chunk at a time."""
    numbers = _numbers(library)
    for id_, at, deck, card, mode, rating, verdict, answer, ms, session in store.log_rows():
        n = numbers.get((deck, card))
        label = None if verdict is None else _VERDICTS[verdict]
        at_ = from_db_time(at)
        yield LogRow(id_, at_, deck, card, n, mode, _RATINGS[rating], label, answer, ms, session)


def csv_chunks(store: Store, library: Library) -> Iterator[bytes]:
    """The review log as CSV rows (`grill.report.csvlog`), made by SQLite: UTF-8 chunks of
    rows, each ending in CRLF (`grill.report.logformat.csv_sql`, run by `Store.export_log`)."""
    return store.export_log(csv_sql(), _numbers(library), CSV_AROUND)


def chunk_writer(out: TextIO) -> Callable[[bytes], object]:
    """Where the chunks of `log_chunks` and `csv_chunks` are written: the file under `out`
    (`out.buffer`), undecoded, after what `out` already holds; or, with no file under it (a
    StringIO), `out` itself, decoded."""
    sink: BinaryIO | None = getattr(out, "buffer", None)
    if sink is None:
        return lambda chunk: out.write(chunk.decode())
    out.flush()  # what the text layer holds goes first
    return sink.write


def as_text(write: Callable[[ReportData, TextIO], None], data: ReportData) -> str:
    """What `write(data, out)` writes, as one string (the log taken from `data.log`)."""
    buffer = io.StringIO()
    write(data, buffer)
    return buffer.getvalue()


def log_chunks(store: Store, library: Library, indent: str = "") -> Iterator[bytes]:
    """The review log as JSON objects (`LogRow.to_dict()`), one per line after `indent`, made
    by SQLite: UTF-8 chunks of lines joined by ",\\n" (`grill.report.logformat.json_sql`, run by
    `Store.export_log`)."""
    around = json_around(indent)
    return store.export_log(json_sql(), _numbers(library), around)


def _with_next_steps(data: ReportData, settings: Settings) -> ReportData:
    """What to do next, most useful first; with no study yet, how to begin."""
    steps = []
    if data.total_reviews == 0:
        steps.append(
            f"Start with today's drill: run `grill` ({settings.new_per_day} new cards a day "
            f"meets all {data.total} in {-(-data.total // max(1, settings.new_per_day))} days)."
        )
    elif data.due_now:
        steps.append(f"{data.due_now} card(s) are due now: run `grill`.")
    if data.total_reviews and data.unseen:
        steps.append(f"{data.unseen} card(s) never studied yet: the drill brings them in.")
    if data.interview is None:
        steps.append("Set your interview date to plan toward it: `grill plan --date YYYY-MM-DD`.")
    if not data.mocks and data.now.studied >= data.total and data.total:
        steps.append("Every card met: take a mock interview, answered cold: `grill mock`.")
    elif not data.mocks and data.total_reviews:
        steps.append("Once every card is met, take a mock interview: `grill mock`.")
    focus = data.focus
    if data.total_reviews and focus.expected < data.target:
        when = "on the day" if data.day else "now"
        steps.append(
            f"Expected {focus.expected:.1f}/{data.total} {when}, below the target "
            f"{data.target}: keep the daily drill going."
        )
    weak = [w for w in data.weakest if w.chance < 0.5][:3]
    if weak:
        steps.append("Weakest right now: " + ", ".join(f"#{w.n} {w.id}" for w in weak) + ".")
    return replace(data, next_steps=tuple(steps))
