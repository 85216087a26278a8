"""Keeping a mock in the database as it happens (`StoreRecorder`), through grill.store.

Each answer becomes a review of mode `mock`, committed before the next question shows, and
updates the card's FSRS schedule unless `--no-schedule`: a cold recall is real evidence, and a
miss brings the card back soon. The session's summary holds the scored result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from grill.mock.questions import MockAnswer, MockPlan
from grill.mock.score import ABORTED, MockResult
from grill.mock.summary import MockSummary
from grill.model import (
    Card,
    CardState,
    Mode,
    Rating,
    SessionRecord,
    SessionStatus,
    Verdict,
)
from grill.scheduler import Scheduler
from grill.store import Schedule, Store

__all__ = ["StoreRecorder", "rating_for", "session_status"]


def rating_for(verdict: Verdict) -> Rating:
    """A cold answer's verdict as a rating: wrong -> Again, partial -> Hard, correct -> Good."""
    return {Verdict.WRONG: Rating.AGAIN, Verdict.PARTIAL: Rating.HARD}.get(verdict, Rating.GOOD)


def _schedule(scheduler: Scheduler, card: Card, rating: Rating, at: datetime) -> Schedule:
    def schedule(prior: CardState | None) -> CardState:
        state = prior or scheduler.new_state(card.deck, card.id, at)
        return replace(scheduler.review(state, rating, at), content_hash=card.content_hash)

    return schedule


def session_status(status: str) -> SessionStatus:
    return SessionStatus.INTERRUPTED if status == ABORTED else SessionStatus.DONE


class StoreRecorder:
    """Keeps a mock in the database as it happens: a `mock` session, each answer a review of mode
    `mock` (committed before the next question shows) which updates the card's schedule unless
    `scheduler` is None, and at the end the scored result as the session's summary.

    `predict` gives the expected cold score of some cards as things stood just before the mock
    (grill.readiness.predicted_score, when the caller has a model). It is asked at the end for
    the cards scored, so the prediction kept in the summary is on the result's own scale: an
    aborted mock is scored on the questions answered, and so is its prediction (never more than
    `asked`). An aborted mock's session has status `interrupted` and summary status `aborted`.
    """

    def __init__(
        self,
        store: Store,
        *,
        scheduler: Scheduler | None,
        predict: Callable[[Sequence[str]], float] | None = None,
    ) -> None:
        self.store = store
        self.scheduler = scheduler
        self.predict = predict
        self.session: SessionRecord | None = None
        self._answers: list[MockAnswer] = []
        self._plan: MockPlan | None = None

    def begin(self, plan: MockPlan, started_at: datetime) -> None:
        self._plan = plan
        self.session = self.store.start_session(Mode.MOCK, started_at)

    def answer(self, answer: MockAnswer) -> None:
        if self.session is None:
            raise RuntimeError("begin() the mock before recording answers")
        card, rating = answer.question.card, rating_for(answer.grade.verdict)
        schedule = (
            _schedule(self.scheduler, card, rating, answer.answered_at) if self.scheduler else None
        )
        self.store.record_review(
            card.deck,
            card.id,
            reviewed_at=answer.answered_at,
            rating=rating,
            schedule=schedule,
            verdict=answer.grade.verdict,
            answer=answer.text,
            response_ms=round(answer.seconds * 1000),
            mode=Mode.MOCK,
            session_id=self.session.id,
            content_hash=card.content_hash,
        )
        self._answers.append(answer)

    def finish(self, result: MockResult, ended_at: datetime) -> None:
        if self.session is None or self._plan is None:
            raise RuntimeError("begin() the mock before finishing it")
        summary = MockSummary(
            result=result.record(),
            deck=self._plan.deck.name,
            section=self._plan.section,
            scheduled=self.scheduler is not None,
            predicted=self._predicted(result),
            predicted_cards=result.asked,
            questions=tuple(q.card.id for q in self._plan.questions),
            answers=tuple(a.saved() for a in self._answers),
        )
        status = session_status(result.status)
        self.session = self.store.finish_session(
            self.session.id, ended_at, status=status, summary=summary.to_dict()
        )

    def _predicted(self, result: MockResult) -> float | None:
        """The prediction for the cards `result` scored: those answered when it was aborted,
        else every question planned (one the time never reached is scored as missed)."""
        if self.predict is None or self._plan is None:
            return None
        if result.status == ABORTED:
            return self.predict([a.question.card.id for a in self._answers])
        return self.predict([q.card.id for q in self._plan.questions])
