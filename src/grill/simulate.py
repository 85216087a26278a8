"""A study simulator: simulated learners follow a schedule day by day until an interview.

It answers "does grill's date-aware schedule do better on the day than the alternatives?" without
trusting FSRS to grade itself. Each simulated learner has a hidden memory, one of two models:

* `fsrs` - FSRS-6's equations with per-learner parameters perturbed around the published defaults
  (log-normal noise), a per-card difficulty offset and a per-card chance of already knowing it;
* `exp` - exponential forgetting p = exp(-t/h), where a review multiplies the memory time h by a
  factor that is larger when recall was harder and smaller for difficult cards (per-card
  difficulty), and a failure resets h; a different curve and a different spacing effect.

The learner answers every review the schedule asks for (recalled with the hidden probability),
sees the answer afterwards, and its memory updates. Two more: `fast`, exponential forgetting
whose new cards' half-life is under a day (`FastMemory`), and `slow`, FSRS with three times the
first stabilities (`SlowMemory`). Three more were written after the forecast was tuned on those
four, to meet it fresh (`FRESH_MODELS`): `actr`, ACT-R's activation with a decay that grows with
the activation at study (massed practice fades fast); `weibull`, a stretched-exponential curve
whose memory time doubles with each spaced recall; and `leech`, FSRS where a third of the cards
are forgotten six times as fast. One more came later (`LATER_MODELS`): `decay`, FSRS with
its forgetting curve's shape varied too. Four schedules are run for the same learners
with the same random draws where they coincide:

* `grill` - grill.scheduler (FSRS-6) with the interview date (grill.plan.Deadline) and the
  parameters refitted to the learner's own log before each day (`PersonalPolicy`);
* `fsrs` - the same scheduler without the date;
* `sm2` - Anki's classic SM-2 with its default settings (steps 1m 10m, graduating 1 day, easy
  4 days, ease 250%, easy bonus 130%, hard 1.2, lapse: ease -20%, relearn 10m, new interval 1d);
* `fixed` - every card again every `FIXED_DAYS` days.

A daily cap on reviews (new cards and re-asks included) sets the effort: running each schedule
under several caps gives its curve of reviews done against the expected cold score at the
interview (the mean over learners of the sum of their true recall chances, never-seen cards 0).
From the curves: the score each schedule reaches with the same number of reviews, and the
reviews each needs to reach the target. Seeded and deterministic; no I/O.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

from grill.clock import study_day
from grill.config import Settings
from grill.memory import Trace, fit
from grill.model import CardState, Rating
from grill.odds import at_least, interval_text, poisson_binomial
from grill.plan import Deadline, new_today
from grill.queue import pick, reask
from grill.scheduler import Scheduler

__all__ = [
    "ALL_MEMORY_MODELS",
    "FIXED_DAYS",
    "FRESH_MODELS",
    "LATER_MODELS",
    "MODEL_CHOICES",
    "MEMORY_MODELS",
    "Memory",
    "memory_of",
    "POLICIES",
    "Curve",
    "PersonalPolicy",
    "DayLoad",
    "Outcome",
    "Projection",
    "Scenario",
    "SimulationResult",
    "format_result",
    "learner_rating",
    "main",
    "project",
    "carried",
    "spread_over",
    "run",
    "run_one",
]

FIXED_DAYS = 3
"""The fixed-interval plan's spacing."""

POLICIES = ("grill", "fsrs", "sm2", "fixed")
MEMORY_MODELS = ("fsrs", "exp", "fast", "slow")
FRESH_MODELS = ("actr", "weibull", "leech")
"""Memory models written after the forecast was tuned on `MEMORY_MODELS`, to meet it fresh:
ACT-R's activation with spacing-dependent decay, a stretched-exponential curve whose memory
time doubles with each spaced recall, and FSRS with a third of the cards leeches."""
ALL_MEMORY_MODELS = MEMORY_MODELS + FRESH_MODELS
LATER_MODELS = ("decay",)
"""Memory models written after the forecast's last change, to meet it fresh: FSRS-6 with its
forgetting curve's shape (the decay) varied too. Not in the ceiling's library (grill.ceiling
knows `ALL_MEMORY_MODELS`)."""
MODEL_CHOICES = ALL_MEMORY_MODELS + LATER_MODELS
"""Every memory model a simulated learner can have (`--memory`)."""
START = datetime(2026, 1, 5, tzinfo=UTC)
"""Simulated study starts here (a Monday); only differences of times matter."""

_SECONDS_PER_ANSWER = 60
_MAX_SESSION_REVIEWS = 1000


_SETTINGS = Settings()
"""grill's default settings: the simulated drill is the one a new user gets."""


@dataclass(frozen=True)
class Scenario:
    """What is simulated: a deck of `cards` new cards, `days` study days, then the interview."""

    cards: int = 45
    days: int = 14
    target: int = _SETTINGS.target
    new_per_day: int = _SETTINGS.new_per_day
    learners: int = 12
    seed: int = 1
    desired_retention: float = _SETTINGS.desired_retention
    session_hour: int = 18
    caps: tuple[int | None, ...] = (3, 5, 8, 12, 18, None)
    """Daily review caps to run each schedule under (None: no cap)."""

    @property
    def interview(self) -> datetime:
        return START + timedelta(days=self.days, hours=9)


# ---------------------------------------------------------------- hidden memory of a learner


class Memory(Protocol):
    def draw_cards(self, rng: random.Random, cards: int) -> None:
        """Draw each card's own traits (its difficulty, offset or pace) afresh from `rng`, the
        learner's other traits kept: the same person meeting other cards."""
        ...

    def chance(self, card: int, at: float) -> float:
        """P(recall) of `card` at time `at` (days since START); 0 when never seen."""
        ...

    def study(self, card: int, at: float, recalled: bool, rating: Rating) -> None:
        """The learner answered at `at` and then saw the answer."""
        ...


_W = (
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
)  # fmt: skip
"""FSRS-6's published default parameters: the population the simulated learners vary around."""


class FsrsMemory:
    """FSRS-6 equations with this learner's own parameters: recall in continuous time, and a
    review on the same study day as the one before updated by FSRS's short-term rule."""

    def __init__(
        self,
        rng: random.Random | None,
        cards: int,
        parameters: Sequence[float] = _W,
        time_scale: float = 1.0,
    ) -> None:
        """A learner drawn from `rng` around `parameters` (FSRS's defaults); with `rng=None`,
        the learner those parameters describe. `time_scale` is grill's kappa
        (grill.memory.models): elapsed time counts as elapsed / time_scale, so 0.5 is someone
        who forgets twice as fast as the parameters say."""
        self.time_scale = time_scale
        noisy = {0, 1, 2, 3, 8, 9, 10, 11, 13, 14, 15, 16}  # stability and its growth
        self.w = [
            w * math.exp(rng.gauss(0, 0.35)) if rng and i in noisy else w
            for i, w in enumerate(parameters)
        ]
        self.shape_curve()
        self.offset = [0.0] * cards
        if rng:
            self.draw_cards(rng, cards)
        self.s: dict[int, float] = {}
        self.d: dict[int, float] = {}
        self.last: dict[int, float] = {}

    def shape_curve(self) -> None:
        """The forgetting curve's shape from the decay (w20): 90% at the stability."""
        self.decay = self.w[20]
        self.factor = 0.9 ** (-1 / self.decay) - 1

    def draw_cards(self, rng: random.Random, cards: int) -> None:
        self.offset = [rng.gauss(0, 1.5) for _ in range(cards)]

    def remember(self, card: int, state: CardState) -> None:
        """Start from a stored FSRS state (for projections from the user's real progress)."""
        if state.stability is None or state.difficulty is None or state.last_review is None:
            return
        self.s[card], self.d[card] = state.stability, state.difficulty
        self.last[card] = _days(state.last_review)

    def chance(self, card: int, at: float) -> float:
        if card not in self.s:
            return 0.0
        elapsed = max(0.0, at - self.last[card]) / self.time_scale
        return float((1 + self.factor * elapsed / self.s[card]) ** -self.decay)

    def study(self, card: int, at: float, recalled: bool, rating: Rating) -> None:
        w, g = self.w, int(rating)
        if card not in self.s:
            self.s[card] = w[g - 1]
            self.d[card] = _clamp(w[4] - math.exp(w[5] * (g - 1)) + 1 + self.offset[card])
        else:
            r = self.chance(card, at)
            s, d = self.s[card], self.d[card]
            if _study_day(at) == _study_day(self.last[card]):
                gain = math.exp(w[17] * (g - 3 + w[18])) * s ** -w[19]
                self.s[card] = s * (max(gain, 1.0) if g > 1 else gain)
            elif recalled:
                bonus = (w[15] if g == 2 else 1) * (w[16] if g == 4 else 1)
                grow = math.exp(w[8]) * (11 - d) * s ** -w[9] * (math.exp(w[10] * (1 - r)) - 1)
                self.s[card] = s * (1 + grow * bonus)
            else:
                long = w[11] * d ** -w[12] * ((s + 1) ** w[13] - 1) * math.exp(w[14] * (1 - r))
                self.s[card] = min(long, s / math.exp(w[17] * w[18]))
            easy = w[4] - math.exp(w[5] * 3) + 1
            moved = d - w[6] * (g - 3) * (10 - d) / 9
            self.d[card] = _clamp(w[7] * easy + (1 - w[7]) * moved)
            self.s[card] = max(self.s[card], 0.001)
        self.last[card] = at


class ExpMemory:
    """Exponential forgetting; a review multiplies the memory time h by 1 + k(1-p)^0.7 / d."""

    def __init__(self, rng: random.Random, cards: int) -> None:
        # memory time after a first look, in days: p = 0.78 a day later for an average card,
        # about what FSRS's population shows after a first "hard"
        self.first = 4.0 * math.exp(rng.gauss(0, 0.3))
        self.k = 5.0 * math.exp(rng.gauss(0, 0.25))
        self.draw_cards(rng, cards)
        self.h: dict[int, float] = {}
        self.last: dict[int, float] = {}

    def draw_cards(self, rng: random.Random, cards: int) -> None:
        self.difficulty = [math.exp(rng.gauss(0, 0.5)) for _ in range(cards)]

    def chance(self, card: int, at: float) -> float:
        if card not in self.h:
            return 0.0
        return math.exp(-max(0.0, at - self.last[card]) / self.h[card])

    def study(self, card: int, at: float, recalled: bool, rating: Rating) -> None:
        fresh = self.first / self.difficulty[card]
        if card not in self.h:
            self.h[card] = fresh
        elif recalled:
            p = self.chance(card, at)
            self.h[card] *= 1 + self.k * (1 - p) ** 0.7 / self.difficulty[card]
        else:
            self.h[card] = max(fresh, 0.5 * self.h[card])
        self.last[card] = at


class FastMemory(ExpMemory):
    """Exponential forgetting of a fast forgetter: a first look leaves a half-life of about
    0.6 days (memory time 0.9), and recall grows its memory time less than `ExpMemory`'s."""

    def __init__(self, rng: random.Random, cards: int) -> None:
        super().__init__(rng, cards)
        self.first = 0.9 * math.exp(rng.gauss(0, 0.3))
        self.k = 2.0 * math.exp(rng.gauss(0, 0.25))


class SlowMemory(FsrsMemory):
    """FSRS-6 with perturbed parameters whose first stabilities are three times the defaults:
    a learner who keeps what they have seen once."""

    def __init__(self, rng: random.Random, cards: int) -> None:
        super().__init__(rng, cards)
        for i in range(4):
            self.w[i] *= 3


class ActrMemory:
    """ACT-R's declarative memory with the spacing effect (Pavlik and Anderson, 2005): every
    look at a card (an answer, then the answer shown) leaves a trace that decays as a power of
    its age, d_j = c e^(m_j) + a, faster when the card was already active (massed practice);
    activation m = beta_card + ln(sum of (age + eps)^-d_j); recall 1 / (1 + e^((tau - m)/s))."""

    _EPS = 0.01  # days (about a quarter of an hour): a trace is never infinitely strong

    def __init__(self, rng: random.Random, cards: int) -> None:
        self.a = 0.25 * math.exp(rng.gauss(0, 0.15))
        self.c = 0.25 * math.exp(rng.gauss(0, 0.2))
        self.tau = -0.2 + rng.gauss(0, 0.15)
        self.s = 0.3
        self.draw_cards(rng, cards)
        self.traces: dict[int, list[tuple[float, float]]] = {}

    def draw_cards(self, rng: random.Random, cards: int) -> None:
        self.beta = [rng.gauss(0, 0.3) for _ in range(cards)]

    def _activation(self, card: int, at: float) -> float:
        total = sum((max(0.0, at - t) + self._EPS) ** -d for t, d in self.traces[card] if t <= at)
        return self.beta[card] + math.log(total) if total > 0 else -math.inf

    def chance(self, card: int, at: float) -> float:
        if card not in self.traces:
            return 0.0
        m = self._activation(card, at)
        return 1 / (1 + math.exp(min(50.0, (self.tau - m) / self.s)))

    def study(self, card: int, at: float, recalled: bool, rating: Rating) -> None:
        m = self._activation(card, at) if card in self.traces else -math.inf
        d = self.c * math.exp(min(m, 5.0)) + self.a if m > -math.inf else self.a
        self.traces.setdefault(card, []).append((at, d))


class WeibullMemory:
    """A stretched-exponential curve p = exp(-(t/h)^0.6), between an exponential and a power
    law; a recall on a later day multiplies the memory time h by a fixed factor (about 2.2,
    smaller for difficult cards) whatever its chance was, a same-day one by 1.2, and a lapse
    resets h below a first look's."""

    def __init__(self, rng: random.Random, cards: int) -> None:
        self.first = 1.5 * math.exp(rng.gauss(0, 0.3))
        self.grow = 2.2 * math.exp(rng.gauss(0, 0.2))
        self.draw_cards(rng, cards)
        self.h: dict[int, float] = {}
        self.last: dict[int, float] = {}

    def draw_cards(self, rng: random.Random, cards: int) -> None:
        self.difficulty = [math.exp(rng.gauss(0, 0.6)) for _ in range(cards)]

    def chance(self, card: int, at: float) -> float:
        if card not in self.h:
            return 0.0
        return math.exp(-((max(0.0, at - self.last[card]) / self.h[card]) ** 0.6))

    def study(self, card: int, at: float, recalled: bool, rating: Rating) -> None:
        d = self.difficulty[card]
        if card not in self.h:
            self.h[card] = self.first / d
        elif not recalled:
            self.h[card] = 0.7 * self.first / d
        elif at - self.last[card] >= 0.5:
            self.h[card] *= max(1.1, self.grow / math.sqrt(d))
        else:
            self.h[card] *= 1.2
        self.last[card] = at


class LeechMemory(FsrsMemory):
    """FSRS-6 with perturbed parameters, where about a third of the cards are leeches that
    are forgotten six times as fast as the rest (and the rest a little slower than FSRS says):
    a person whose cards differ far more than FSRS's difficulty allows."""

    def draw_cards(self, rng: random.Random, cards: int) -> None:
        super().draw_cards(rng, cards)
        self.pace = [6.0 if rng.random() < 1 / 3 else 0.8 for _ in range(cards)]

    def chance(self, card: int, at: float) -> float:
        if card not in self.s:
            return 0.0
        elapsed = max(0.0, at - self.last[card]) * self.pace[card]
        return float((1 + self.factor * elapsed / self.s[card]) ** -self.decay)


class DecayMemory(FsrsMemory):
    """FSRS-6 with every parameter perturbed, its forgetting curve's shape among them: the
    decay (w20) drawn between 0.1 and 0.6, log-uniform (FSRS-6's default is 0.15, FSRS-4.5's
    fixed curve 0.5). Every curve keeps 90% at its stability; a larger decay falls faster after
    it. The other parameters vary as `FsrsMemory`'s, and those it keeps (difficulty and the
    same-day rule) by a third as much; the difficulty's mean reversion (w7) stays at most 0.8."""

    def __init__(self, rng: random.Random, cards: int) -> None:
        super().__init__(rng, cards)
        fixed = {4, 5, 6, 7, 12, 17, 18, 19}
        for i in fixed:
            self.w[i] *= math.exp(rng.gauss(0, 0.12))
        self.w[7] = min(self.w[7], 0.8)
        self.w[20] = math.exp(rng.uniform(math.log(0.1), math.log(0.6)))
        self.shape_curve()


def _study_day(at: float) -> int:
    """The study day (from 4 am) of a time in days since START: FSRS counts the days between
    two reviews in study days, so a review the next evening is a day later even when it comes
    a little earlier in the day than the one before."""
    return math.floor(at - 4 / 24)


def _clamp(d: float) -> float:
    return min(10.0, max(1.0, d))


def memory_of(kind: str, rng: random.Random, cards: int) -> Memory:
    kinds: dict[str, Callable[[random.Random, int], Memory]] = {
        "fsrs": FsrsMemory,
        "exp": ExpMemory,
        "fast": FastMemory,
        "slow": SlowMemory,
        "actr": ActrMemory,
        "weibull": WeibullMemory,
        "leech": LeechMemory,
        "decay": DecayMemory,
    }
    if kind not in kinds:
        raise ValueError(f"unknown memory model {kind!r}; known: {', '.join(MODEL_CHOICES)}")
    return kinds[kind](rng, cards)


# ---------------------------------------------------------------- schedules


class Policy(Protocol):
    def queue(self, now: datetime, unseen: Sequence[int]) -> list[int]:
        """The session's queue at `now`: due cards and new cards, in the order asked."""
        ...

    def answer(self, card: int, rating: Rating, now: datetime) -> datetime | None:
        """Record a review; returns when to re-ask it in the same session (None: not today)."""
        ...

    def ahead(self, now: datetime) -> Callable[[int, int], bool] | None:
        """grill.queue.pick's `ahead`: whether a re-ask goes before the queue's head (None:
        always)."""
        ...


class FsrsPolicy:
    """grill's scheduler, with (`deadline`) or without the interview date."""

    def __init__(
        self,
        desired_retention: float,
        per_day: int,
        interview: datetime | None,
        states: dict[int, CardState] | None = None,
        parameters: Sequence[float] | None = None,
        introduced: Mapping[datetime, int] | None = None,
    ) -> None:
        self.scheduler = Scheduler(desired_retention, enable_fuzzing=False, parameters=parameters)
        self.deadline = Deadline(interview, self.scheduler) if interview else None
        self.per_day = per_day
        self.states: dict[int, CardState] = dict(states or {})
        self.introduced: dict[datetime, int] = dict(introduced or {})
        """New cards met per study day (keyed by its start), counted against the day's limit as
        the drill counts them; given: those met before the simulation began."""

    def queue(self, now: datetime, unseen: Sequence[int]) -> list[int]:
        introduced = self.introduced.get(study_day(now), 0)
        offered, lead = new_today(len(unseen), introduced, self.per_day, self.deadline, now)
        new = list(unseen[:offered])
        if self.deadline is None:
            due = sorted((s for s in self.states.values() if s.due <= now), key=_by_due)
            return [int(s.card_id) for s in due] + new
        states = self.deadline.adjust_due(self.states, now)
        due = [s for s in states.values() if s.due <= now]
        first, ranked, rest = self.deadline.order(due, new, now, lead)
        return first + [int(s.card_id) for s in ranked] + rest

    def ahead(self, now: datetime) -> Callable[[int, int], bool] | None:
        deadline = self.deadline
        if deadline is None:
            return None
        return lambda card, head: deadline.reask_first(
            self.states[card], self.states.get(head), now
        )

    def answer(self, card: int, rating: Rating, now: datetime) -> datetime | None:
        if card not in self.states:
            day = study_day(now)
            self.introduced[day] = self.introduced.get(day, 0) + 1
        state = self.states.get(card) or self.scheduler.new_state("sim", str(card), now)
        state = self.scheduler.review(state, rating, now)
        self.states[card] = state
        return reask(state, now)


class PersonalPolicy(FsrsPolicy):
    """grill's drill as a person gets it: the interview date, and FSRS parameters refitted to
    the learner's own log before each day's session (grill.memory.fit, as grill refits after
    every drill), once there are enough reviews to fit."""

    def __init__(self, desired_retention: float, per_day: int, interview: datetime) -> None:
        super().__init__(desired_retention, per_day, interview)
        self.desired_retention = desired_retention
        self.interview = interview
        self.log: dict[int, list[tuple[datetime, int]]] = {}

    def queue(self, now: datetime, unseen: Sequence[int]) -> list[int]:
        self._refit(now)
        return super().queue(now, unseen)

    def answer(self, card: int, rating: Rating, now: datetime) -> datetime | None:
        self.log.setdefault(card, []).append((now, int(rating)))
        return super().answer(card, rating, now)

    def _refit(self, now: datetime) -> None:
        if not self.log:
            return
        origin = study_day(min(rows[0][0] for rows in self.log.values()))
        traces = [
            Trace(
                ("sim", str(card)),
                tuple(at for at, _ in rows),
                tuple((study_day(at) - origin).days for at, _ in rows),
                tuple(g for _, g in rows),
            )
            for card, rows in self.log.items()
        ]
        fitted = fit(traces, now)
        if fitted.fitted:
            params = fitted.personal.parameters
            self.scheduler = Scheduler(
                self.desired_retention, enable_fuzzing=False, parameters=params
            )
            self.deadline = Deadline(self.interview, self.scheduler)


def _by_due(state: CardState) -> datetime:
    return state.due


@dataclass
class _Sm2Card:
    step: int | None = 0  # learning/relearning step; None: in review
    lapsed: bool = False
    interval: int = 0
    ease: float = 2.5
    due: datetime = START
    last: datetime = START


class Sm2Policy:
    """Anki's classic SM-2 scheduler with its default deck options (no fuzz)."""

    steps = (timedelta(minutes=1), timedelta(minutes=10))
    relearn = (timedelta(minutes=10),)

    def __init__(self, scenario: Scenario) -> None:
        self.per_day = scenario.new_per_day
        self.cards: dict[int, _Sm2Card] = {}

    def queue(self, now: datetime, unseen: Sequence[int]) -> list[int]:
        due = [(c.due, k) for k, c in self.cards.items() if c.due <= now]
        return [k for _, k in sorted(due)] + list(unseen[: self.per_day])

    def ahead(self, now: datetime) -> None:
        return None

    def answer(self, card: int, rating: Rating, now: datetime) -> datetime | None:
        c = self.cards.setdefault(card, _Sm2Card(due=now, last=now))
        if c.step is not None:
            self._learn(c, rating, now)
        else:
            self._review(c, rating, now)
        c.last = now
        return c.due if c.step is not None else None

    def _learn(self, c: _Sm2Card, rating: Rating, now: datetime) -> None:
        assert c.step is not None
        steps = self.relearn if c.lapsed else self.steps
        if rating == Rating.AGAIN:
            c.step, c.due = 0, now + steps[0]
        elif rating == Rating.HARD:
            c.due = now + (steps[0] + steps[1]) / 2 if c.step == 0 and len(steps) > 1 else now
            c.due = max(c.due, now + steps[c.step])
        elif rating == Rating.GOOD and c.step + 1 < len(steps):
            c.step, c.due = c.step + 1, now + steps[c.step + 1]
        else:
            easy = rating == Rating.EASY
            if not c.lapsed:
                c.interval = 4 if easy else 1
            c.step, c.lapsed = None, False
            c.due = _day_after(now, c.interval)

    def _review(self, c: _Sm2Card, rating: Rating, now: datetime) -> None:
        late = max(0, (study_day(now) - study_day(c.due)).days)
        ivl = c.interval
        if rating == Rating.AGAIN:
            c.ease = max(1.3, c.ease - 0.2)
            c.interval, c.step, c.lapsed = 1, 0, True
            c.due = now + self.relearn[0]
            return
        hard = max(ivl + 1, round((ivl + late / 4) * 1.2))
        if rating == Rating.HARD:
            c.ease, c.interval = max(1.3, c.ease - 0.15), hard
        elif rating == Rating.GOOD:
            c.interval = max(hard + 1, round((ivl + late / 2) * c.ease))
        else:
            good = max(hard + 1, round((ivl + late / 2) * c.ease))
            c.interval = max(good + 1, round((ivl + late) * c.ease * 1.3))
            c.ease += 0.15
        c.due = _day_after(now, c.interval)


class FixedPolicy:
    """Every card again every FIXED_DAYS days; a miss is re-asked 10 minutes later."""

    def __init__(self, scenario: Scenario) -> None:
        self.per_day = scenario.new_per_day
        self.due_at: dict[int, datetime] = {}

    def queue(self, now: datetime, unseen: Sequence[int]) -> list[int]:
        due = [k for d, k in sorted((d, k) for k, d in self.due_at.items() if d <= now)]
        return due + list(unseen[: self.per_day])

    def ahead(self, now: datetime) -> None:
        return None

    def answer(self, card: int, rating: Rating, now: datetime) -> datetime | None:
        if rating == Rating.AGAIN:
            self.due_at[card] = now + timedelta(minutes=10)
            return self.due_at[card]
        self.due_at[card] = _day_after(now, FIXED_DAYS)
        return None


def _day_after(now: datetime, days: int) -> datetime:
    """Due at the start of the study day `days` after now's (reviews are by the day)."""
    return study_day(now) + timedelta(days=days)


def _policy(name: str, scenario: Scenario) -> Policy:
    if name == "grill":
        return PersonalPolicy(scenario.desired_retention, scenario.new_per_day, scenario.interview)
    if name == "fsrs":
        return FsrsPolicy(scenario.desired_retention, scenario.new_per_day, None)
    if name == "sm2":
        return Sm2Policy(scenario)
    if name == "fixed":
        return FixedPolicy(scenario)
    raise ValueError(f"unknown schedule {name!r}; known: {', '.join(POLICIES)}")


# ---------------------------------------------------------------- running


@dataclass(frozen=True)
class Outcome:
    """One learner through one schedule: reviews done, true chances at the interview."""

    reviews: int
    chances: tuple[float, ...]

    @property
    def expected(self) -> float:
        return sum(self.chances)


def learner_rating(rng: random.Random, recalled: bool) -> Rating:
    """How a simulated learner rates itself: again when it forgot, else mostly good (a tenth
    hard, one in twenty easy)."""
    if not recalled:
        return Rating.AGAIN
    roll = rng.random()
    return Rating.HARD if roll < 0.1 else Rating.EASY if roll > 0.95 else Rating.GOOD


def run_one(
    scenario: Scenario, policy_name: str, memory_kind: str, learner: int, cap: int | None
) -> Outcome:
    """One learner (its hidden memory drawn from the seed) following one schedule."""
    traits = random.Random(f"{scenario.seed}/{memory_kind}/{learner}")
    memory = memory_of(memory_kind, traits, scenario.cards)
    known = [traits.random() * 0.5 for _ in range(scenario.cards)]  # chance of knowing it already
    answers = random.Random(f"{scenario.seed}/{memory_kind}/{learner}/answers")
    policy = _policy(policy_name, scenario)
    seen: set[int] = set()
    reviews = 0
    for day in range(scenario.days):
        now = START + timedelta(days=day, hours=scenario.session_hour)
        reviews += _session(scenario.cards, policy, memory, known, answers, seen, now, cap)
    at = _days(scenario.interview)
    return Outcome(reviews, tuple(memory.chance(c, at) for c in range(scenario.cards)))


def _session(
    cards: int,
    policy: Policy,
    memory: Memory,
    known: Sequence[float],
    rng: random.Random,
    seen: set[int],
    now: datetime,
    cap: int | None,
    asked: set[int] | None = None,
) -> int:
    """One day's drill, mirroring grill.session: due cards, new cards, learning-step re-asks.
    Returns the reviews done; `asked`, when given, collects the cards asked."""
    unseen = [c for c in range(cards) if c not in seen]
    queue = policy.queue(now, unseen)
    learning: dict[int, datetime] = {}
    done = 0
    budget = _MAX_SESSION_REVIEWS if cap is None else cap
    while done < budget:
        card = _pick(queue, learning, now, policy.ahead(now))
        if card is None:
            break
        at = _days(now)
        chance = memory.chance(card, at) if card in seen else known[card]
        recalled = rng.random() < chance
        rating = learner_rating(rng, recalled)
        memory.study(card, at, recalled, rating)
        seen.add(card)
        if asked is not None:
            asked.add(card)
        again = policy.answer(card, rating, now)
        if again is not None:
            learning[card] = again
        done += 1
        now += timedelta(seconds=_SECONDS_PER_ANSWER)
    return done


def _pick(
    queue: list[int],
    learning: dict[int, datetime],
    now: datetime,
    ahead: Callable[[int, int], bool] | None = None,
) -> int | None:
    """grill.queue.pick, taking the card out of the session's lists."""
    chosen = pick(queue, learning, now, ahead)
    if chosen is None:
        return None
    if chosen.learning:
        del learning[chosen.key]
    else:
        queue.pop(0)
        learning.pop(chosen.key, None)
    return chosen.key


def _days(moment: datetime) -> float:
    return (moment - START).total_seconds() / 86400


# ---------------------------------------------------------------- projecting the user's plan


@dataclass(frozen=True)
class DayLoad:
    """One study day of a projected plan: mean new cards, cards asked, reviews (re-asks too)."""

    day: date
    new: float
    cards: float
    reviews: float


@dataclass(frozen=True)
class Projection:
    """Following grill's date-aware drill every day until the interview, as FSRS expects it.

    `chances` are each card's mean recall at the interview over the simulated futures.
    """

    interview: datetime
    days: tuple[DayLoad, ...]
    chances: tuple[float, ...]
    p_target: float
    runs: int
    scores: tuple[float, ...] = ()
    """Each run's expected score on the day, lowest first (its learner's time scale drawn from
    what is known about the person: the spread is that uncertainty)."""

    @property
    def expected(self) -> float:
        return sum(self.chances)

    @property
    def low(self) -> float | None:
        """The 10th percentile of the runs' expected scores (None with fewer than 5 runs)."""
        return _quantile(self.scores, 0.1) if len(self.scores) >= 5 else None

    @property
    def high(self) -> float | None:
        return _quantile(self.scores, 0.9) if len(self.scores) >= 5 else None

    @property
    def interval(self) -> str:
        """The 80% interval of the expected score as text (grill.odds.interval_text)."""
        return interval_text(self.low, self.high)


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between the closest ranks of an ascending sequence."""
    x = q * (len(ordered) - 1)
    lo = math.floor(x)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (x - lo)


def spread_over(weights: Sequence[float], runs: int) -> list[int]:
    """`runs` indices into items given in ascending order with these weights, standing for
    their distribution: the quantiles at (r + 1/2) / runs, lowest first (deterministic, so a
    plan does not jitter). No weight at all: the first item every time."""
    total = sum(w for w in weights if w > 0)
    if total <= 0:
        return [0] * runs
    out, seen, i = [], 0.0, 0
    for r in range(runs):
        q = (r + 0.5) / runs * total
        while i < len(weights) - 1 and seen + max(weights[i], 0.0) < q:
            seen += max(weights[i], 0.0)
            i += 1
        out.append(i)
    return out


def carried(base: float, idle: float, followed: float) -> float:
    """A card's chance on the day with the study's effect under the simulated memory (from
    `idle`, no more study, to `followed`) carried onto `base`, the person's own forecast of it
    without that study: the study closes the same share of the gap to certain recall (or, if
    recall fell, keeps the same share of it). A card `base` does not know (never studied) takes
    `followed` as it is. Not a shift in log-odds: from a nearly forgotten card that barely
    rises however much the plan re-teaches it (against simulated learners who followed the
    plan, it forecast them several cards low; README, "How far to trust the forecast")."""
    if base <= 0.0 or idle <= 0.0:
        return followed
    if followed < idle:
        return base * followed / idle
    share = (followed - idle) / (1 - idle) if idle < 1 else 0.0
    return base + share * (1 - base)


def project(
    states: Sequence[CardState | None],
    interview: datetime,
    now: datetime,
    *,
    target: int,
    per_day: int,
    desired_retention: float = 0.9,
    runs: int = 30,
    seed: int = 0,
    parameters: Sequence[float] | None = None,
    introduced: int = 0,
    time_scales: Sequence[tuple[float, float]] = ((1.0, 1.0),),
    baselines: Sequence[tuple[float, Sequence[float]]] = (),
) -> Projection:
    """Simulate following the plan: a full drill every study day from `now` until the interview.

    `states` holds one deck's cards in order (None: never studied). The simulated learner is
    FSRS's learner of `parameters` (the person's fitted ones; default: FSRS's average learner)
    starting from these states, so this is grill's own forecast, not a
    measurement: a card met for the first time is not known (answered "again", then learned).
    Each run's learner has its own time scale, drawn from `time_scales` ((kappa, weight) pairs:
    what is known about how fast this person forgets against those parameters), and its score
    on the day is its own memory's recall at the interview, so the runs' spread is that
    uncertainty and not only the luck of the answers. `baselines`, (weight, chances) pairs in
    deck order, are the person's own forecast for the day if they stopped now (the components
    of grill.memory's mixture): each run takes one, and the study's gain under its simulated
    learner is carried onto it (`carried`), so following the plan is read on the same memory as
    stopping, and with nothing left to study the two agree. Time scales and baselines are
    paired lowest with lowest: a person who forgets fast does so under both.
    Sessions are at `now`'s time of day on each study day before the interview's; `introduced`
    new cards were already met today and count against today's limit, as in the drill.
    """
    sessions = _session_times(interview, now)
    new = [0.0] * len(sessions)
    asked = [0.0] * len(sessions)
    done = [0.0] * len(sessions)
    chances = [0.0] * len(states)
    p_target = 0.0
    scores = []
    at_interview = _days(interview)
    scales = sorted((k, w) for k, w in time_scales)
    bases = sorted(baselines, key=lambda b: sum(b[1]))
    picks = zip(
        spread_over([w for _, w in scales], runs),
        spread_over([w for w, _ in bases], runs) if bases else [None] * runs,
        strict=True,
    )
    for run, (scale, base) in enumerate(picks):
        memory = FsrsMemory(None, len(states), parameters or _W, time_scale=scales[scale][0])
        known = {
            i: replace(st, deck="sim", card_id=str(i))
            for i, st in enumerate(states)
            if st is not None
        }
        for i, state in known.items():
            memory.remember(i, state)
        idle = [memory.chance(i, at_interview) for i in range(len(states))]
        today = {study_day(now): introduced}
        policy = FsrsPolicy(desired_retention, per_day, interview, known, parameters, today)
        seen = set(known)
        unknown = [0.0] * len(states)
        rng = random.Random(f"{seed}/project/{run}")
        for k, at in enumerate(sessions):
            before, cards = len(seen), set[int]()
            done[k] += _session(len(states), policy, memory, unknown, rng, seen, at, None, cards)
            new[k] += len(seen) - before
            asked[k] += len(cards)
        final = [memory.chance(i, at_interview) for i in range(len(states))]
        if base is not None:
            final = [carried(*x) for x in zip(bases[base][1], idle, final, strict=True)]
        chances = [c + f for c, f in zip(chances, final, strict=True)]
        scores.append(sum(final))
        p_target += at_least(poisson_binomial(final), target)
    loads = tuple(
        DayLoad(study_day(at).date(), new[k] / runs, asked[k] / runs, done[k] / runs)
        for k, at in enumerate(sessions)
    )
    return Projection(
        interview,
        loads,
        tuple(c / runs for c in chances),
        p_target / runs,
        runs,
        tuple(sorted(scores)),
    )


def _session_times(interview: datetime, now: datetime) -> list[datetime]:
    """`now`, then the same local time on each following study day before the interview's."""
    last = study_day(interview)
    times = []
    at = now
    while study_day(at) < last:
        times.append(at)
        at += timedelta(days=1)
    return times


# ---------------------------------------------------------------- curves and the verdict


@dataclass(frozen=True)
class Curve:
    """One schedule on one memory model: mean reviews and score per daily cap."""

    policy: str
    memory: str
    points: tuple[tuple[int | None, float, float, float], ...]
    """(cap, mean reviews per learner, mean expected score, mean P(score >= target))."""

    @property
    def uncapped(self) -> tuple[float, float, float]:
        cap, reviews, score, p = self.points[-1]
        return reviews, score, p

    def _sorted(self) -> list[tuple[float, float]]:
        return sorted((reviews, score) for _, reviews, score, _ in self.points)

    def score_at(self, reviews: float) -> float:
        """The expected score with `reviews` reviews (linear between runs; a schedule that does
        fewer reviews even uncapped keeps its uncapped score: it never asks for more)."""
        pts = self._sorted()
        if reviews <= pts[0][0]:
            return pts[0][1] * reviews / pts[0][0] if pts[0][0] else pts[0][1]
        for (r0, s0), (r1, s1) in zip(pts, pts[1:], strict=False):
            if r0 <= reviews <= r1:
                return s0 if r1 == r0 else s0 + (s1 - s0) * (reviews - r0) / (r1 - r0)
        return max(s for _, s in pts)

    def reviews_for(self, target: float) -> float | None:
        """The fewest reviews reaching an expected score of `target` (None: never reached)."""
        pts = self._sorted()
        prev = (0.0, 0.0)
        for r, s in pts:
            if s >= target:
                r0, s0 = prev
                return r0 + (r - r0) * (target - s0) / (s - s0) if s > s0 else r
            prev = (r, s) if s > prev[1] else prev
        return None


@dataclass(frozen=True)
class SimulationResult:
    scenario: Scenario
    curves: tuple[Curve, ...] = field(default=())

    def curve(self, policy: str, memory: str) -> Curve:
        return next(c for c in self.curves if c.policy == policy and c.memory == memory)

    def goals(self, memory: str) -> dict[str, float | bool | None]:
        """The issue's two goals on one memory model, with the numbers behind them."""
        target = self.scenario.target
        grill, sm2 = self.curve("grill", memory), self.curve("sm2", memory)
        fsrs = self.curve("fsrs", memory)
        g_need, s_need = grill.reviews_for(target), sm2.reviews_for(target)
        saving = None if g_need is None or s_need is None else 1 - g_need / s_need
        # equal reviews: at plain FSRS's own (uncapped) load, and at grill's
        f_load, g_load = fsrs.uncapped[0], grill.uncapped[0]
        pairs = [(grill.score_at(n), fsrs.score_at(n)) for n in (f_load, g_load)]
        return {
            "grill_reviews_to_target": g_need,
            "sm2_reviews_to_target": s_need,
            "saving_vs_sm2": saving,
            "fewer_reviews_goal": saving is not None and saving >= 0.25,
            "fsrs_reviews": f_load,
            "grill_score_at_fsrs_reviews": pairs[0][0],
            "fsrs_score": pairs[0][1],
            "grill_reviews": g_load,
            "grill_score": pairs[1][0],
            "fsrs_score_at_grill_reviews": pairs[1][1],
            "higher_score_goal": all(g > f for g, f in pairs),
        }


def run(
    scenario: Scenario,
    policies: Sequence[str] = POLICIES,
    memories: Sequence[str] = MEMORY_MODELS,
    progress: Callable[[str], None] | None = None,
) -> SimulationResult:
    """Every schedule under every cap, for every learner of every memory model."""
    curves = []
    for memory in memories:
        for policy in policies:
            if progress:
                progress(f"{policy} on {memory} learners")
            points = []
            for cap in scenario.caps:
                outs = [run_one(scenario, policy, memory, i, cap) for i in range(scenario.learners)]
                points.append(_summary(cap, outs, scenario.target))
            curves.append(Curve(policy, memory, tuple(points)))
    return SimulationResult(scenario, tuple(curves))


def _summary(
    cap: int | None, outs: Sequence[Outcome], target: int
) -> tuple[int | None, float, float, float]:
    n = len(outs)
    reviews = sum(o.reviews for o in outs) / n
    score = sum(o.expected for o in outs) / n
    p = sum(at_least(poisson_binomial(o.chances), target) for o in outs) / n
    return cap, reviews, score, p


# ---------------------------------------------------------------- text


def format_result(result: SimulationResult) -> str:
    """Plain-text tables: per memory model, each schedule's curve, equal-review scores, goals."""
    sc = result.scenario
    lines = [
        f"Simulated: {sc.learners} learners per memory model, {sc.cards} new cards, "
        f"{sc.days} study days, interview on day {sc.days + 1} at 09:00, target {sc.target}, "
        f"new cards {sc.new_per_day}/day, seed {sc.seed}.",
        "Expected cold score on the interview day (mean over learners); reviews per learner.",
    ]
    for memory in sorted({c.memory for c in result.curves}, key=MODEL_CHOICES.index):
        lines += ["", f"== memory model: {memory}", _curve_table(result, memory)]
        lines += _equal_reviews(result, memory)
        lines += _goal_lines(result, memory)
    return "\n".join(lines)


def _curve_table(result: SimulationResult, memory: str) -> str:
    curves = [c for c in result.curves if c.memory == memory]
    caps = result.scenario.caps
    head = f"{'cap/day':>8} " + " ".join(f"{c.policy:>17}" for c in curves)
    rows = [head, f"{'':>8} " + " ".join(f"{'reviews  score':>17}" for _ in curves)]
    for i, cap in enumerate(caps):
        cells = [
            f"{c.points[i][1]:7.0f} {c.points[i][2]:6.1f}/{result.scenario.cards}" for c in curves
        ]
        rows.append(f"{'none' if cap is None else cap:>8} " + " ".join(f"{x:>17}" for x in cells))
    p_cells = [f"P(>={result.scenario.target}) {c.uncapped[2]:.2f}" for c in curves]
    rows.append(f"{'none':>8} " + " ".join(f"{x:>17}" for x in p_cells))
    return "\n".join(rows)


def _equal_reviews(result: SimulationResult, memory: str) -> list[str]:
    curves = [c for c in result.curves if c.memory == memory]
    grill_uncapped = result.curve("grill", memory).uncapped[0] if "grill" in POLICIES else 0
    budgets = sorted({round(grill_uncapped), *(round(grill_uncapped * f) for f in (0.4, 0.6, 0.8))})
    lines = ["", "Same number of reviews -> expected score on the day:"]
    lines.append(f"{'reviews':>8} " + " ".join(f"{c.policy:>8}" for c in curves))
    for n in budgets:
        lines.append(f"{n:>8} " + " ".join(f"{c.score_at(n):8.1f}" for c in curves))
    lines.append("")
    lines.append(f"Reviews needed for an expected {result.scenario.target}:")
    for c in curves:
        need = c.reviews_for(result.scenario.target)
        lines.append(f"  {c.policy:>6}: " + ("not reached" if need is None else f"{need:.0f}"))
    return lines


def _goal_lines(result: SimulationResult, memory: str) -> list[str]:
    g = {k: float(v or 0) for k, v in result.goals(memory).items()}
    raw = result.goals(memory)
    saving = "n/a" if raw["saving_vs_sm2"] is None else f"{g['saving_vs_sm2']:.0%}"
    return [
        "",
        f"Goal 1 (>= 25% fewer reviews than SM-2 to reach {result.scenario.target}): "
        f"{'met' if raw['fewer_reviews_goal'] else 'NOT met'} (saving {saving})",
        f"Goal 2 (higher score than plain FSRS with the same reviews): "
        f"{'met' if raw['higher_score_goal'] else 'NOT met'}: at {g['fsrs_reviews']:.0f} "
        f"reviews grill {g['grill_score_at_fsrs_reviews']:.2f} vs fsrs {g['fsrs_score']:.2f}; "
        f"at {g['grill_reviews']:.0f} grill {g['grill_score']:.2f} vs fsrs "
        f"{g['fsrs_score_at_grill_reviews']:.2f}",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m grill.simulate` (scripts/simulate): run a scenario and print the tables."""
    import argparse

    base = Scenario()
    parser = argparse.ArgumentParser(prog="simulate", description=main.__doc__)
    parser.add_argument("--days", type=int, default=base.days, help="study days before it")
    parser.add_argument("--learners", type=int, default=base.learners, help="per memory model")
    parser.add_argument("--seed", type=int, default=base.seed)
    parser.add_argument("--cards", type=int, default=base.cards)
    parser.add_argument("--target", type=int, default=base.target)
    parser.add_argument("--new", type=int, default=base.new_per_day, help="new cards per day")
    parser.add_argument(
        "--memory",
        action="append",
        choices=MODEL_CHOICES,
        help="repeatable (default: the four)",
    )
    args = parser.parse_args(argv)
    scenario = Scenario(
        cards=args.cards,
        days=args.days,
        target=args.target,
        new_per_day=args.new,
        learners=args.learners,
        seed=args.seed,
    )
    print(format_result(run(scenario, memories=args.memory or MEMORY_MODELS)))


if __name__ == "__main__":
    main()
