"""Show decks and cards: `grill decks list|show` and `grill card`."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from grill.grader.verdict import correct_needed
from grill.model import Card, Case, Deck, Library
from grill.ui.plain import BOLD, CYAN, Out
from grill.ui.plain import Table as PlainTable

__all__ = ["render_card", "render_case", "render_deck", "render_library"]


def render_library(console: Console, library: Library) -> None:
    """One row per deck: name, cards, cases, where it comes from."""
    table = Table(title="Decks", title_justify="left", expand=False)
    table.add_column("deck", style="bold")
    table.add_column("cards", justify="right")
    table.add_column("cases", justify="right")
    table.add_column("source", overflow="fold")
    for deck in library.decks:
        source = f"{deck.path} (built-in)" if deck.builtin else deck.path
        table.add_row(deck.name, str(len(deck.cards)), str(len(deck.cases)), source)
    console.print(table)


def render_deck(out: Out, deck: Deck) -> None:
    """A deck's cards by number and section, with the target when the deck has one. Drawn with
    grill.ui.plain: a deck of thousands of cards took rich seconds to lay out."""
    out.line(deck.title, BOLD)
    if deck.description:
        out.line(deck.description)
    if deck.target:
        floor = f" (floor {deck.floor})" if deck.floor else ""
        out.line(f"Target: {deck.target}/{len(deck.cards)} answered cold{floor}")
    table = PlainTable()
    table.add_column("#", right=True, fold=False)
    table.add_column("sec", fold=False)
    table.add_column("id", sgr=CYAN, fold=False)
    table.add_column("question")
    for card in deck.cards:
        table.add_row(str(card.n), card.section, card.id, card.question)
    out.table(table)
    for case in deck.cases:
        out.line(f"case {case.id}: {case.question}")


def render_card(console: Console, card: Card, deck: Deck) -> None:
    """Question, short answer, explanation and rubric points of one card."""
    tier = deck.tier_of(card.n)
    head = f"#{card.n} · {card.section} {deck.section_title(card.section)}"
    if tier:
        head += f" · tier {tier.name}"
    parts: list[Text | Table] = [
        Text(card.question, style="bold"),
        Text.assemble(("Answer: ", "green bold"), card.answer),
    ]
    if card.explanation:
        parts.append(Text.assemble(("Saying it out loud: ", "dim bold"), card.explanation))
    points = Table.grid(padding=(0, 1))
    for point in card.rubric.points:
        points.add_row("•", point.says)
    for wrong in card.rubric.wrong:
        points.add_row("✗", Text(wrong.says, style="red"))
    parts += [Text("Key points", style="bold"), points]
    console.print(Panel(Group(*parts), title=Text(f"{card.id} · {head}"), title_align="left"))


def render_rubric(console: Console, card: Card, warnings: list[str]) -> None:
    """What the grader judges a card's answers by: points and their phrasings, misconceptions,
    order and thresholds; whether the rubric was derived and not yet reviewed; its warnings."""
    rubric = card.rubric
    grid = Table.grid(padding=(0, 1))
    for point in rubric.points:
        grid.add_row(Text(point.id, style="bold"), point.says)
        for phrase in (*point.match, *(f"{v}  (vague)" for v in point.vague)):
            grid.add_row("", Text(phrase, style="cyan"))
    for wrong in rubric.wrong:
        grid.add_row(Text(wrong.id, style="red bold"), Text(wrong.says, style="red"))
        for phrase in wrong.match:
            grid.add_row("", Text(phrase, style="red"))
    need = rubric.correct or correct_needed(len(rubric.points))
    rules = [f"correct: {need} of {len(rubric.points)} key point(s)"]
    if rubric.order:
        rules.append("in order: " + " → ".join(rubric.order))
    if rubric.requires:
        rules.append("requires: " + ", ".join(rubric.requires))
    body: list[Text | Table] = [Text(card.question, style="bold"), grid, Text("; ".join(rules))]
    if card.see and card.context and not card.explanation:
        seen = f"Also checked against what card {card.see} says (its answer and explanation)."
        body.append(Text(seen, style="dim"))
    elif card.see and card.explanation and rubric.generated:
        seen = f"Also wrong: what card {card.see} says, said the other way round."
        body.append(Text(seen, style="dim"))
    if rubric.generated:
        body.append(Text("Derived from the card's text, not yet reviewed.", style="yellow"))
    body += [Text(f"warning: {w}", style="yellow") for w in warnings]
    title = Text(f"rubric of {card.deck}/{card.id}")
    console.print(Panel(Group(*body), title=title, title_align="left"))


def render_case(console: Console, case: Case) -> None:
    """An open-ended case: the question, what it tests, the parts and red flags."""
    body: list[Text | Table] = [Text(case.question, style="bold"), Text(case.tests)]
    grid = Table.grid(padding=(0, 1))
    for part in case.parts:
        grid.add_row(Text(part.id, style="bold"), "; ".join(i.says for i in part.items))
    for flag in case.red_flags:
        grid.add_row(Text(flag.id, style="red"), flag.says)
    body.append(grid)
    console.print(Panel(Group(*body), title=Text(f"case {case.id}"), title_align="left"))
