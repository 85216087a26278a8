"""The mock-interview engine: questions asked cold against the clock, scored against the target.

No UI and no terminal: the caller shows each question, collects what the user typed (or the key
points they ticked after speaking) and hands it to `MockRun.submit`. Time is read from an
INJECTED clock (a callable returning monotonic seconds), so tests replay a whole interview
without waiting. An answer handed in after its deadline still counts what was typed (that is
the auto-submit at zero) and is marked timed out.

The score is what the seed defines: cards answered cold (verdict correct) out of the cards
asked, against the deck's target (28 of 45) and floor (24). When fewer cards are asked, both
are scaled to the number asked, rounded up, and the result says so. Each answer goes to a
`MockRecorder` the moment it is given, so an interrupted mock keeps every answer (status
`aborted`).

The open-ended case (`grill case`) is run the same way by `CaseRun`: one timed answer graded
in parts, then the follow-ups, each timed and self-checked against its key points.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

from grill.errors import UsageError
from grill.model import (
    BUILTIN_DECK,
    Card,
    Case,
    CaseGrade,
    Deck,
    FollowUp,
    Grade,
    Point,
    Rubric,
    Verdict,
)

__all__ = [
    "ABORTED",
    "COMPLETED",
    "CaseAttempt",
    "CaseRun",
    "Clock",
    "Countdown",
    "FollowUpAnswer",
    "Grader",
    "Miss",
    "MockAnswer",
    "MockOptions",
    "MockPlan",
    "MockRecorder",
    "MockResult",
    "MockRun",
    "Question",
    "SectionScore",
    "TierScore",
    "full_target",
    "grade_ticks",
    "is_quick_fire",
    "list_rule",
    "plan_mock",
    "scale",
    "score_mock",
    "tick_verdict",
]

Clock = Callable[[], float]
"""Monotonic seconds (e.g. `time.monotonic`); injected so tests control time."""

Grader = Callable[[Card, str], Grade]
"""Typed answer -> Grade (`grill.grader.grade`); injected so tests can pass a fake."""

COMPLETED = "completed"
ABORTED = "aborted"

QUICK_FIRE_TITLE = "quick fire"


# ---------------------------------------------------------------------------------- the clock


@dataclass
class Countdown:
    """A time limit started at `start` on `clock`: seconds left, seconds used, expired."""

    clock: Clock
    seconds: float
    start: float = field(default=math.nan)

    def __post_init__(self) -> None:
        if math.isnan(self.start):
            self.start = self.clock()

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
            raise UsageError(f"no section '{options.section}' in {deck.name} (sections: {keys})")
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


def list_rule(count: int) -> int:
    """Points needed for "correct" by the grading standard's list rule: 1->1, 2->2, 3-4->2,
    5-6->3, more->half rounded up."""
    if count <= 2:
        return max(count, 1)
    if count <= 4:
        return 2
    if count <= 6:
        return 3
    return math.ceil(count / 2)


def tick_verdict(rubric: Rubric, ticked: Iterable[str]) -> Verdict:
    """The verdict from the key points a speaker ticked, by the rubric's own thresholds."""
    ids = {p.id for p in rubric.points} & set(ticked)
    correct = rubric.correct if rubric.correct is not None else list_rule(len(rubric.points))
    partial = rubric.partial if rubric.partial is not None else 1
    if len(ids) >= correct and set(rubric.requires) <= ids:
        return Verdict.CORRECT
    if len(ids) >= partial and ids:
        return Verdict.PARTIAL
    return Verdict.WRONG


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


def _points_verdict(points: Sequence[Point], ticked: Iterable[str]) -> Verdict:
    return tick_verdict(Rubric(points=tuple(points)), ticked)


# ---------------------------------------------------------------------------------- running


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

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.question.card.id,
            "n": self.question.card.n,
            "section": self.question.card.section,
            "answer": self.text,
            "verdict": self.grade.verdict.label,
            "seconds": round(self.seconds, 1),
            "limit": round(self.limit, 1),
            "timed_out": self.timed_out,
            "matched": [p.id for p in self.grade.matched],
            "missed": [p.id for p in self.grade.missed],
            "flags": [f.id for f in self.grade.flags],
            "ticked": list(self.ticked) if self.ticked is not None else None,
            "answered_at": self.answered_at.isoformat(),
        }


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
        self._total = Countdown(clock, plan.total_seconds) if plan.total_seconds else None
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
        self._timer = Countdown(self._clock, limit)
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


# ---------------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class SectionScore:
    key: str
    title: str
    asked: int
    correct: int
    partial: int
    wrong: int


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


@dataclass(frozen=True)
class Miss:
    """A card not answered cold: what was said, and the short answer to learn."""

    card: Card
    verdict: Verdict | None
    answer: str
    timed_out: bool

    @property
    def reached(self) -> bool:
        return self.verdict is not None


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

    def to_dict(self) -> dict[str, object]:
        return {
            "status": self.status,
            "score": self.correct,
            "asked": self.asked,
            "answered": self.answered,
            "verdicts": {"correct": self.correct, "partial": self.partial, "wrong": self.wrong},
            "target": self.target,
            "floor": self.floor,
            "full_target": self.full_target,
            "full_floor": self.full_floor,
            "deck_size": self.deck_size,
            "scaled": self.scaled,
            "passed": self.passed,
            "above_floor": self.above_floor,
            "sections": [
                {
                    "key": s.key,
                    "title": s.title,
                    "asked": s.asked,
                    "correct": s.correct,
                    "partial": s.partial,
                    "wrong": s.wrong,
                }
                for s in self.sections
            ],
            "tiers": [
                {"tier": t.name, "asked": t.asked, "correct": t.correct, "verdict": t.verdict}
                for t in self.tiers
            ],
            "misses": [
                {
                    "id": m.card.id,
                    "n": m.card.n,
                    "question": m.card.question,
                    "verdict": m.verdict.label if m.verdict is not None else "not reached",
                    "answer": m.answer,
                    "short_answer": m.card.answer,
                    "timed_out": m.timed_out,
                }
                for m in self.misses
            ],
            "seconds_used": round(self.seconds_used, 1),
            "wall_seconds": round(self.wall_seconds, 1),
            "timed_out": self.timed_out,
            "seed": self.seed,
            "spoken": self.spoken,
        }


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
        Miss(
            q.card,
            verdicts[q.index],
            given[q.index].text if q.index in given else "",
            given[q.index].timed_out if q.index in given else False,
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


# ---------------------------------------------------------------------------------- the case


@dataclass(frozen=True)
class FollowUpAnswer:
    """A follow-up answered (typed or spoken) and self-checked against its key points."""

    follow_up: FollowUp
    text: str
    ticked: tuple[str, ...]
    verdict: Verdict
    seconds: float
    timed_out: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "question": self.follow_up.question,
            "answer": self.text,
            "ticked": list(self.ticked),
            "points": [p.id for p in self.follow_up.points],
            "verdict": self.verdict.label,
            "seconds": round(self.seconds, 1),
            "timed_out": self.timed_out,
        }


@dataclass(frozen=True)
class CaseAttempt:
    """One attempt at a case: the graded main answer and the follow-ups answered so far."""

    case: Case
    grade: CaseGrade
    seconds: float
    limit: float
    timed_out: bool
    started_at: datetime
    follow_ups: tuple[FollowUpAnswer, ...] = ()
    status: str = COMPLETED

    @property
    def missed(self) -> tuple[tuple[str, tuple[Point, ...]], ...]:
        """Per part not fully hit: the part id and the items the answer did not name."""
        return tuple((p.part, p.missed) for p in self.grade.parts if p.missed)

    def to_dict(self) -> dict[str, object]:
        return {
            "case": self.case.id,
            "deck": self.case.deck,
            "status": self.status,
            "started_at": self.started_at.isoformat(),
            "seconds": round(self.seconds, 1),
            "limit": round(self.limit, 1),
            "timed_out": self.timed_out,
            "grade": self.grade.to_dict(),
            "follow_ups": [f.to_dict() for f in self.follow_ups],
        }


class CaseRun:
    """A case in progress: `start()` the main clock, `submit` the answer (graded in parts), then
    for each follow-up `start_follow_up()` and `submit_follow_up` with the points ticked."""

    def __init__(
        self,
        case: Case,
        *,
        minutes: float,
        follow_up_seconds: float,
        clock: Clock,
        now: Callable[[], datetime],
        grader: Callable[[Case, str], CaseGrade],
    ) -> None:
        if minutes <= 0:
            raise UsageError(f"--minutes must be more than 0, not {minutes:g}")
        self.case = case
        self.limit = minutes * 60
        self.follow_up_seconds = follow_up_seconds
        self._clock = clock
        self._now = now
        self._grader = grader
        self.started_at = now()
        self.timer: Countdown | None = None
        self.attempt: CaseAttempt | None = None

    def start(self) -> Countdown:
        self.timer = Countdown(self._clock, self.limit)
        return self.timer

    def submit(self, text: str, *, timed_out: bool = False) -> CaseAttempt:
        """Grade the main answer; past the deadline what was typed still counts."""
        if self.timer is None:
            raise RuntimeError("start() the case's clock before submitting")
        used = self.timer.elapsed()
        self.attempt = CaseAttempt(
            case=self.case,
            grade=self._grader(self.case, text),
            seconds=min(used, self.limit),
            limit=self.limit,
            timed_out=timed_out or used >= self.limit,
            started_at=self.started_at,
        )
        self.timer = None
        return self.attempt

    @property
    def next_follow_up(self) -> FollowUp | None:
        if self.attempt is None:
            return None
        done = len(self.attempt.follow_ups)
        return self.case.follow_ups[done] if done < len(self.case.follow_ups) else None

    def start_follow_up(self) -> Countdown:
        if self.next_follow_up is None:
            raise RuntimeError("no follow-up left")
        self.timer = Countdown(self._clock, self.follow_up_seconds)
        return self.timer

    def submit_follow_up(
        self,
        text: str,
        ticked: Iterable[str],
        *,
        seconds: float | None = None,
        timed_out: bool = False,
    ) -> FollowUpAnswer:
        """Record a follow-up: `seconds` is the answering time (before the checklist)."""
        follow_up = self.next_follow_up
        if follow_up is None or self.timer is None or self.attempt is None:
            raise RuntimeError("start_follow_up() before submitting one")
        used = self.timer.elapsed() if seconds is None else seconds
        ticks = tuple(p.id for p in follow_up.points if p.id in set(ticked))
        answer = FollowUpAnswer(
            follow_up=follow_up,
            text=text,
            ticked=ticks,
            verdict=_points_verdict(follow_up.points, ticks),
            seconds=min(used, self.timer.seconds),
            timed_out=timed_out or used >= self.timer.seconds,
        )
        self.attempt = replace(self.attempt, follow_ups=(*self.attempt.follow_ups, answer))
        self.timer = None
        return answer

    def finish(self, status: str = COMPLETED) -> CaseAttempt | None:
        """The attempt as it stands (None if the main answer was never given)."""
        if self.attempt is not None and self.attempt.status != status:
            self.attempt = replace(self.attempt, status=status)
        return self.attempt
