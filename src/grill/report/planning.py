"""`grill plan`: what studying toward the interview date looks like from where the user stands.

`plan_view(store, library, settings, now)` returns the interview moment, the projected load per
study day (grill.simulate.project: the date-aware drill followed every day, as FSRS expects it),
readiness on the day if the plan is followed (each simulated run a learner whose time scale is
drawn from what the log says of the person, its study's gain carried onto one component of the
person's own forecast, so the spread is what grill does not know about them), and if it is not
(no more study from now on).
Today's line is not projected: it is the drill's own queue now (grill.session.plan, as `grill
due` and `grill` see it, new cards already met today counted), so the plan and the drill agree.
`simulation(...)` sets up the study simulator for the same deck and days left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from grill import personal
from grill.clock import study_day
from grill.config import Settings
from grill.errors import UsageError
from grill.memory import Forecaster, MemoryFit, default_fit
from grill.memory.forecast import SETTLED_DAYS
from grill.memory.models import FsrsModel
from grill.model import Deck, Library
from grill.plan import Deadline
from grill.readiness import Readiness, forecast_with
from grill.scheduler import Scheduler
from grill.session import DrillOptions, Plan, new_introduced
from grill.session import plan as drill_queue
from grill.simulate import DayLoad, Projection, Scenario, project
from grill.store import Store

__all__ = ["PlanView", "plan_view", "scenario_for"]


@dataclass(frozen=True)
class PlanView:
    deck: Deck
    interview: datetime
    now: datetime
    target: int
    followed: Projection
    idle: Readiness
    current: Readiness
    today: Plan
    """The drill's queue now: what `grill due` lists and `grill` asks next."""
    log_days: int = 0
    """Study days with reviews in the deck's log: under `SETTLED_DAYS`, "If you follow it" is
    read on a memory like FSRS's average learner's (README, "If you follow it" in the first
    days)."""

    @property
    def settled(self) -> bool:
        return self.log_days >= SETTLED_DAYS

    @property
    def days_left(self) -> int:
        """Study days before the interview's, today included."""
        return max(0, (study_day(self.interview) - study_day(self.now)).days)

    def to_dict(self) -> dict[str, object]:
        return {
            "deck": self.deck.name,
            "interview": self.interview.isoformat(),
            "target": self.target,
            "days_left": self.days_left,
            "days": [
                {
                    "day": d.day.isoformat(),
                    "new": round(d.new, 1),
                    "cards": round(d.cards, 1),
                    "reviews": round(d.reviews, 1),
                }
                for d in self.followed.days
            ],
            "followed": {
                "expected": round(self.followed.expected, 2),
                "expected_low": _rounded(self.followed.low),
                "expected_high": _rounded(self.followed.high),
                "p_target": round(self.followed.p_target, 4),
                "runs": self.followed.runs,
                "log_days": self.log_days,
                "settled": self.settled,
            },
            "not_followed": _ready(self.idle),
            "now": _ready(self.current),
            "today": {
                "due": len(self.today.due),
                "new": len(self.today.new),
                "new_already": self.today.new_today,
            },
        }


def _time_scales(fitted: MemoryFit) -> tuple[tuple[float, float], ...]:
    """What the log says of the person's time scale against the FSRS parameters the schedule
    uses (the fitted ones once there are any): that candidate's posterior of kappa."""
    used = fitted.personal if fitted.fitted else FsrsModel("default")
    for cand in fitted.candidates:
        if cand.model == used:
            return cand.posterior()
    return default_fit().candidates[0].posterior()


def _ready(ready: Readiness) -> dict[str, object]:
    return {
        "expected": round(ready.expected, 2),
        "expected_low": _rounded(ready.low),
        "expected_high": _rounded(ready.high),
        "p_target": round(ready.p_target, 4),
    }


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _deck(library: Library) -> Deck:
    deck = library.main_deck()
    if deck is None:
        raise UsageError("no deck with cards is loaded: nothing to plan")
    return deck


def plan_view(
    store: Store,
    library: Library,
    settings: Settings,
    now: datetime,
    warn: Callable[[str], None] | None = None,
) -> PlanView:
    """The plan toward `settings.interview_date`; a missing or past date is a UsageError."""
    fitted = personal.load(store, now, warn=warn)
    scheduler = personal.scheduler(store, settings.desired_retention, now)
    deadline = Deadline.on(settings.interview_date, now, scheduler)
    if deadline is None:
        raise UsageError("no interview date set: grill plan --date YYYY-MM-DD")
    if not deadline.active(now):
        raise UsageError(
            f"the interview date {settings.interview_date} has passed: "
            "set the next one with grill plan --date YYYY-MM-DD"
        )
    deck = _deck(library)
    stored = {s.card_id: s for s in store.states(deck.name).values()}
    states = [stored.get(card_id) for card_id in deck.cards.ids]
    # the options `grill` and `grill due` use with no flags: the same queue, the same day
    today = drill_queue(store, library, DrillOptions(settings.new_per_day, deadline=deadline), now)
    by_card = personal.deck_traces(store.reviews(deck=deck.name), deck.name, now.tzinfo or UTC)
    forecaster = Forecaster(fitted, [by_card.get(cid) for cid in deck.cards.ids])
    # the runs start from the candidates' own disagreement: the spread calibration was read on
    # forecasts for stopping now, and the projection's interval already holds the truth of a
    # learner who follows the plan less often than its 80% (README, "If you follow it")
    stopped = forecaster.at(deadline.at, calibrated=False)
    followed = project(
        states,
        deadline.at,
        now,
        target=settings.target,
        per_day=settings.new_per_day,
        desired_retention=settings.desired_retention,
        parameters=scheduler.parameters,
        introduced=new_introduced(store, now),
        time_scales=_time_scales(fitted),
        baselines=[(c.weight, c.chances) for c in stopped],
    )
    idle = forecast_with(deck, forecaster, deadline.at, settings.target)
    current = forecast_with(deck, forecaster, now, settings.target)
    followed = _today_from_queue(followed, today)
    log_days = len({d for t in by_card.values() for d in t.days})
    return PlanView(
        deck, deadline.at, now, settings.target, followed, idle, current, today, log_days
    )


def _today_from_queue(followed: Projection, today: Plan) -> Projection:
    """The projection with today's new cards and cards asked taken from the drill's queue (its
    learning-step re-asks included); the reviews stay projected, as re-asks cannot be known."""
    if not followed.days:
        return followed
    first = followed.days[0]
    cards = len(today.queue) + len(today.learning)
    day = DayLoad(first.day, len(today.new), cards, max(first.reviews, cards))
    return replace(followed, days=(day, *followed.days[1:]))


def scenario_for(library: Library, settings: Settings, now: datetime, learners: int) -> Scenario:
    """The simulator set up like the user's plan: the deck's size, the study days left (a fresh
    start: simulated learners begin with every card new), the target and daily new cards."""
    deck = _deck(library)
    days = 14
    if settings.interview_date is not None:
        deadline = Deadline.on(settings.interview_date, now, Scheduler())
        if deadline is not None:
            days = (study_day(deadline.at) - study_day(now)).days
    return Scenario(
        cards=len(deck.cards),
        days=max(1, days),
        target=settings.target,
        new_per_day=settings.new_per_day,
        learners=learners,
        desired_retention=settings.desired_retention,
    )
