"""The command line: parse, call one function, render. The only package importing typer.

Each command group lives in its own module here and is registered below. Expected failures
(GrillError) become one line on stderr and an exit code in `main`, nowhere else.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer
from rich.text import Text

from grill import __version__
from grill.cli import config, decks, doctor, drill, export, report
from grill.cli import grade as grade_cmd
from grill.cli import mock as mock_cli
from grill.cli.common import err, reset_consoles
from grill.errors import DeckError, GrillError

__all__ = ["app", "main"]

app = typer.Typer(
    name="grill",
    help=(
        "A terminal drill for ML-engineering interviews on training behaviour.\n\n"
        "Run with no command for today's drill."
    ),
    no_args_is_help=False,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    epilog=(
        "[bold]Examples[/]\n\n"
        "  grill                          today's drill, a few minutes\n\n"
        "  grill mock                     timed mock interview, scored against 28/45\n\n"
        "  grill case spike               the loss-spike case against the clock\n\n"
        "  grill stats                    readiness, mastery, streak, weakest cards\n\n"
        "  grill report -o progress.html  a report to open, print or share\n\n"
        "  grill plan --date 2026-12-20   plan toward your interview day\n\n"
        '  grill grade 21 --answer "1.0, global norm"   try the grader'
    ),
)
# registration order is the order `grill --help` lists them: daily use first
app.command("drill")(drill.drill)
app.command("mock")(mock_cli.mock)
app.command("case")(mock_cli.case)
app.command("stats")(report.stats)
app.command("report")(report.report)
app.command("plan")(report.plan)
app.command("due")(drill.due)
app.command("review")(drill.review)
app.command("undo")(drill.undo)
app.command("history")(drill.history)
app.command("grade")(grade_cmd.grade)
app.command("card")(decks.card)
app.add_typer(decks.app, name="decks")
app.add_typer(export.app, name="export")
app.add_typer(config.app, name="config")
app.command("orphans")(drill.orphans)
app.command("doctor")(doctor.doctor)


def _version(value: bool) -> None:
    if value:
        print(f"grill {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of an error.")
    ] = False,
) -> None:
    """A terminal drill for ML-engineering interviews on training behaviour.

    Run with no command for today's drill.
    """
    reset_consoles()  # each run reads NO_COLOR, FORCE_COLOR and COLUMNS afresh
    if debug:
        os.environ["GRILL_DEBUG"] = "1"
    if ctx.invoked_subcommand is None:
        drill.today()


def main() -> None:
    """Entry point: run the app, turning expected errors into one line and an exit code."""
    try:
        app()
    except DeckError as exc:
        if os.environ.get("GRILL_DEBUG"):
            raise
        # file:line:column: message, one per line, as compilers print them (editors jump to them)
        for issue in exc.issues:
            err().print(Text(str(issue)), soft_wrap=True)
        sys.exit(exc.exit_code)
    except GrillError as exc:
        if os.environ.get("GRILL_DEBUG"):
            raise
        err().print(Text.assemble(("error: ", "red"), str(exc)), soft_wrap=True)
        sys.exit(exc.exit_code)
    except OSError as exc:  # the environment failed (a folder under a file, a full disk): no bug
        if os.environ.get("GRILL_DEBUG"):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        err().print(
            Text.assemble(("error: ", "red"), where, exc.strerror or str(exc)), soft_wrap=True
        )
        sys.exit(1)
    except KeyboardInterrupt:
        err().print("interrupted")
        sys.exit(130)
