"""One person's memory, learned from their own review log, and recall forecast from it.

    events.py     the log as per-card traces (exact times, study days, ratings) and trials
    optimizer.py  fsrs-rs: FSRS-6 parameters fitted to a log; states replayed under parameters
    models.py     the candidates (FSRS-6 with some parameters; half-life regression), each with
                  a time scale kappa
    fitting.py    fit the candidates, weigh them by a time-series split, kappa's posterior:
                  a `MemoryFit` (stored by grill.store, refitted as reviews accumulate)
    forecast.py   each card's chance of cold recall at a moment, per mixture component, with
                  the components' spread calibrated (their disagreement is not the doubt)

grill.readiness turns the components into the expected score, its 80% interval and
P(score >= target).
"""

from grill.memory.events import Trace, Trial, traces, trials
from grill.memory.fitting import MIN_TRIALS, Candidate, Evaluation, MemoryFit, default_fit, fit
from grill.memory.forecast import COLD_GAP, INTERVAL, Component, Forecaster, components, interval

__all__ = [
    "COLD_GAP",
    "INTERVAL",
    "MIN_TRIALS",
    "Candidate",
    "Component",
    "Evaluation",
    "Forecaster",
    "MemoryFit",
    "Trace",
    "Trial",
    "components",
    "default_fit",
    "fit",
    "interval",
    "traces",
    "trials",
]
