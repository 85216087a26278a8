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
from dataclasses import dataclass
from datetime import datetime

from grill.memory.events import Trace
from grill.memory.fitting import Candidate, MemoryFit

__all__ = ["COLD_GAP", "Component", "Forecaster", "components", "weakened"]

COLD_GAP = 0.5
"""Days: recall is never counted from sooner than this after a card's last review."""

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

    def at(self, at: datetime) -> tuple[Component, ...]:
        counts = [0 if t is None else bisect_right(t.at, at) for t in self.traces]
        gaps = sorted(
            (at - t.at[n - 1]).total_seconds() / 86400
            for t, n in zip(self.traces, counts, strict=True)
            if t is not None and n
        )
        horizon = gaps[len(gaps) // 2] if gaps else 0.0
        stretch = max(1.0, horizon / max(self.fit.reach, 0.5))
        weights = weakened([c.weight for c in self.fit.candidates], stretch)
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
        return tuple(out)


def weakened(weights: Sequence[float], stretch: float) -> list[float]:
    """The candidates' weights with their evidence weakened by `stretch` (w ** (1 / stretch),
    renormalised): the split judged them on the log's own gaps, and the further a forecast
    reaches beyond those, the less that verdict says about it."""
    raw = [max(w, 1e-300) ** (1 / stretch) for w in weights]
    total = sum(raw)
    return [r / total for r in raw]
