"""What every command shares: consoles, the deck library, JSON output, the --deck option.

Imported by every command module, so it loads nothing heavy itself: rich and the deck loader
are imported when a console or the library is first asked for (see grill.cli's start-up rule).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.status import Status

    from grill.model import Library

__all__ = [
    "DeckOpt",
    "JsonOpt",
    "err",
    "library",
    "out",
    "print_json",
    "reset_consoles",
    "split_deck_option",
]

DeckOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--deck",
        help="A deck name to use, or a path to an extra deck file to load (repeatable).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]

_out: Console | None = None
_err: Console | None = None


def out() -> Console:
    """The console for results (stdout). Rich honours NO_COLOR, FORCE_COLOR and the width."""
    global _out
    if _out is None:
        from rich.console import Console

        _out = Console(highlight=False, emoji=False)
    return _out


def err() -> Console:
    """The console for messages and errors (stderr)."""
    global _err
    if _err is None:
        from rich.console import Console

        _err = Console(stderr=True, highlight=False, emoji=False)
    return _err


def warn(message: str) -> None:
    """One plain line on stderr: what was refused, and what grill does instead."""
    print(f"grill: {message}", file=sys.stderr)


def reset_consoles() -> None:
    """Forget the consoles, so the next ones read the environment (colour, width) again."""
    global _out, _err
    _out = _err = None


def split_deck_option(values: list[str] | None) -> tuple[list[Path], list[str]]:
    """`--deck` takes names and paths; a value naming an existing file (or *.yaml) is a path."""
    paths: list[Path] = []
    names: list[str] = []
    for value in values or []:
        path = Path(value)
        if value.endswith((".yaml", ".yml")) or path.is_file():
            paths.append(path)
        else:
            names.append(value)
    return paths, names


def library(decks: list[str] | None = None) -> Library:
    """The built-in and user decks plus any `--deck PATH` files; invalid decks raise DeckError.

    A big deck read for the first time since it changed takes seconds to parse (it is cached
    afterwards): a spinner on stderr names it meanwhile."""
    from grill.deck import load_library

    paths, _ = split_deck_option(decks)
    progress = _ParseProgress()
    try:
        return load_library(paths, on_parse=progress, warn=warn)
    finally:
        progress.stop()


class _ParseProgress:
    """The `on_parse` of `library`: a spinner once a deck big enough to be slow is parsed."""

    SLOW_BYTES = 1_500_000
    """About 0.3 s of parsing with libyaml (the 200 KB built-in deck parses in 25-40 ms), a few
    seconds with PyYAML's pure-Python loader. Under it no spinner is drawn, so a first `grill
    due` does not load rich to parse the built-in deck."""

    def __init__(self) -> None:
        self._status: Status | None = None

    def __call__(self, shown: str, size: int) -> None:
        if size < self.SLOW_BYTES and self._status is None:
            return
        message = f"reading {shown} ({size / 1e6:.1f} MB), new or changed since last time..."
        if self._status is None:
            self._status = err().status(message)  # a spinner on a terminal, silent in a pipe
            self._status.start()
        else:
            self._status.update(message)

    def stop(self) -> None:
        if self._status is not None:
            self._status.stop()


def print_json(data: Any) -> None:
    """JSON to stdout, unstyled, so it pipes cleanly into jq."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
