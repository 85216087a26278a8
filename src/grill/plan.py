"""Studying toward an interview date: the schedule that works for the day.

Plain FSRS keeps every card near the desired retention *on average over time*; it does not know
that one day matters. With an interview date set, three rules shape the drill's queue:

1. Every card is seen before the day: the unseen cards are met at a steady pace, all by two
   study days before the interview (`new_pace`); the daily new-card limit rises to that pace
   when it is higher (`new_limit`).
2. No review is pushed past the date when that lowers recall on the day: a card in review whose
   next due falls after the start of the last study day before the interview, and whose recall
   at the interview would be below `day_retention`, is due on that last day instead
   (`adjust_due`). A card whose recall on the day is already high keeps its FSRS due.
   When that would leave the card untouched for `2 * CHECK_IN_DAYS` or more, it is first
   checked halfway (then the rule applies again from the check-in). A check-in keeps the card
   from a single last-minute review that a missed evening would lose, and it is the only
   evidence of recall at the interview's own distance from a card's last review: without it a
   log holds one- to three-day gaps and the forecast must guess how memory holds over a week
   (grill.memory). Under a daily cap a check-in gains little on the day and waits behind
   the reviews that gain more (rule 3).
3. The day's queue (`order`): first the new cards the pace needs (an unseen card scores
   nothing on the day, so reviews must not starve them), then the due cards by how much a
   review now raises their recall at the interview (`day_gain`), so in the last days the cards
   with the lowest recall on the day come first and a session cut short has spent its time
   where it counts; then any further new cards.
4. A re-ask in the session is worth its gain on the day too (`reask_first`): a learning card
   whose step is up goes before the queue's next card only when re-asking it raises recall
   at the interview at least as much as that card's review would; a new card, which scores
   nothing on the day until it is met, always goes first. Under FSRS (with the person's
   fitted parameters) a re-ask minutes after the answer was shown raises stability little,
   so a session cut short spends its time on the cards that count on the day, and the
   re-asks come once the queue is empty.

Pure: the memory model (grill.scheduler.Scheduler, or anything with the same two methods) is
passed in, so this module sits below the drill engine and the simulator, which both use it.
The interview moment is the date at `INTERVIEW_HOUR` local time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Protocol, TypeVar

from grill.clock import study_day
from grill.model import CardState, Phase, Rating

__all__ = [
    "CHECK_IN_DAYS",
    "DAY_RETENTION",
    "INTERVIEW_HOUR",
    "Deadline",
    "MemoryModel",
    "interview_moment",
    "new_today",
]

INTERVIEW_HOUR = 9
"""The interview is taken to be at 9 am local time on its date."""

DAY_RETENTION = 0.95
"""Recall on the day below which a card is brought back before the interview."""

CHECK_IN_DAYS = 3.0
"""A card brought back to the last day that would first wait twice this long is checked
halfway (rule 2)."""

K = TypeVar("K")


class MemoryModel(Protocol):
    """What the plan needs from the scheduler: recall at a time, and the state after a review."""

    def retrievability(self, state: CardState | None, at: datetime) -> float: ...

    def review(self, state: CardState, rating: Rating, now: datetime) -> CardState: ...


def interview_moment(day: date, tz: tzinfo) -> datetime:
    """The moment the plan aims at: `day` at INTERVIEW_HOUR in the timezone `tz`."""
    return datetime.combine(day, time(INTERVIEW_HOUR), tzinfo=tz)


@dataclass(frozen=True)
class Deadline:
    """An interview at `at`, and the memory model used to judge recall on the day."""

    at: datetime
    model: MemoryModel
    day_retention: float = DAY_RETENTION

    @classmethod
    def on(cls, day: date | None, now: datetime, model: MemoryModel) -> Deadline | None:
        """The deadline for an interview on `day` (in `now`'s timezone); None without a date."""
        if day is None or now.tzinfo is None:
            return None
        return cls(interview_moment(day, now.tzinfo), model)

    @property
    def last_day(self) -> datetime:
        """The start of the last study day before the interview (the day before it, 4 am)."""
        return study_day(self.at) - timedelta(days=1)

    def active(self, now: datetime) -> bool:
        return now < self.at

    def recall(self, state: CardState | None) -> float:
        """The card's chance of recall at the interview if it is not reviewed again."""
        return self.model.retrievability(state, self.at)

    def adjust_due(self, states: Mapping[K, CardState], now: datetime) -> dict[K, CardState]:
        """The states with rule 2 applied to each due date (nothing changes after the date)."""
        if not self.active(now):
            return dict(states)
        return {key: self._capped(state) for key, state in states.items()}

    def _capped(self, state: CardState) -> CardState:
        if state.phase != Phase.REVIEW or state.due <= self.last_day:
            return state
        if self.recall(state) >= self.day_retention:
            return state
        last = state.last_review
        if last is not None and self.last_day - last >= timedelta(days=2 * CHECK_IN_DAYS):
            return replace(state, due=last + (self.last_day - last) / 2)
        return replace(state, due=self.last_day)

    def new_pace(self, unseen: int, now: datetime) -> int:
        """Rule 1: new cards to meet today so that all `unseen` (counting the cards met today)
        are met by two study days before the interview, each then seen again before it."""
        if not self.active(now) or unseen <= 0:
            return 0
        days = (study_day(self.at) - study_day(now)).days - 1
        return math.ceil(unseen / max(1, days))

    def new_limit(self, unseen: int, now: datetime, per_day: int) -> int:
        """Today's new-card limit: the usual `per_day`, raised to the pace when that is higher."""
        return max(per_day, self.new_pace(unseen, now))

    def day_gain(self, state: CardState, now: datetime) -> float:
        """Rule 3: how much recall at the interview rises if the card is recalled now.

        A never-studied card (`last_review` None) gains all the recall its first look gives.
        """
        after = self.model.review(state, Rating.GOOD, now)
        return self.recall(after) - self.recall(state)

    def reask_first(self, learning: CardState, head: CardState | None, now: datetime) -> bool:
        """Rule 4: whether the `learning` card, its step up, is re-asked before the queue's
        `head` (None: a card never studied, which goes first); always after the date."""
        if not self.active(now):
            return True
        if head is None or head.last_review is None:
            return False
        return self.day_gain(learning, now) >= self.day_gain(head, now)

    def order(
        self, due: Sequence[CardState], new: Sequence[K], now: datetime, pace: int
    ) -> tuple[list[K], list[CardState], list[K]]:
        """The day's queue in three parts: the `pace` first new cards, then the due cards by
        largest gain on the day (ties: due time), then the other new cards on offer.

        The paced new cards come first because a card never seen scores nothing on the day;
        the pace, not more, so that the cards already met are not left to fade.
        """
        if not self.active(now):
            return [], sorted(due, key=lambda s: s.due), list(new)
        gains = {s.key: self.day_gain(s, now) for s in due}
        ranked = sorted(due, key=lambda s: (-round(gains[s.key], 9), s.due))
        return list(new[:pace]), ranked, list(new[pace:])


def new_today(
    unseen: int, introduced: int, per_day: int, deadline: Deadline | None, now: datetime
) -> tuple[int, int]:
    """How many of the `unseen` cards a drill at `now` offers as new, and how many of those come
    before the due cards (the pace's lead), when `introduced` new cards were already met this
    study day. The one home of the daily new-card rule: the drill's queue (grill.session) and
    the plan's projection (grill.simulate) both call it, so the plan says what the drill does.

    The day's limit and pace count the cards met today, so meeting some of them early in the
    day lowers what is left, not the pace: the pace is set on the day's unseen cards at its start.
    """
    limit, lead = per_day, 0
    if deadline is not None:
        whole = unseen + introduced
        limit = deadline.new_limit(whole, now, per_day)
        lead = max(0, deadline.new_pace(whole, now) - introduced)
    offered = min(unseen, max(0, limit - introduced))
    return offered, min(lead, offered)
