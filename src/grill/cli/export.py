"""`grill export anki`: decks to other formats. The writers are imported only when used."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grill.cli.common import DeckOpt, err, library, out, split_deck_option
from grill.clock import now
from grill.files import is_stdout
from grill.model import Deck, Library

app = typer.Typer(
    help="Write decks to other formats.\n\nExample: grill export anki -o grill.apkg",
    no_args_is_help=True,
)


def _chosen(lib: Library, deck: list[str] | None) -> tuple[Deck, ...]:
    """Decks named with --deck, plus decks loaded from --deck paths; none given: every deck."""
    if not deck:
        return lib.decks
    paths, names = split_deck_option(deck)
    files = {p.resolve() for p in paths}
    picked = [lib.deck(name) for name in names]
    picked += [d for d in lib.decks if Path(d.path).resolve() in files]
    return tuple(dict.fromkeys(picked))


@app.command("anki")
def anki(
    output: Annotated[
        Path,
        typer.Option(
            "-o",
            "--output",
            help="The .apkg file to write; '-': standard output.",
            show_default=False,
        ),
    ],
    deck: DeckOpt = None,
) -> None:
    """Write the decks as an Anki package: one note per card and per case.

    Import the file in Anki (File > Import). Exporting again after editing a card and importing
    the new file updates that note, keeping its reviews, instead of adding a duplicate.

    Example: grill export anki -o grill.apkg --deck training-behaviors
    """
    from grill.export.anki import export_anki

    chosen = _chosen(library(deck), deck)
    with err().status(f"writing {output}..."):  # thousands of cards take seconds
        done = export_anki(chosen, output, now())
    decks = ", ".join(done.decks)
    where = "standard output" if is_stdout(output) else done.path
    tell = err() if is_stdout(output) else out()  # stdout carries the package itself
    tell.print(
        f"Wrote {where}: {done.cards} card note(s) and {done.cases} case note(s) in {decks}.",
        markup=False,
    )
    tell.print("[dim]In Anki: File > Import. Re-importing after an edit updates the notes.[/]")


__all__ = ["app"]
