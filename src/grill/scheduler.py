"""FSRS-6 scheduling over grill's own card state. The only module importing fsrs.

Our `CardState` (grill.model) is converted to an `fsrs.Card` and back for each call, so nothing
else depends on fsrs's types. Every time must be timezone-aware (a naive datetime raises
ValueError) and is handed to fsrs in UTC; every state returned is in UTC.

API:

    sched = Scheduler(desired_retention=0.9, enable_fuzzing=True)   # tests: enable_fuzzing=False
    sched.new_state(deck, card_id, now) -> CardState     # never studied: learning step 0, due now
    sched.review(state, rating, now) -> CardState        # a new state; `state` is not changed
    sched.preview(state, now) -> dict[Rating, datetime]  # when each rating would make it due
    sched.retrievability(state, at) -> float             # P(recall) at `at`; 0 for never studied

`parameters` are FSRS-6's 21 (the defaults, or the person's own fitted by grill.memory);
`check_parameters` refuses NaN, out-of-bounds or another version's parameters with a reason.

Fuzzing (on by default, as in Anki) spreads review intervals a little so cards learned together
do not stay due together. The draw is seeded by (card, review time), so the same review computed
twice, the preview on the rating keys and the review then saved, gives the same interval (fsrs
draws from Python's global random source, which is put back as it was). Golden tests turn it off.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from fsrs import Card as FsrsCard
from fsrs import Rating as FsrsRating
from fsrs import Scheduler as FsrsScheduler
from fsrs import State as FsrsState
from fsrs.scheduler import DEFAULT_PARAMETERS as FSRS_DEFAULTS

from grill.clock import study_day, to_utc
from grill.model import CardState, Phase, Rating

__all__ = [
    "LEARNING_STEPS",
    "RELEARNING_STEPS",
    "Scheduler",
    "by_the_day",
    "check_parameters",
    "fsrs_card_id",
]

LEARNING_STEPS = (timedelta(minutes=1), timedelta(minutes=10))
"""A new card is re-asked after 1 and 10 minutes (fsrs's defaults) before it graduates."""

RELEARNING_STEPS = (timedelta(minutes=10),)
"""A forgotten card is re-asked after 10 minutes."""


def fsrs_card_id(deck: str, card_id: str) -> int:
    """A stable positive 63-bit int for fsrs's `card_id`, derived from our (deck, id)."""
    digest = hashlib.sha256(f"{deck}/{card_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check_parameters(parameters: Sequence[float]) -> tuple[float, ...]:
    """FSRS-6 parameters as floats; ValueError naming what is wrong (count, NaN, bounds)."""
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    params = tuple(float(w) for w in parameters)
    if len(params) != len(FSRS_DEFAULTS):
        raise ValueError(f"{len(params)} FSRS parameters, not FSRS-6's {len(FSRS_DEFAULTS)}")
    for i, (w, lo, hi) in enumerate(
        zip(params, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    ):
        if not math.isfinite(w) or not lo <= w <= hi:
            raise ValueError(f"FSRS parameter w[{i}] = {w} is outside [{lo}, {hi}]")
    return params


class Scheduler:
    """FSRS with grill's settings. Immutable in use: each call returns a new state."""

    def __init__(
        self,
        desired_retention: float = 0.9,
        *,
        enable_fuzzing: bool = True,
        learning_steps: tuple[timedelta, ...] = LEARNING_STEPS,
        relearning_steps: tuple[timedelta, ...] = RELEARNING_STEPS,
        parameters: Sequence[float] | None = None,
    ) -> None:
        if not 0 < desired_retention < 1:
            raise ValueError(f"desired_retention must be between 0 and 1, not {desired_retention}")
        self.desired_retention = desired_retention
        self.enable_fuzzing = enable_fuzzing
        self.parameters = check_parameters(FSRS_DEFAULTS if parameters is None else parameters)
        decay = self.parameters[20]
        self._decay, self._factor = decay, 0.9 ** (-1 / decay) - 1
        self._fsrs = FsrsScheduler(
            parameters=self.parameters,
            desired_retention=desired_retention,
            learning_steps=learning_steps,
            relearning_steps=relearning_steps,
            enable_fuzzing=enable_fuzzing,
        )

    def new_state(self, deck: str, card_id: str, now: datetime) -> CardState:
        """The state FSRS starts a never-studied card from: learning step 0, due `now`."""
        return CardState(
            deck=deck,
            card_id=card_id,
            phase=Phase.LEARNING,
            step=0,
            stability=None,
            difficulty=None,
            due=to_utc(now),
            last_review=None,
        )

    def review(self, state: CardState, rating: Rating, now: datetime) -> CardState:
        """The state after answering with `rating` at `now`; the same for the same arguments,
        fuzz included."""
        at = to_utc(now)
        seed = f"{state.deck}/{state.card_id}@{at.isoformat()}"
        card = _to_fsrs(state)
        if card.last_review is not None and now.tzinfo is not None:
            # fsrs counts the days since the last review in 24-hour periods, so an evening
            # review a day after one asked a little later in the day would count as the same
            # day; counted from the start of the last review's study day, the days it sees
            # are study days, as Anki counts them and as grill.memory fits them
            card.last_review = to_utc(study_day(card.last_review.astimezone(now.tzinfo)))
        with _seeded(seed) if self.enable_fuzzing else nullcontext():  # no draw, no cost
            card, _ = self._fsrs.review_card(card, FsrsRating(int(rating)), review_datetime=at)
        done = _from_fsrs(card, state)
        if done.phase == Phase.REVIEW and now.tzinfo is not None:
            return replace(done, due=by_the_day(done.due, now))
        return done

    def preview(self, state: CardState, now: datetime) -> dict[Rating, datetime]:
        """When the card would next be due for each rating: exactly what `review` at `now` saves."""
        return {rating: self.review(state, rating, now).due for rating in Rating}

    def retrievability(self, state: CardState | None, at: datetime) -> float:
        """FSRS's probability of recalling the card at `at` (0 for a card never studied).

        Elapsed time is exact, not whole days as in fsrs's own retrievability: a card failed
        this morning is already weaker this evening.
        """
        if state is None or state.last_review is None or state.stability is None:
            return 0.0
        elapsed = max(0.0, (to_utc(at) - to_utc(state.last_review)).total_seconds() / 86400)
        return float((1 + self._factor * elapsed / max(state.stability, 1e-3)) ** -self._decay)


def by_the_day(due: datetime, now: datetime) -> datetime:
    """A review due in whole days is due from the start of its study day (4 am in `now`'s
    timezone), as in Anki: a card answered at 18:45 and due "in 1 day" is asked at tomorrow's
    18:00 session, not left for the day after because the session began 45 minutes early."""
    return to_utc(study_day(due.astimezone(now.tzinfo)))


@contextmanager
def _seeded(seed: str) -> Iterator[None]:
    """Python's global random source seeded for one fsrs call, then put back as it was."""
    saved = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(saved)


def _to_fsrs(state: CardState) -> FsrsCard:
    return FsrsCard(
        card_id=fsrs_card_id(state.deck, state.card_id),
        state=FsrsState(int(state.phase)),
        step=state.step,
        stability=state.stability,
        difficulty=state.difficulty,
        due=to_utc(state.due),
        last_review=None if state.last_review is None else to_utc(state.last_review),
    )


def _from_fsrs(card: FsrsCard, like: CardState) -> CardState:
    last = card.last_review
    return replace(
        like,
        phase=Phase(int(card.state)),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due.astimezone(UTC),
        last_review=None if last is None else last.astimezone(UTC),
    )
