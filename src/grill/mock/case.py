"""The open-ended case (`grill case`): one timed answer graded in parts, then the follow-ups.

`CaseRun` runs it on the injected clock: `start()` and `submit` the main answer (graded by the
injected `grade_case`: parts covered, red flags), then for each follow-up `start_follow_up()` and
`submit_follow_up` with the key points the user ticked (the verdict by the list rule).
Given a store, the attempt is kept as it goes (`CaseKeeper`): a `case` session and one review of
mode `case` carrying the verdict (logged, never scheduled) as soon as the main answer is graded,
then the session's summary rewritten after each follow-up and at the end, so an interrupted
attempt keeps everything answered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from grill.errors import UsageError
from grill.mock.engine import Clock, Countdown, points_verdict
from grill.mock.record import rating_for, session_status
from grill.mock.score import COMPLETED
from grill.model import (
    Case,
    CaseGrade,
    FollowUp,
    Mode,
    Point,
    SessionRecord,
    SessionStatus,
    Verdict,
)
from grill.store import Store

__all__ = ["OPEN", "CaseAttempt", "CaseKeeper", "CaseRun", "FollowUpAnswer", "load_case_grader"]

OPEN = "open"
"""An attempt still under way (the main answer is in, follow-ups may follow)."""


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
        store: Store | None = None,
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
        self._keeper = CaseKeeper(store, now) if store is not None else None

    def start(self) -> Countdown:
        self.timer = Countdown.starting_now(self._clock, self.limit)
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
            status=OPEN,
        )
        self.timer = None
        if self._keeper:
            self._keeper.begin(self.attempt)
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
        self.timer = Countdown.starting_now(self._clock, self.follow_up_seconds)
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
            verdict=points_verdict(follow_up.points, ticks),
            seconds=min(used, self.timer.seconds),
            timed_out=timed_out or used >= self.timer.seconds,
        )
        self.attempt = replace(self.attempt, follow_ups=(*self.attempt.follow_ups, answer))
        self.timer = None
        if self._keeper:
            self._keeper.update(self.attempt)
        return answer

    def finish(self, status: str = COMPLETED) -> CaseAttempt | None:
        """Close the attempt as it stands (None if the main answer was never given)."""
        if self.attempt is None:
            return None
        if self.attempt.status != status:
            self.attempt = replace(self.attempt, status=status)
            if self._keeper:
                self._keeper.update(self.attempt)
        return self.attempt


class CaseKeeper:
    """Keeps a case attempt in the store as it goes: once the main answer is graded, a `case`
    session and one review of mode `case` (logged, never scheduled) carrying the verdict and
    the answer; after each follow-up and at the end, the session's summary is the attempt."""

    def __init__(self, store: Store, now: Callable[[], datetime]) -> None:
        self.store = store
        self._now = now
        self.session: SessionRecord | None = None

    def begin(self, attempt: CaseAttempt) -> None:
        self.session = self.store.start_session(Mode.CASE, attempt.started_at)
        self.store.record_review(
            attempt.case.deck,
            attempt.case.id,
            reviewed_at=self._now(),
            rating=rating_for(attempt.grade.verdict),
            schedule=None,
            verdict=attempt.grade.verdict,
            answer=attempt.grade.answer,
            response_ms=round(attempt.seconds * 1000),
            mode=Mode.CASE,
            session_id=self.session.id,
        )
        self.update(attempt)

    def update(self, attempt: CaseAttempt) -> None:
        if self.session is None:
            raise RuntimeError("begin() the attempt before updating it")
        status = SessionStatus.OPEN if attempt.status == OPEN else session_status(attempt.status)
        self.session = self.store.finish_session(
            self.session.id, self._now(), status=status, summary=attempt.to_dict()
        )


def load_case_grader() -> Callable[[Case, str], CaseGrade]:
    """`grill.grader.grade_case`, imported when a case starts (it is slow to load)."""
    from grill.grader import grade_case

    return grade_case
