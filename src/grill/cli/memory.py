"""`grill memory`: what grill has learned about how you forget, and how well it predicts you."""

from __future__ import annotations

from typing import Annotated

import typer

from grill.cli.common import JsonOpt, err, out, print_json, warn
from grill.clock import now
from grill.store import Store

__all__ = ["memory"]


def memory(
    refit: Annotated[
        bool, typer.Option("--fit", help="Refit now on the whole review log, then show it.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="Print nothing (with --fit: fit and store only).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Your memory against FSRS's average learner: the models grill fitted to your reviews.

    grill refits as reviews accumulate (after each drill and mock, in the background, and
    before a forecast when the log has grown); the forecast and the schedule use the result.
    Shown: the reviews fitted on, each candidate model's weight and how well it predicted your
    later reviews from your earlier ones (log loss, lower is better; calibration by bins).

    Example: grill memory --fit
    """
    from grill import personal

    moment = now()
    with Store.open() as store:
        if refit:
            fitted = personal.refit(store, moment)
        else:
            fitted = personal.load(store, moment, warn=warn)
    if quiet:
        return
    if as_json:
        print_json({"schema": 1, "summary": _sentence(fitted), **fitted.to_dict()})
        return
    from grill.ui.memory import render_memory

    render_memory(out(), fitted, _sentence(fitted))
    if not fitted.fitted:
        err().print("[dim]grill memory --fit refits on demand.[/]")


def _sentence(fitted) -> str:  # type: ignore[no-untyped-def]
    """One plain sentence on how this person forgets against FSRS's average learner."""
    from grill.memory import MIN_TRIALS

    if not fitted.fitted:
        return (
            f"Not enough evidence yet ({fitted.trials} reviews on a later day than the one "
            f"before; {MIN_TRIALS} needed): grill uses FSRS's average learner, with a wide "
            "margin for what it does not know about you."
        )
    speed = fitted.speed
    if speed > 1.25:
        return (
            f"You forget faster than the average FSRS user (about {speed:.1f}x as fast); "
            "grill has adjusted your schedule and forecast."
        )
    if speed < 0.8:
        return (
            f"You forget more slowly than the average FSRS user (about {1 / speed:.1f}x as "
            "long); grill has adjusted your schedule and forecast."
        )
    return "You forget about as fast as the average FSRS user; grill's defaults fit you."
