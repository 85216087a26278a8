"""`grill stats`, `grill report` and `grill plan`: where you stand, the progress report, and the
plan toward the interview date."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from grill.cli.common import DeckOpt, JsonOpt, err, library, out, print_json, warn
from grill.clock import now
from grill.config import load_settings, set_settings, with_changes
from grill.files import is_stdout
from grill.report import gather, write_report
from grill.report.data import log_chunks
from grill.report.jsonfile import LOG_INDENT, write_json
from grill.report.planning import plan_view, scenario_for
from grill.report.terminal import render_plan, render_stats
from grill.simulate import format_result, run
from grill.store import Store

__all__ = ["plan", "report", "stats"]


def stats(deck: DeckOpt = None, as_json: JsonOpt = False) -> None:
    """Where you stand: readiness, mastery, streak, due forecast, mock scores, weakest cards.

    Readiness is the expected cold score out of the deck and the exact chance of reaching the
    target, now and on the interview day when one is set.

    Example: grill stats --json | jq .readiness.now.expected
    """
    lib = library(deck)
    with Store.open() as store:
        data = gather(store, lib, load_settings(), now(), log=False, warn=warn)
        if as_json:  # the review log streamed from the database, as in the JSON report
            write_json(data, sys.stdout, log_chunks(store, lib, LOG_INDENT))
            return
    render_stats(out(), data)


def report(
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="The file to write, e.g. progress.html; '-': standard output."
        ),
    ],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="html, md, json or csv (the review log); default: from the file's extension.",
            show_default=False,
        ),
    ] = None,
    deck: DeckOpt = None,
) -> None:
    """Write the progress report: one offline HTML page with charts, Markdown, JSON or CSV.

    Example: grill report -o progress.html
    """
    lib = library(deck)
    # a long review log takes seconds to write: a spinner on a terminal, silent in a pipe
    with Store.open() as store, err().status(f"writing {output}..."):
        data = gather(store, lib, load_settings(), now(), log=False, warn=warn)
        used = write_report(data, output, fmt, store=store, library=lib)
    where = "standard output" if is_stdout(output) else output
    err().print(f"wrote the {used} report to {where}")


def _changes(on: str | None, target: int | None) -> dict[str, str]:
    """The settings `plan` was given, as typed: checked by grill.config, saved on success."""
    given = {"interview_date": on, "target": None if target is None else str(target)}
    return {key: text for key, text in given.items() if text is not None}


def plan(
    on: Annotated[
        str | None,
        typer.Option("--date", help="The interview date, YYYY-MM-DD (saved in config.toml)."),
    ] = None,
    target: Annotated[
        int | None,
        typer.Option("--target", min=1, help="Cards to answer cold to pass (saved; default 28)."),
    ] = None,
    simulate: Annotated[
        bool,
        typer.Option(
            "--simulate", help="Compare grill's schedule with FSRS, SM-2 and a fixed plan."
        ),
    ] = False,
    learners: Annotated[
        int, typer.Option("--learners", min=1, help="Simulated learners per memory model.")
    ] = 12,
    deck: DeckOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Plan toward the interview: cards per day and readiness on the day, followed or not.

    With a date set, the daily drill works for that day: every card is met in time, reviews
    that would fall after it are brought forward when recall on the day needs them, and the
    cards with the lowest recall on the day come first.

    Example: grill plan --date 2026-12-16 --target 28
    """
    changes = _changes(on, target)  # saved once the plan is made: a failure changes nothing
    settings, moment, lib = with_changes(changes), now(), library(deck)
    if simulate:
        scenario = scenario_for(lib, settings, moment, learners)
        err().print(f"simulating {scenario.days} study days, {learners} learners per model...")
        with err().status("simulating") as status:  # a spinner on a terminal, silent in a pipe
            result = run(scenario, progress=lambda step: status.update(f"simulating: {step}"))
        set_settings(changes)
        sys.stdout.write(format_result(result) + "\n")
        return
    with Store.open() as store:
        view = plan_view(store, lib, settings, moment, warn)
    set_settings(changes)
    if as_json:
        print_json(view.to_dict())
        return
    render_plan(out(), view)
