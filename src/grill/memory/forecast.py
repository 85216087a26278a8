"""Recall at a moment under a fitted memory: per card, per mixture component.

A component is one (candidate model, kappa) of a `MemoryFit`, weighted by the candidate's
weight times kappa's posterior. Each gives every card a chance of cold recall at `at`; the
score's distribution is the weighted mixture of their Poisson-binomials (grill.readiness), so
P(score >= target) is integrated over what is not known about the person.

Cold means cold: a card counts from its last review by exact elapsed time (not whole days, as
fsrs's own retrievability does), and never from less than `COLD_GAP` after it: an answer seen
minutes ago is not known cold, and a card failed today is as weak as its new memory says.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from grill.memory.events import Trace
from grill.memory.fitting import Candidate, MemoryFit

__all__ = [
    "COLD_GAP",
    "INTERVAL",
    "FAR_STRETCH",
    "SETTLED_DAYS",
    "Component",
    "Forecaster",
    "components",
    "interval",
    "spread_calibrated",
    "weakened",
]

COLD_GAP = 0.5
"""Days: recall is never counted from sooner than this after a card's last review."""

INTERVAL = 0.8
"""The share of the forecast's expected score its interval holds."""

SPREAD_KNEE = 4.0
SPREAD_SLOPE = 0.3
SPREAD_FLOOR = 3.0
"""Cards: how far the components' disagreement is trusted (`spread_calibrated`). Half-widths
of the interval up to SPREAD_KNEE are kept, each card beyond it counts for SPREAD_SLOPE, and
one under SPREAD_FLOOR is widened to it (at most fourfold)."""

SETTLED_DAYS = 6
"""Study days of reviews before the log is judged to place a person between the candidate models
rather than at one end of them. The spread calibration was measured on ten-day logs; on three to
five (`scripts/simulate --calibrate --days 3 --ahead 11`, seeds 178-180) the person sat at one
end, and drawing the candidates together left the truth inside the 80% interval for 24-67% of
learners. The plan's "If you follow it" is labelled as not yet personal until the same count
(grill.report.planning): made after one or two evenings it held the truth for 20-43% of
simulated learners and told some whose true P(>=28) was 0.09 that it was 1.00; after six, 71%
and P within 0.15 for all (seeds 175-177)."""

FAR_STRETCH = 4.0
"""A forecast reaching this many times beyond its log's gaps (`Forecaster.stretch`) is further
out than any it was measured good at. Ten study evenings and an interview four days later reach
1.3-3.3; seven evenings and seven days, 4.8-9.5, where the truth lay inside the 80% interval for
67-71% of simulated learners and within 3 cards for 45-52% (`scripts/simulate --calibrate
--days 7 --ahead 7`, seeds 183-184; README, "How far to trust the forecast")."""

_MASS = 0.999
_MAX_COMPONENTS = 40


@dataclass(frozen=True)
class Component:
    """One possibility for the person's memory: its weight and each card's chance at `at`."""

    name: str
    kappa: float
    weight: float
    chances: tuple[float, ...]

    @property
    def expected(self) -> float:
        return sum(self.chances)


def components(
    fit: MemoryFit, traces: Sequence[Trace | None], at: datetime
) -> tuple[Component, ...]:
    """Each card's chance of cold recall at `at` under each component of `fit` (a card
    without a trace, or first reviewed after `at`, has chance 0); see `Forecaster`."""
    return Forecaster(fit, traces).at(at)


class Forecaster:
    """One fit and one deck's traces, forecast at any number of moments: each candidate replays
    the traces once (a replay is causal, so a moment's state is the one after its last review
    before that moment).

    Components are the heaviest holding 99.9% of the weight (at most 40), renormalised. The
    split's verdict between the candidates comes from the gaps the log has seen; a forecast whose
    median gap since the last review is `stretch` times the log's reach weakens it by that
    factor (what a log of one-day gaps says about which curve holds a week later is less sure
    than what it says about tomorrow, and the candidates disagree most out there). Each
    candidate's time scale kappa keeps its posterior: weakening it too counted the same doubt
    twice (simulated learners, `scripts/simulate --calibrate`: intervals up to ±11 cards that
    held the truth more often than 80% of the time, for learners who forget fast)."""

    def __init__(self, fit: MemoryFit, traces: Sequence[Trace | None]) -> None:
        self.fit = fit
        self.traces = list(traces)
        self._known = [t for t in self.traces if t is not None and len(t)]
        self._strengths: dict[str, dict[tuple[str, str], list[float]]] = {}

    def _replay(self, cand: Candidate) -> dict[tuple[str, str], list[float]]:
        name = cand.model.name
        if name not in self._strengths:
            rows = cand.model.strengths(self._known)
            self._strengths[name] = {t.key: row for t, row in zip(self._known, rows, strict=True)}
        return self._strengths[name]

    def stretch(self, at: datetime) -> float:
        """How far beyond the log's gaps a forecast at `at` reaches: the median time since each
        studied card's last review over the log's reach, and 1 within it."""
        gaps = sorted(
            (at - t.at[n - 1]).total_seconds() / 86400
            for t in self.traces
            if t is not None and (n := bisect_right(t.at, at))
        )
        horizon = gaps[len(gaps) // 2] if gaps else 0.0
        return max(1.0, horizon / max(self.fit.reach, 0.5))

    def at(self, at: datetime, calibrated: bool = True) -> tuple[Component, ...]:
        """The components at `at`, their spread calibrated (`spread_calibrated`); uncalibrated,
        the candidates' own disagreement, as the plan's projection starts its runs from."""
        counts = [0 if t is None else bisect_right(t.at, at) for t in self.traces]
        weights = weakened([c.weight for c in self.fit.candidates], self.stretch(at))
        pairs = sorted(
            (
                (cw * w, c, k)
                for c, cw in zip(self.fit.candidates, weights, strict=True)
                for k, w in c.posterior()
            ),
            key=lambda x: -x[0],
        )
        chosen: list[tuple[float, Candidate, float]] = []
        mass = 0.0
        for weight, cand, kappa in pairs:
            if mass >= _MASS or len(chosen) >= _MAX_COMPONENTS:
                break
            chosen.append((weight, cand, kappa))
            mass += weight
        out = []
        for weight, cand, kappa in chosen:
            replayed = self._replay(cand)
            chances = tuple(
                0.0
                if t is None or not n
                else cand.recall(
                    replayed[t.key][n - 1],
                    max((at - t.at[n - 1]).total_seconds() / 86400, COLD_GAP),
                    kappa,
                )
                for t, n in zip(self.traces, counts, strict=True)
            )
            out.append(Component(cand.model.name, kappa, weight / mass, chances))
        if not calibrated:
            return tuple(out)
        days = {d for t, n in zip(self.traces, counts, strict=True) if t for d in t.days[:n]}
        return spread_calibrated(out, settled=len(days) >= SETTLED_DAYS)


def interval(comps: Sequence[Component]) -> tuple[float, float]:
    """The weighted 10th and 90th percentiles of the components' expected scores, stretched to
    hold their mean (a few unlikely but much better components can pull it outside)."""
    ranked = sorted((c.expected, c.weight) for c in comps)
    tail = (1 - INTERVAL) / 2

    def quantile(q: float) -> float:
        acc = 0.0
        for value, weight in ranked:
            acc += weight
            if acc >= q - 1e-12:
                return value
        return ranked[-1][0]

    mean = sum(c.weight * c.expected for c in comps)
    return min(quantile(tail), mean), max(quantile(1 - tail), mean)


def spread_calibrated(comps: Sequence[Component], *, settled: bool = True) -> tuple[Component, ...]:
    """The components drawn toward (or away from) their weighted mean, card by card, so the
    interval's half-width h becomes SPREAD_KNEE + SPREAD_SLOPE * (h - SPREAD_KNEE) when wider
    than the knee (only once the log is `settled`, SETTLED_DAYS study days), and SPREAD_FLOOR
    when narrower than that.

    Why: the candidates' disagreement is not the uncertainty itself. On 336 simulated learners
    of seven memory models (`scripts/simulate --calibrate`, seeds 6, 7, 141 and 142, through the
    drill and through `grill due`), 80% intervals wider than ±4 cards held the truth 95-100% of
    the time, and for four in five of them the truth lay within half the half-width of the
    forecast: when the models bracket a person, that person sits between them, not at either
    end. Intervals narrower than ±4 held it only 71-81% of the time: models that agree share
    their errors. P(≥target) is drawn from the same moved components, so a forecast whose
    models disagree widely no longer lends the far ones a chance they do not have.

    A log of a few study days is not drawn in: it has not yet placed the person between the
    models (three to five evenings in, seeds 178-180: the truth inside the interval for 33-67%
    of learners drawn in, 76-81% not; README, "How far to trust the forecast")."""
    if len(comps) < 2:
        return tuple(comps)
    lo, hi = interval(comps)
    half = (hi - lo) / 2
    if half > SPREAD_KNEE:
        if not settled:
            return tuple(comps)
        scale = (SPREAD_KNEE + SPREAD_SLOPE * (half - SPREAD_KNEE)) / half
    elif 1e-6 < half < SPREAD_FLOOR:
        scale = min(SPREAD_FLOOR / half, 4.0)
    else:
        return tuple(comps)
    n = len(comps[0].chances)
    mean = [sum(c.weight * c.chances[i] for c in comps) for i in range(n)]
    return tuple(
        replace(
            c,
            chances=tuple(
                min(1.0, max(0.0, m + scale * (x - m)))
                for m, x in zip(mean, c.chances, strict=True)
            ),
        )
        for c in comps
    )


def weakened(weights: Sequence[float], stretch: float) -> list[float]:
    """The candidates' weights with their evidence weakened by `stretch` (w ** (1 / stretch),
    renormalised): the split judged them on the log's own gaps, and the further a forecast
    reaches beyond those, the less that verdict says about it."""
    raw = [max(w, 1e-300) ** (1 / stretch) for w in weights]
    total = sum(raw)
    return [r / total for r in raw]
