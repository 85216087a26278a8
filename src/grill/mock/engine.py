"""Running a mock: the questions, their time limits, the injected clock, answers as given.

`plan_mock` picks and orders the questions (seeded shuffle, `--count`, `--section`) and gives
each its limit (quick-fire cards the short one). `MockRun` asks them in turn: `start()` the
current question's `Countdown`, then `submit` the typed text (graded by the injected grader) or
`submit_ticks` the key points a speaker ticked. Time is read from an INJECTED clock (a callable
returning monotonic seconds), so tests replay a whole interview without waiting. An answer
handed in after its deadline still counts what was typed (the auto-submit at zero) and is marked
timed out. Each answer goes to a `MockRecorder` the moment it is given, so an interrupted mock
keeps every answer; `finish` scores the run (grill.mock.score).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from grill.errors import UsageError
from grill.grader.verdict import verdict_of
from grill.mock.questions import MockAnswer, MockPlan, Question
from grill.mock.score import COMPLETED, MockResult, score_mock
from grill.model import BUILTIN_DECK, Card, Deck, Grade, Point, Rubric, Verdict

__all__ = [
    "Clock",
    "Countdown",
    "Grader",
    "MockOptions",
    "MockRecorder",
    "MockRun",
    "full_target",
    "grade_ticks",
    "is_quick_fire",
    "load_grader",
    "plan_mock",
    "tick_verdict",
    "points_verdict",
]

Clock = Callable[[], float]
"""Monotonic seconds (e.g. `time.monotonic`); injected so tests control time."""

Grader = Callable[[Card, str], Grade]
"""Typed answer -> Grade (`grill.grader.grade`); injected so tests can pass a fake."""

QUICK_FIRE_TITLE = "quick fire"


# ---------------------------------------------------------------------------------- the clock


@dataclass(frozen=True)
class Countdown:
    """A time limit started at `start` on `clock`: seconds left, seconds used, expired."""

    clock: Clock
    seconds: float
    start: float

    @classmethod
    def starting_now(cls, clock: Clock, seconds: float) -> Countdown:
        return cls(clock, seconds, clock())

    def elapsed(self) -> float:
        return max(0.0, self.clock() - self.start)

    def remaining(self) -> float:
        return max(0.0, self.seconds - self.elapsed())

    @property
    def expired(self) -> bool:
        return self.elapsed() >= self.seconds


# ---------------------------------------------------------------------------------- planning


@dataclass(frozen=True)
class MockOptions:
    """What the user asked for; None means the default (all cards, settings' time limits)."""

    count: int | None = None
    section: str | None = None
    seed: int | None = None
    per_question: int | None = None
    total_minutes: float | None = None
    spoken: bool = False


def is_quick_fire(card: Card, deck: Deck) -> bool:
    """A quick-fire card (36-45 in the built-in deck): its section is titled "Quick fire"."""
    return deck.section_title(card.section).strip().lower() == QUICK_FIRE_TITLE


def _limit(card: Card, deck: Deck, per_question: int | None, default: int, quick: int) -> int:
    """Seconds for one card; `--per-question` replaces the default and caps quick-fire too."""
    if is_quick_fire(card, deck):
        return min(quick, per_question) if per_question else quick
    return per_question or default


def plan_mock(
    deck: Deck,
    options: MockOptions,
    *,
    per_question_seconds: int,
    quick_fire_seconds: int,
    target: int,
) -> MockPlan:
    """Pick and order the questions: all cards (or one section), shuffled by the seed, cut to
    `count`. `target` is the full-deck target to score against (the deck's floor is used too).
    """
    cards = list(deck.cards)
    if options.section:
        key = options.section.strip().upper()
        keys = [s.key for s in deck.sections]
        if key not in keys:
            known = ", ".join(f"{s.key} {s.title}" for s in deck.sections)
            raise UsageError(f"no section '{options.section}' in {deck.name} (sections: {known})")
        cards = [c for c in cards if c.section == key]
    if not cards:
        raise UsageError(f"deck '{deck.name}' has no cards to ask")
    if options.count is not None and options.count < 1:
        raise UsageError(f"--count must be at least 1, not {options.count}")
    if options.per_question is not None and options.per_question < 1:
        raise UsageError(f"--per-question must be at least 1 second, not {options.per_question}")
    if options.total_minutes is not None and options.total_minutes <= 0:
        raise UsageError(f"--total must be more than 0 minutes, not {options.total_minutes:g}")
    seed = options.seed if options.seed is not None else secrets.randbelow(1_000_000)
    random.Random(seed).shuffle(cards)
    cards = cards[: options.count] if options.count else cards
    questions = tuple(
        Question(
            i,
            card,
            _limit(card, deck, options.per_question, per_question_seconds, quick_fire_seconds),
        )
        for i, card in enumerate(cards)
    )
    total = options.total_minutes * 60 if options.total_minutes else None
    return MockPlan(
        deck=deck,
        questions=questions,
        seed=seed,
        target=min(target, len(deck.cards)),
        floor=deck.floor,
        total_seconds=total,
        spoken=options.spoken,
        section=options.section.strip().upper() if options.section else None,
    )


def full_target(deck: Deck, settings_target: int) -> int:
    """The full-deck target: the user's setting for the built-in deck, else the deck's own."""
    if deck.name == BUILTIN_DECK or deck.target is None:
        return settings_target
    return deck.target


# ------------------------------------------------------------------------------ grading by ticks


def tick_verdict(rubric: Rubric, ticked: Iterable[str]) -> Verdict:
    """The verdict from the key points a speaker ticked: the grader's own verdict policy."""
    return verdict_of(rubric, ticked)


def grade_ticks(card: Card, ticked: Iterable[str], said: str = "") -> Grade:
    """A Grade built from self-ticked key points (spoken answers), as the grader would shape it."""
    ticked = set(ticked)
    points = card.rubric.points
    matched = tuple(p for p in points if p.id in ticked)
    return Grade(
        card=card.id,
        verdict=tick_verdict(card.rubric, ticked),
        score=len(matched) / len(points) if points else 0.0,
        matched=matched,
        missed=tuple(p for p in points if p.id not in ticked),
        flags=(),
        answer=said,
        short_answer=card.answer,
    )


def points_verdict(points: Sequence[Point], ticked: Iterable[str]) -> Verdict:
    return tick_verdict(Rubric(points=tuple(points)), ticked)


# ---------------------------------------------------------------------------------- running


class MockRecorder(Protocol):
    """Where a mock is kept as it happens: begun, each answer at once, then finished."""

    def begin(self, plan: MockPlan, started_at: datetime) -> None: ...

    def answer(self, answer: MockAnswer) -> None: ...

    def finish(self, result: MockResult, ended_at: datetime) -> None: ...


class MockRun:
    """One mock in progress. Ask `current`, `start()` its clock, then `submit` or `submit_ticks`.

    `now` gives wall-clock times for the record; `clock` measures the limits. The run ends when
    every question is answered or the total time is used up; `finish` scores it.
    """

    def __init__(
        self,
        plan: MockPlan,
        *,
        clock: Clock,
        now: Callable[[], datetime],
        grader: Grader,
        recorder: MockRecorder | None = None,
    ) -> None:
        self.plan = plan
        self._clock = clock
        self._now = now
        self._grader = grader
        self._recorder = recorder
        self.answers: list[MockAnswer] = []
        self.started_at = now()
        self._total = (
            Countdown.starting_now(clock, plan.total_seconds) if plan.total_seconds else None
        )
        self._started = clock()
        self._timer: Countdown | None = None
        self.result: MockResult | None = None
        if recorder:
            recorder.begin(plan, self.started_at)

    @property
    def current(self) -> Question | None:
        """The question to ask next, or None when the mock is over."""
        if self.result or self.out_of_time or len(self.answers) >= len(self.plan.questions):
            return None
        return self.plan.questions[len(self.answers)]

    @property
    def out_of_time(self) -> bool:
        return self._total is not None and self._total.expired

    def start(self) -> Countdown:
        """Start the clock of the current question; its limit is cut to the total time left."""
        question = self.current
        if question is None:
            raise RuntimeError("the mock is over")
        limit = float(question.seconds)
        if self._total is not None:
            limit = min(limit, self._total.remaining())
        self._timer = Countdown.starting_now(self._clock, limit)
        return self._timer

    @property
    def timer(self) -> Countdown | None:
        return self._timer

    def total_remaining(self) -> float | None:
        return self._total.remaining() if self._total else None

    def submit(self, text: str, *, timed_out: bool = False) -> MockAnswer:
        """Grade and record a typed answer; past the deadline it still counts, as timed out."""
        question, timer = self._question_and_timer()
        return self._record(question, timer, text, self._grader(question.card, text), timed_out)

    def submit_ticks(
        self, ticked: Iterable[str], *, seconds: float | None = None, timed_out: bool = False
    ) -> MockAnswer:
        """Record a spoken answer graded by the key points ticked; `seconds` is the speaking time
        (measured when the speaker stopped, before the checklist), default up to now."""
        question, timer = self._question_and_timer()
        ticks = tuple(p.id for p in question.card.rubric.points if p.id in set(ticked))
        grade = grade_ticks(question.card, ticks)
        return self._record(question, timer, "", grade, timed_out, ticks, seconds)

    def _question_and_timer(self) -> tuple[Question, Countdown]:
        if self.result is not None or len(self.answers) >= len(self.plan.questions):
            raise RuntimeError("the mock is over")
        question = self.plan.questions[len(self.answers)]
        if self._timer is None:
            raise RuntimeError("start() the question's clock before submitting")
        return question, self._timer

    def _record(
        self,
        question: Question,
        timer: Countdown,
        text: str,
        grade: Grade,
        timed_out: bool,
        ticked: tuple[str, ...] | None = None,
        seconds: float | None = None,
    ) -> MockAnswer:
        used = timer.elapsed() if seconds is None else seconds
        answer = MockAnswer(
            question=question,
            text=text,
            grade=grade,
            seconds=min(used, timer.seconds),
            limit=timer.seconds,
            timed_out=timed_out or used >= timer.seconds,
            answered_at=self._now(),
            ticked=ticked,
        )
        self.answers.append(answer)
        self._timer = None
        if self._recorder:
            self._recorder.answer(answer)
        return answer

    def finish(self, status: str = COMPLETED) -> MockResult:
        """Score the mock and close its record; `aborted` keeps what was answered."""
        if self.result is not None:
            return self.result
        wall = self._clock() - self._started
        self.result = score_mock(self.plan, self.answers, status=status, wall_seconds=wall)
        if self._recorder:
            self._recorder.finish(self.result, self._now())
        return self.result


def load_grader() -> Grader:
    """`grill.grader.grade`, imported when a mock starts (it is slow to load)."""
    from grill.grader import grade

    return grade
