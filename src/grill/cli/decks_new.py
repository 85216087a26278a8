"""`grill decks new NAME --from-csv FILE`: start a deck from a list of questions and answers."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grill.cli.common import err, out
from grill.files import is_stdout
from grill.paths import user_decks_dir

__all__ = ["new"]


def new(
    name: Annotated[str, typer.Argument(help="The new deck's name, a slug: e.g. my-deck.")],
    from_csv: Annotated[
        Path,
        typer.Option(
            "--from-csv",
            help="A CSV of question, answer[, explanation] (header row optional; .tsv: tabs).",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Where to write it; '-': standard output. [default: $GRILL_HOME/decks/]",
        ),
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="The deck's title.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Make a deck from a CSV of questions, with a rubric derived from each card's text.

    Each item of an answer becomes a key point, matched by half its words or by the
    explanation's restatement of it.

    Example: grill decks new my-deck --from-csv questions.csv
    """
    from grill.export.csv_deck import write_deck

    path = output or user_decks_dir() / f"{name}.yaml"
    made = write_deck(from_csv, name, path, title=title, force=force)
    if is_stdout(path):  # stdout carries the deck itself
        err().print(f"wrote deck '{made.name}': {made.cards} cards, {made.points} key points")
        return
    in_library = made.path.resolve().parent == user_decks_dir().resolve()
    deck = "" if in_library else f" --deck {made.path}"
    out().print(
        f"Wrote deck '{made.name}' to {made.path}: {made.cards} cards, {made.points} key points.\n"
        "Next:\n"
        "  1. Review the rubrics, derived from each card's text (grill decks rubric REF);\n"
        "     add the phrasings and misconceptions to expect (docs/rubrics.md).\n"
        f"  2. Check it:   grill decks validate {made.path}\n"
        f"  3. Look at it: grill decks show {made.name}{deck}",
        soft_wrap=True,
        markup=False,
    )
