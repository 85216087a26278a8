"""The command line: parse, call one function, render. The only package importing typer.

Each command group lives in its own module here and is registered in COMMANDS below, one line
per command. A command's module is imported only when that command runs (all of them for
`--help`, shell completion or an unknown name), so what one command imports never slows the
start of another. Expected failures (GrillError) become one line on stderr and an exit code in
`main`, nowhere else; a GrillWarning (what went wrong without stopping the command) one line
on stderr. `app` (the whole Typer app, for tests) is built on first use.
"""

from __future__ import annotations

import gc
import importlib
import inspect
import os
import sys
import warnings
from collections.abc import Collection
from typing import Annotated, Any, TextIO

import typer

from grill import __version__
from grill.cli.common import err, reset_consoles, warn
from grill.errors import DeckError, GrillError, GrillWarning

__all__ = ["COMMANDS", "DRILL_OPTIONS", "app", "build_app", "main", "routed", "unwrap"]

COMMANDS: dict[str, str] = {
    # name: "module:attribute" in grill.cli; the attribute is a function or a Typer group.
    # This order is the order `grill --help` lists them: daily use first.
    "drill": "drill:drill",
    "mock": "mock:mock",
    "case": "mock:case",
    "stats": "report:stats",
    "report": "report:report",
    "plan": "report:plan",
    "memory": "memory:memory",
    "due": "drill:due",
    "review": "drill:review",
    "undo": "drill:undo",
    "history": "drill:history",
    "grade": "grade:grade",
    "card": "decks:card",
    "decks": "decks:app",
    "export": "export:app",
    "config": "config:app",
    "orphans": "drill:orphans",
    "doctor": "doctor:doctor",
}

_EPILOG = (
    "[bold]Examples[/]\n\n"
    "  grill                          today's drill, a few minutes\n\n"
    "  grill mock                     timed mock interview, scored against 28/45\n\n"
    "  grill case spike               the loss-spike case against the clock\n\n"
    "  grill stats                    readiness, mastery, streak, weakest cards\n\n"
    "  grill report -o progress.html  a report to open, print or share\n\n"
    "  grill plan --date 2026-12-20   plan toward your interview day\n\n"
    '  grill grade 21 --answer "1.0, global norm"   try the grader'
)


def _version(value: bool) -> None:
    if value:
        print(f"grill {__version__}")
        raise typer.Exit()


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
        from grill.cli.drill import today

        today()


def build_app(names: Collection[str] | None = None) -> typer.Typer:
    """The Typer app with the commands `names` (None: every one), in COMMANDS order."""
    built = typer.Typer(
        name="grill",
        help=(
            "A terminal drill for ML-engineering interviews on training behaviour.\n\n"
            "Run with no command for today's drill."
        ),
        no_args_is_help=False,
        add_completion=True,
        pretty_exceptions_enable=False,
        rich_markup_mode="rich",
        epilog=_EPILOG,
    )
    built.callback(invoke_without_command=True)(_root)
    _flags_take_no_value()
    for name, target in COMMANDS.items():
        if names is None or name in names:
            module, attribute = target.split(":")
            command = getattr(importlib.import_module(f"grill.cli.{module}"), attribute)
            if isinstance(command, typer.Typer):
                command.info.help = unwrap(command.info.help)
                for info in command.registered_commands:
                    info.help = unwrap(info.help or inspect.getdoc(info.callback))
                built.add_typer(command, name=name)
            else:
                built.command(name, help=unwrap(inspect.getdoc(command)))(command)
    return built


def unwrap(help_text: Any) -> Any:
    """A docstring's paragraphs with their line breaks taken out, for the terminal to fold at
    its own width: typer's rich help keeps every line break, so a docstring wrapped at 100
    columns broke mid-sentence at 80. Paragraphs (blank-line separated) stay apart."""
    if not isinstance(help_text, str):
        return help_text
    paragraphs = inspect.cleandoc(help_text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def _flags_take_no_value() -> None:
    """A flag's help shows no value type: typer labels every flag `<bool>`, which reads as if
    `--spoken` took a value (`--spoken <bool>`). Typer has no setting for it, so the one method
    that labels options is wrapped, once; options that take a value keep their label."""
    from typer.core import TyperOption

    label = getattr(TyperOption, "display_type_rich", None)
    if label is None or getattr(label, "grill_flags", False):
        return

    def display_type_rich(self: TyperOption, ctx: Any) -> Any:
        return None if self.is_flag else label(self, ctx)

    display_type_rich.grill_flags = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


DRILL_OPTIONS = ("--new", "--limit", "--section", "--deck", "--flip")
"""The drill's own options: given with no command (`grill --new 3`), they are the drill's, as
`grill` alone is (tests/test_cli_drill.py holds this list to the drill command's options)."""


def routed(argv: list[str]) -> list[str]:
    """`argv` with `drill` put before a drill option that comes first: `grill --new 3` runs
    `grill drill --new 3` (typer would refuse the option on the bare command)."""
    for i, arg in enumerate(argv):
        if arg == "--debug":
            continue
        if arg.split("=", 1)[0] in DRILL_OPTIONS:
            return [*argv[:i], "drill", *argv[i:]]
        break
    return argv


def _wanted(argv: list[str]) -> list[str] | None:
    """The command `argv` runs, when that is clear without the others: [] for `--version` or no
    command (today's drill), None (every command) for --help, completion or an unknown name."""
    if "_GRILL_COMPLETE" in os.environ:
        return None
    for arg in argv:
        if arg == "--debug":
            continue
        if arg.startswith("-"):
            return [] if arg == "--version" else None
        return [arg] if arg in COMMANDS else None
    return []


def __getattr__(name: str) -> typer.Typer:
    if name == "app":  # the whole app, built once on first use
        whole = build_app()
        globals()["app"] = whole
        return whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point: run the app, turning expected errors into one line and an exit code.

    Started by `grill.__main__`, which pauses the garbage collector: it is resumed here once
    the app is built, and what start-up made is frozen first, out of later collections' way."""
    warnings.showwarning = _show_warning
    try:
        argv = routed(sys.argv[1:])
        app = build_app(_wanted(argv))
        if not gc.isenabled():
            gc.freeze()
            gc.enable()
        app(args=argv, prog_name="grill")
    except DeckError as exc:
        if os.environ.get("GRILL_DEBUG"):
            raise
        from rich.text import Text  # loaded only to report an error

        # file:line:column: message, one per line, as compilers print them (editors jump to them)
        for issue in exc.issues:
            err().print(Text(str(issue)), soft_wrap=True)
        sys.exit(exc.exit_code)
    except GrillError as exc:
        if os.environ.get("GRILL_DEBUG"):
            raise
        _error(str(exc))
        sys.exit(exc.exit_code)
    except OSError as exc:  # the environment failed (a folder under a file, a full disk): no bug
        if os.environ.get("GRILL_DEBUG"):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        _error(where, exc.strerror or str(exc))
        sys.exit(1)
    except KeyboardInterrupt:
        err().print("interrupted")
        sys.exit(130)


_shown = warnings.showwarning


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A GrillWarning as one plain line on stderr; any other warning as Python shows it."""
    if issubclass(category, GrillWarning):
        warn(f"warning: {message}")
    else:
        _shown(message, category, filename, lineno, file, line)


def _error(*parts: str) -> None:
    from rich.text import Text  # loaded only to report an error

    err().print(Text.assemble(("error: ", "red"), *parts), soft_wrap=True)
