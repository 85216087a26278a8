"""`grill` (today's drill), `grill drill`, `grill due`, `grill review`, `grill undo`,
`grill history`, `grill orphans`: studying and the review log.

Settings come from `grill.config.load_settings()`; options override them. The grader is
`grill.grader.grade` when that module exists, else the drill reveals the answer and you rate
yourself. Screens are imported by the command that shows them: `grill due` loads no rich at all.
"""

from __future__ import annotations

import importlib
import sys
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Annotated, cast

import typer

from grill.cli.common import (
    DeckOpt,
    JsonOpt,
    library,
    out,
    print_json,
    split_deck_option,
    warn,
)
from grill.clock import now
from grill.config import load_settings
from grill.errors import NotFoundError, UsageError
from grill.model import Library, Rating
from grill.plan import Deadline
from grill.session import (
    Drill,
    DrillOptions,
    Grader,
    find_orphans,
    plan,
    record_answer,
    resolve_card,
)
from grill.store import Store
from grill.ui.due import SHOWN_DUE, render_due
from grill.ui.plain import Out

__all__ = ["drill", "due", "history", "orphans", "review", "today", "undo"]

NewOpt = Annotated[
    int | None,
    typer.Option(
        "--new", min=0, help="New cards per day (default: new_per_day, 15).", show_default=False
    ),
]
LimitOpt = Annotated[
    int | None, typer.Option("--limit", min=1, help="At most this many cards this session.")
]
SectionOpt = Annotated[
    str | None, typer.Option("--section", help="Only this section, e.g. A.", show_default=False)
]
FlipOpt = Annotated[
    bool, typer.Option("--flip", help="Anki-style: think, Enter to reveal, rate yourself 1-4.")
]


def _grader() -> Grader | None:
    """grill.grader.grade if this grill has a grader; None: reveal and self-rate."""
    try:
        module = importlib.import_module("grill.grader")
    except ModuleNotFoundError as exc:
        if exc.name != "grill.grader":
            raise
        return None
    return cast(Grader, module.grade)


def _scope(lib: Library, deck: list[str] | None) -> str | None:
    """The deck a `--deck` option names (by name or by the path of a loaded file)."""
    paths, names = split_deck_option(deck)
    if names:
        return lib.deck(names[0]).name
    for path in paths:
        for d in lib.decks:
            if Path(d.path).resolve() == path.resolve():
                return d.name
    return None


def _options(
    store: Store,
    lib: Library,
    deck: DeckOpt,
    new: int | None,
    limit: int | None,
    section: str | None,
) -> DrillOptions:
    settings = load_settings()
    new_limit = settings.new_per_day if new is None else new
    deadline = None
    if settings.interview_date is not None:  # fsrs is loaded only when it is needed
        from grill import personal

        model = personal.scheduler(
            store, settings.desired_retention, now(), warn=warn, refresh=True
        )
        deadline = Deadline.on(settings.interview_date, now(), model)
    return DrillOptions(
        new_limit=new_limit, limit=limit, section=section, deck=_scope(lib, deck), deadline=deadline
    )


def drill(
    new: NewOpt = None,
    limit: LimitOpt = None,
    section: SectionOpt = None,
    deck: DeckOpt = None,
    flip: FlipOpt = False,
) -> None:
    """Today's drill: due cards, then new ones, answered, graded and rated.

    Enter submits an answer, Alt-Enter adds a line; Enter takes the proposed rating, 1-4 or
    a/h/g/e override it. Ctrl-C ends the session with its summary.

    Example: grill drill --new 5 --section B
    """
    from grill import personal
    from grill.ui.drill import run_drill
    from grill.ui.prompt import reader_for

    lib = library(deck)
    settings = load_settings()
    with Store.open() as store:
        options = _options(store, lib, deck, new, limit, section)
        scheduler = personal.scheduler(
            store, settings.desired_retention, now(), warn=warn, refresh=True
        )
        session = Drill(store, scheduler, lib, options, grader=_grader(), clock=now)
        summary = run_drill(out(), session, reader_for(sys.stdin, out()), flip=flip)
        if summary.session_id is not None:
            _show_readiness(store, lib, options, settings.target)
            personal.refit_in_background()


def _show_readiness(store: Store, lib: Library, options: DrillOptions, target: int) -> None:
    """After a session: the expected cold score, on the interview day when one is set, under
    the person's memory as last fitted (the refit after this session runs in the background),
    and a warning when recent recall is far below what that memory predicted
    (grill.report.recall)."""
    from grill import personal
    from grill.readiness import forecast_for
    from grill.report.recall import recall_check, render_recall_warning
    from grill.ui.drill import render_readiness

    main = lib.main_deck()
    if main is None:
        return
    moment = now()
    deadline = options.deadline
    interview = deadline.at if deadline is not None and deadline.active(moment) else None
    at = interview or moment
    fitted = personal.load(store, moment, refresh=False, warn=warn)
    by_card = personal.deck_traces(store.reviews(deck=main.name), main.name, _tz(moment))
    ready = forecast_for(main, by_card, fitted, at, target)
    render_readiness(out(), ready, interview=interview)
    render_recall_warning(out(), recall_check(by_card.values(), fitted))


def today() -> None:
    """`grill` with no command: today's drill with the default settings."""
    drill()


def due(
    deck: DeckOpt = None,
    section: SectionOpt = None,
    new: NewOpt = None,
    show_all: Annotated[
        bool, typer.Option("--all", help=f"List every due card, not the first {SHOWN_DUE}.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """The cards due now, oldest first, and the new cards available today.

    JSON (always every card): {"due": [{"id", "n", "deck", "due"}], "new": [...]} (a new
    card's "due" is null).

    Example: grill due --json | jq '.due | length'
    """
    lib = library(deck)
    moment = now()
    with Store.open() as store:
        options = _options(store, lib, deck, new, None, section)
        queue = plan(store, lib, options, moment)
    if as_json:
        print_json(
            {
                "due": [
                    {"id": c.id, "n": c.n, "deck": c.deck, "due": s.due.isoformat()}
                    for c, s in queue.due
                ],
                "new": [{"id": c.id, "n": c.n, "deck": c.deck, "due": None} for c in queue.new],
            }
        )
        return
    render_due(
        Out(),
        queue,
        options.new_limit,
        moment,
        queue.orphans,
        shown=None if show_all else SHOWN_DUE,
    )


def review(
    ref: Annotated[str, typer.Argument(help="Card id (warmup-why), number (7) or deck/id.")],
    rating: Annotated[
        str, typer.Option("--rating", "-r", help="again, hard, good or easy (or 1-4).")
    ],
    answer: Annotated[
        str | None, typer.Option("--answer", help="The answer given, kept in the log.")
    ] = None,
    deck: DeckOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record one review now, without the quiz.

    For scripts, and for replaying days of study with GRILL_NOW=2026-12-03T09:00:00+00:00.

    Example: grill review 7 --rating good --answer "stabilises Adam's early estimates"
    """
    try:
        parsed = Rating.parse(rating)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    lib = library(deck)
    card = lib.card(ref, _scope(lib, deck))
    moment = now()
    from grill import personal

    with Store.open() as store:
        sched = personal.scheduler(store, load_settings().desired_retention, moment, warn=warn)
        done = record_answer(store, sched, card, parsed, moment, answer=answer)
    if as_json:
        print_json(done.to_dict())
        return
    from grill.ui.study import render_review

    render_review(out(), card, done, moment)


def undo() -> None:
    """Take back the last review; repeatable.

    The review's log row goes and the card's state is restored exactly as it was; each undo
    takes back the one before.

    Example: grill undo
    """
    with Store.open() as store:
        undone = store.undo_last()
    if undone is None:
        raise NotFoundError("nothing to undo: the review log is empty")
    from grill.ui.study import render_undo

    render_undo(out(), undone, now())


def history(
    ref: Annotated[
        str | None,
        typer.Argument(
            help="Card id, number, or deck/id (also orphans); none: the latest reviews."
        ),
    ] = None,
    last: Annotated[
        int, typer.Option("--last", min=1, help="Without a card: how many of the latest.")
    ] = 20,
    deck: DeckOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A card's reviews, oldest first; without a card, the latest reviews of every card.

    History follows the card's id, even after its text is edited or it leaves every deck.

    Example: grill history 7 --json; grill history --last 50
    """
    from grill.ui.study import render_history

    lib = library(deck)
    if ref is None:
        names = {d.name for d in lib.decks} if deck else None
        with Store.open() as store:
            reviews = [r for r in store.reviews() if names is None or r.deck in names]
        latest = reviews[-last:]
        if as_json:
            print_json([r.to_dict() for r in latest])
            return
        title = f"The latest {len(latest)} of {len(reviews)} reviews, oldest first"
        render_history(out(), title, latest, None, now(), by_card=True)
        return
    with Store.open() as store:
        deck_name, card_id, card = resolve_card(store, lib, ref, _scope(lib, deck))
        reviews = store.history(deck_name, card_id)
    if as_json:
        print_json([r.to_dict() for r in reviews])
        return
    title = f"{deck_name}/{card_id}" + (f" (#{card.n})" if card else " (orphaned)")
    render_history(out(), title, reviews, card, now())


def orphans(deck: DeckOpt = None, as_json: JsonOpt = False) -> None:
    """Cards with stored history that no loaded deck defines any more.

    Nothing is deleted: put a card back in a deck with the same id and it resumes.

    Example: grill orphans --json
    """
    lib = library(deck)
    with Store.open() as store:
        found = find_orphans(store, lib)
    if as_json:
        print_json(
            [
                {
                    "deck": o.deck,
                    "id": o.card_id,
                    "reviews": o.reviews,
                    "last_review": None if o.last_review is None else o.last_review.isoformat(),
                }
                for o in found
            ]
        )
        return
    from grill.ui.study import render_orphans

    render_orphans(out(), found, now())


def _tz(moment: datetime) -> tzinfo:
    return moment.tzinfo or UTC
