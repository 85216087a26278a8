"""FSRS-6 parameters fitted to one person's reviews, and memory states replayed under any
parameters. The only module importing fsrs_rs_python (the Rust optimizer behind Anki's FSRS).

One library per concern: scheduling stays with `fsrs` (grill.scheduler: fuzzing, learning steps,
the state machine the drill relies on), while fitting and replaying a log under candidate
parameters is done here, in Rust, fast enough to refit after every session (10,000 reviews in
well under a second, `scripts/bench --only fit`). Both speak the same 21 FSRS-6 parameters.

Whole study days are FSRS's clock for fitting (a same-day re-ask has delta 0 and follows FSRS's
short-term rule); recall at a moment is computed from exact elapsed time by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grill.memory.events import Trace

__all__ = ["DEFAULT_PARAMETERS", "fit_parameters", "replay"]


def _lib() -> Any:
    import fsrs_rs_python

    return fsrs_rs_python


DEFAULT_PARAMETERS: tuple[float, ...] = (
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
)  # fmt: skip
"""FSRS-6's published defaults: the memory of an average FSRS user."""


def _reviews(trace: Trace, count: int) -> list[object]:
    lib = _lib()
    days = trace.days
    return [
        lib.FSRSReview(trace.ratings[i], 0 if i == 0 else max(0, days[i] - days[i - 1]))
        for i in range(count)
    ]


def fit_parameters(traces: Sequence[Trace]) -> tuple[float, ...] | None:
    """The FSRS-6 parameters that best predict these traces' reviews (each review after a
    card's first is one training item); None when no review was asked on a later day than the
    one before it (nothing to learn forgetting from)."""
    lib = _lib()
    items = []
    for trace in traces:
        reviews = _reviews(trace, len(trace))
        for i in range(2, len(reviews) + 1):
            item = lib.FSRSItem(reviews[:i])
            if item.long_term_review_cnt() > 0:
                items.append(item)
    if not items:
        return None
    fitted = lib.FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(items)
    return tuple(float(w) for w in fitted)


def replay(parameters: Sequence[float], traces: Sequence[Trace]) -> list[list[tuple[float, float]]]:
    """For each trace, the (stability in days, difficulty) after each of its reviews."""
    if not traces:
        return []
    lib = _lib()
    model = lib.FSRS(list(parameters))
    items = [lib.FSRSItem(_reviews(t, len(t))) for t in traces]
    return [
        [(float(s.stability), float(s.difficulty)) for s in states]
        for states in model.historical_memory_state_batch(items)
    ]
