"""`grill mock` (the timed mock interview) and `grill case` (the open-ended case)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from typing import Annotated

import typer

from grill import personal
from grill.cli.common import (
    DeckOpt,
    JsonOpt,
    err,
    library,
    out,
    print_json,
    split_deck_option,
    warn,
)
from grill.clock import now
from grill.config import load_settings
from grill.deck import load_deck
from grill.errors import NotFoundError
from grill.mock import MockOptions, full_target, plan_mock
from grill.model import Deck, Library, Mode
from grill.readiness import predicted_score
from grill.store import Store
from grill.ui.case import render_case_history, run_case
from grill.ui.mock import render_result, run_mock

__all__ = ["case", "mock"]


def _deck(lib: Library, deck_option: list[str] | None) -> Deck:
    """The deck named by --deck (a name, or the first file given), else the main deck."""
    paths, names = split_deck_option(deck_option)
    if names:
        return lib.deck(names[0])
    found = lib.deck(load_deck(paths[0]).name) if paths else lib.main_deck()
    if found is None:
        raise NotFoundError("no deck with cards is loaded (try `grill decks list`)")
    return found


def mock(
    count: Annotated[
        int | None, typer.Option("--count", "-n", help="Ask only N questions.", show_default=False)
    ] = None,
    section: Annotated[
        str | None, typer.Option("--section", help="Ask one section only, e.g. B.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for a repeatable order.")] = None,
    per_question: Annotated[
        int | None,
        typer.Option(
            "--per-question",
            help="Seconds per question (default 60; quick-fire 36-45 get 20, or this if shorter).",
            show_default=False,
        ),
    ] = None,
    total: Annotated[
        float | None,
        typer.Option("--total", help="A time limit in minutes for the whole interview."),
    ] = None,
    spoken: Annotated[
        bool,
        typer.Option(
            "--spoken", help="Answer out loud; then tick the key points you said on a checklist."
        ),
    ] = False,
    no_schedule: Annotated[
        bool,
        typer.Option("--no-schedule", help="Keep the answers but leave the review schedule alone."),
    ] = False,
    as_json: JsonOpt = False,
    deck: DeckOpt = None,
) -> None:
    """A timed mock interview, answered cold and scored against the target (28/45, floor 24).

    All 45 in random order, a countdown each (auto-submit at zero), no feedback until the end.

    Answers are saved as reviews of kind `mock` and update the schedule (not with --no-schedule).

    Example: grill mock

    Example: grill mock --count 10 --seed 7 --per-question 45

    Example: grill mock --section F --spoken
    """
    lib = library(deck)
    settings = load_settings()
    target = _deck(lib, deck)
    options = MockOptions(
        count=count,
        section=section,
        seed=seed,
        per_question=per_question,
        total_minutes=total,
        spoken=spoken,
    )
    plan = plan_mock(
        target,
        options,
        per_question_seconds=settings.per_question_seconds,
        quick_fire_seconds=settings.quick_fire_seconds,
        target=full_target(target, settings.target),
    )
    console = err() if as_json else out()
    with Store.open() as store:
        moment = now()
        # the forecast as things stand just before the mock, kept with its result for
        # calibration, for the cards it scores (an aborted mock: those answered): fitted on
        # the log as it is now, as `grill stats` would be, before the first question shows
        fitted = personal.load(store, moment, warn=warn)
        scheduler = (
            None
            if no_schedule
            else personal.scheduler(store, settings.desired_retention, moment, warn=warn)
        )
        by_card = personal.deck_traces(
            store.reviews(deck=target.name), target.name, moment.tzinfo or UTC
        )

        def predict(card_ids: Sequence[str]) -> float:
            return predicted_score(by_card, card_ids, fitted, moment)

        result = run_mock(console, plan, store=store, scheduler=scheduler, predict=predict)
        personal.refit_in_background()
    if as_json:
        print_json(result.to_dict())
    else:
        render_result(console, result)


def case(
    ref: Annotated[
        str | None, typer.Argument(help="The case's id (default: spike).", show_default=False)
    ] = None,
    minutes: Annotated[
        float | None,
        typer.Option(
            "--minutes", "-m", help="Minutes for the answer (default 5).", show_default=False
        ),
    ] = None,
    history: Annotated[
        bool, typer.Option("--history", help="List past attempts instead of starting one.")
    ] = False,
    as_json: JsonOpt = False,
    deck: DeckOpt = None,
) -> None:
    """The open-ended case: answer against the clock, graded in parts, then four follow-ups.

    A countdown runs while you type (Enter submits; Alt-Enter starts a new line).

    Graded on culprits, triage, prevention and red flags; each follow-up is timed and self-checked.

    Then the model answer and what you missed. Attempts are saved: see --history.

    Example: grill case

    Example: grill case spike --minutes 3

    Example: grill case --history
    """
    if history:
        with Store.open() as store:
            sessions = [
                s for s in store.sessions(Mode.CASE) if ref is None or s.summary.get("case") == ref
            ]
        if as_json:
            print_json([{"id": s.id, "status": str(s.status), **s.summary} for s in sessions])
        else:
            render_case_history(out(), sessions, now())
        return
    settings = load_settings()
    found = library(deck).case(ref or "spike")
    console = err() if as_json else out()
    with Store.open() as store:
        attempt = run_case(
            console,
            found,
            store=store,
            minutes=minutes if minutes is not None else settings.case_minutes,
            follow_up_seconds=settings.follow_up_seconds,
        )
    if as_json and attempt is not None:
        print_json(attempt.to_dict())
