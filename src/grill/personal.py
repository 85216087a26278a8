"""The person's memory as grill uses it: the stored fit, refitted as the log grows.

grill.memory learns from a review log; this module ties it to the store:

* `load` reads the latest fit; a stored fit that cannot be read (another version, NaN or
  out-of-range parameters) is refused with one line through `warn`, and the defaults are used.
  When the log has grown by `REFIT_EVERY` reviews since the fit (a tenth, once it holds more
  than `SMALL_LOG`), it refits first: at most a few hundred milliseconds for a log of a few
  thousand reviews, and only in commands that print a forecast, never between two cards of a
  drill. A forecast read after an evening of `grill review` is fitted on that evening too: its
  reviews are the nearest the log has to the interview. A larger log is refitted in the
  background instead (`refit_in_background`), as after every drill and mock.
* `scheduler` is FSRS with the person's parameters once they are fitted.
* `deck_traces`: one deck's traces, for grill.readiness.forecast_for.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from datetime import datetime, tzinfo

from grill.memory import MemoryFit, Trace, default_fit, fit, traces
from grill.model import Review
from grill.store import Store

__all__ = [
    "INLINE_LIMIT",
    "REFIT_EVERY",
    "SMALL_LOG",
    "deck_traces",
    "load",
    "parse",
    "refit",
    "refit_in_background",
    "scheduler",
    "stale",
]

REFIT_EVERY = 10
SMALL_LOG = 5_000
"""Up to this many reviews, every `REFIT_EVERY` new ones refit (a fit takes under half a
second); beyond it, a tenth more."""
INLINE_LIMIT = 20_000
"""Logs larger than this are refitted in the background, never while a command waits."""

Warn = Callable[[str], None]


def parse(body: str) -> MemoryFit:
    """A stored fit from its JSON text; ValueError with the reason when it cannot be used."""
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the stored memory fit is not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise ValueError("the stored memory fit is not an object")
    try:
        fitted = MemoryFit.from_dict(data)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"the stored memory fit is missing {exc}") from None
    from grill.scheduler import check_parameters

    check_parameters(fitted.personal.parameters)
    for cand in fitted.candidates:
        if not all(math.isfinite(k) and k > 0 for k, _ in cand.kappas):
            raise ValueError("the stored memory fit has a time scale that is not a positive number")
    return fitted


def stale(fitted_on: int, reviews: int) -> bool:
    """True when `reviews` is enough more than the fit's `fitted_on` to refit."""
    step = REFIT_EVERY if reviews <= SMALL_LOG else max(REFIT_EVERY, fitted_on // 10)
    return reviews - fitted_on >= step


def load(
    store: Store, now: datetime, *, refresh: bool = True, warn: Warn | None = None
) -> MemoryFit:
    """The person's memory fit (see the module docstring); the defaults before there is one."""
    stored = store.memory_fit()
    current: MemoryFit | None = None
    if stored is not None:
        try:
            current = parse(stored[2])
        except ValueError as exc:
            if warn:
                warn(f"{exc}: using the default memory model (grill memory --fit refits)")
    if refresh:
        count = store.count_reviews()
        fitted_on = stored[1] if stored is not None and current is not None else -REFIT_EVERY
        if stale(fitted_on, count):
            if count <= INLINE_LIMIT:
                return refit(store, now)
            refit_in_background()
    return current or default_fit()


def refit(store: Store, now: datetime, progress: Callable[[str], None] | None = None) -> MemoryFit:
    """Fit the whole log now and store the result."""
    reviews = store.reviews()
    result = fit(traces(reviews, _tz(now)), now, progress=progress)
    store.save_memory_fit(now, len(reviews), json.dumps(result.to_dict()))
    return result


def refit_in_background() -> None:
    """Start `grill memory --fit --quiet` detached: the fit is stored when it ends, and nothing
    waits for it. Failing to start it is not an error (the next forecast refits)."""
    if os.environ.get("GRILL_NO_BACKGROUND"):
        return
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "grill", "memory", "--fit", "--quiet"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return
    # detached on purpose: without this, Python warns at exit that the child "is still
    # running" (a ResourceWarning, shown when warnings are on: a stray line under the summary)
    child.returncode = 0


def scheduler(  # type: ignore[no-untyped-def]
    store: Store,
    desired_retention: float,
    now: datetime,
    warn: Warn | None = None,
    *,
    refresh: bool = False,
):
    """FSRS with the person's fitted parameters (the defaults until there are enough reviews).
    `refresh`: refit first when the log has outgrown the fit (`load`), as a command that plans
    the day's queue does, so that reviews recorded one by one (`grill review`) are learned from
    too; a single review never waits for a fit."""
    from grill.scheduler import Scheduler

    fitted = load(store, now, refresh=refresh, warn=warn)
    params = fitted.personal.parameters if fitted.fitted else None
    return Scheduler(desired_retention, parameters=params)


def deck_traces(reviews: Iterable[Review], deck: str, tz: tzinfo) -> dict[str, Trace]:
    """One deck's traces by card id."""
    return {t.key[1]: t for t in traces((r for r in reviews if r.deck == deck), tz)}


def _tz(now: datetime) -> tzinfo:
    return now.tzinfo or datetime.now().astimezone().tzinfo  # type: ignore[return-value]
