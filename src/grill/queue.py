"""The drill's in-session queue rules, pure and in one place: the drill (grill.session) and the
study simulator (grill.simulate) both call them, so the simulator measures grill's own queue.

    LEARN_AHEAD                 how early a card in a learning step may be asked when nothing
                                else is waiting (Anki's learn-ahead limit)
    pick(queue, learning, now, ahead)
                                the next card: a learning card whose step is up (when `ahead`,
                                if given, says it goes before the queue's head), else the head
                                of the queue, else the learning card due soonest within
                                LEARN_AHEAD (`Pick.early` says how early)
    reask(state, now)           when a card just answered comes back in this session (None: not
                                today): cards in a learning step due within LEARN_AHEAD
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from grill.model import CardState, Phase

__all__ = ["LEARN_AHEAD", "Pick", "pick", "reask"]

LEARN_AHEAD = timedelta(minutes=20)
"""How early a learning-step card may be re-asked when nothing else is left (Anki's default)."""

K = TypeVar("K")


@dataclass(frozen=True)
class Pick(Generic[K]):
    """The card to ask next: from the learning cards or the queue's head, and how early."""

    key: K
    learning: bool
    early: timedelta | None = None
    """Set when a learning card is asked before its step is up (nothing else was waiting)."""


def pick(
    queue: Sequence[K],
    learning: Mapping[K, datetime],
    now: datetime,
    ahead: Callable[[K, K], bool] | None = None,
) -> Pick[K] | None:
    """The next card of a session (see the module docstring); None when the session is done.

    `ahead(learning_card, head)` decides whether a learning card whose step is up is asked
    before the queue's head (an interview date's rule, grill.plan `Deadline.reask_first`);
    without it, it always is. A learning card that waits is asked once the queue is empty.
    """
    soonest = min(learning.items(), key=lambda kv: kv[1], default=None)
    if soonest is not None and soonest[1] <= now:
        if not queue or ahead is None or ahead(soonest[0], queue[0]):
            return Pick(soonest[0], learning=True)
    if queue:
        return Pick(queue[0], learning=False)
    if soonest is not None and soonest[1] <= now + LEARN_AHEAD:
        return Pick(soonest[0], learning=True, early=soonest[1] - now)
    return None


def reask(state: CardState | None, now: datetime) -> datetime | None:
    """When a card answered at `now`, now in `state`, is asked again in the same session."""
    if state is None or state.phase not in (Phase.LEARNING, Phase.RELEARNING):
        return None
    return state.due if state.due <= now + LEARN_AHEAD else None
