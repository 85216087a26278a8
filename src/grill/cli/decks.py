"""`grill decks ...` and `grill card`: list, show, validate, rubric, rederive, schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from grill.cli.common import DeckOpt, JsonOpt, err, library, out, print_json, split_deck_option
from grill.cli.decks_new import new
from grill.deck import deck_schema, load_deck
from grill.errors import DeckError, DeckIssue
from grill.grader import check_deck_lines
from grill.grader.derive import rubric_warnings
from grill.model import Deck
from grill.paths import user_decks_dir
from grill.ui.cards import render_card, render_deck, render_library, render_rubric
from grill.ui.plain import Out

if TYPE_CHECKING:
    from rich.status import Status

app = typer.Typer(
    help="List, show and check decks.\n\nExample: grill decks validate ~/my-deck.yaml",
    no_args_is_help=False,
    invoke_without_command=True,
)


@app.callback()
def _default(ctx: typer.Context, deck: DeckOpt = None, as_json: JsonOpt = False) -> None:
    """List, show and check decks. With no subcommand: the list."""
    if ctx.invoked_subcommand is None:
        list_decks(deck, as_json)


@app.command("list")
def list_decks(deck: DeckOpt = None, as_json: JsonOpt = False) -> None:
    """Every loaded deck: name, number of cards and cases, source file.

    Example: grill decks list --json
    """
    lib = library(deck)
    if as_json:
        print_json(
            [
                {
                    "name": d.name,
                    "title": d.title,
                    "cards": len(d.cards),
                    "cases": len(d.cases),
                    "path": d.path,
                    "builtin": d.builtin,
                }
                for d in lib.decks
            ]
        )
        return
    render_library(out(), lib)
    out().print(f"[dim]Add your own: put *.yaml files in {user_decks_dir()}[/]")


app.command("new")(new)


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="The deck's name, e.g. training-behaviors.")],
    deck: DeckOpt = None,
) -> None:
    """A deck's cards, by number and section.

    Example: grill decks show training-behaviors
    """
    render_deck(Out(), library(deck).deck(name))


@app.command("validate")
def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Deck files to check; none: every built-in and user deck."),
    ] = None,
) -> None:
    """Check deck files; every mistake is listed as file:line:column. Exit 0 valid, 2 not.

    Example: grill decks validate my-deck.yaml
    """
    lib = None if paths else library()  # before the spinner: a parse shows one of its own
    issues: list[DeckIssue] = []
    passed: list[str] = []
    checked: list[Deck] = list(lib.decks) if lib is not None else []
    with err().status("checking decks") as status:  # a spinner on a terminal, silent in a pipe
        for path in paths or ():
            try:
                d = load_deck(path)
            except DeckError as exc:
                issues.extend(exc.issues)
                continue
            checked.append(d)
            found = _phrase_issues(d, status)
            issues.extend(found)
            if not found:
                passed.append(f"[green]ok[/] {path}: {len(d.cards)} cards, {len(d.cases)} case(s)")
        if lib is not None:
            issues.extend(i for d in lib.decks for i in _phrase_issues(d, status))
            if not issues:
                passed.append(f"[green]ok[/]: {len(lib.decks)} deck(s), {len(lib.keys())} cards")
    for line in passed:  # once the spinner is gone: it shares the terminal with stdout
        out().print(line)
    for line in _grading_warnings(checked):
        out().print(line, markup=False, soft_wrap=True)
    if issues:
        raise DeckError(issues)


def _grading_warnings(decks: list[Deck]) -> list[str]:
    """Cards whose derived rubric will grade poorly, and why; a count of unreviewed rubrics."""
    lines = []
    for d in decks:
        generated = sum(c.rubric.generated for c in d.cards)
        for c in d.cards:
            lines += [f"warning: {d.path}:{c.line}: {c.id}: {w}" for w in rubric_warnings(c)]
        if generated:
            lines.append(
                f"note: {d.name}: {generated} card(s) with a rubric derived from the card's text"
                " and not yet reviewed (grill decks rubric REF shows one; grill decks rederive"
                f" {d.path} derives them again with this grill's rules)"
            )
    return lines


def _phrase_issues(deck: Deck, status: Status) -> list[DeckIssue]:
    """Rubric phrases the grader cannot read, located at their card or case."""
    status.update(f"checking the rubric phrases of {deck.path} ({len(deck.cards):,} cards)...")
    return [DeckIssue(deck.path, max(line, 1), 1, msg) for line, msg in check_deck_lines(deck)]


@app.command("rubric")
def rubric(
    ref: Annotated[str, typer.Argument(help="Card id (warmup-why) or number (7).")],
    deck: DeckOpt = None,
) -> None:
    """What the grader judges a card by: key points with their phrasings, misconceptions, order,
    and whether the rubric was derived from the card's text and not yet reviewed.

    Example: grill decks rubric 7
    """
    _, names = split_deck_option(deck)
    found = library(deck).card(ref, names[0] if names else None)
    render_rubric(out(), found, rubric_warnings(found))


@app.command("rederive")
def rederive(
    path: Annotated[Path, typer.Argument(help="The deck file (made by grill decks new).")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Count the rubrics that would change; write nothing.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Rewrite even a file with comments (they are lost).")
    ] = False,
) -> None:
    """Derive again the rubrics still marked `generated: true` with this grill's rules.

    A rubric you have reviewed (its `generated: true` line deleted) is left as it is; the
    others are derived from the card's text again, so a deck made by an older grill grades as
    a new one would. The file is checked before it is written.

    Example: grill decks rederive ~/.local/share/grill/decks/my-deck.yaml --dry-run
    """
    from grill.export.csv_deck import rederive as rederive_deck

    done = rederive_deck(path, dry_run=dry_run, force=force)
    if not done.generated:
        out().print(f"{path}: no rubric is marked generated: true; nothing to derive again")
        return
    verb = "would change" if dry_run else "changed"
    out().print(
        f"{path}: {done.changed} of {done.generated} generated rubric(s) {verb}",
        markup=False,
    )


@app.command("schema")
def schema() -> None:
    """Print the JSON Schema of a deck file, for editors.

    Example: grill decks schema > deck.schema.json
    """
    print(json.dumps(deck_schema(), indent=2, ensure_ascii=False))


def card(
    ref: Annotated[str, typer.Argument(help="Card id (warmup-why) or number (7).")],
    deck: DeckOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show one card: question, short answer, explanation, rubric points.

    Example: grill card 7
    """
    _, names = split_deck_option(deck)
    lib = library(deck)
    found = lib.card(ref, names[0] if names else None)
    if as_json:
        print_json(
            {
                "id": found.id,
                "n": found.n,
                "deck": found.deck,
                "section": found.section,
                "question": found.question,
                "answer": found.answer,
                "explanation": found.explanation,
                "points": [{"id": p.id, "says": p.says} for p in found.rubric.points],
                "misconceptions": [{"id": p.id, "says": p.says} for p in found.rubric.wrong],
            }
        )
        return
    render_card(out(), found, lib.deck(found.deck))


__all__ = ["app", "card", "err"]
