"""Show a grade: verdict, key points hit and missed, flags with their text, the short answer.

User text (the answer, the text a flag quotes) is always rendered as plain `Text`, never as markup,
so an answer such as `[bold]` or `[/]` prints as typed.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grill.model import Case, CaseGrade, Flag, Grade, Point, Verdict

__all__ = ["render_case_grade", "render_grade", "verdict_text"]

_STYLE = {Verdict.CORRECT: "bold green", Verdict.PARTIAL: "bold yellow", Verdict.WRONG: "bold red"}
_MARK = {Verdict.CORRECT: "✓", Verdict.PARTIAL: "~", Verdict.WRONG: "✗"}


def verdict_text(verdict: Verdict, score: float) -> Text:
    """`✓ correct  (score 0.67)`, coloured by verdict."""
    return Text.assemble(
        (f"{_MARK[verdict]} {verdict.label}", _STYLE[verdict]), (f"  (score {score:.2f})", "dim")
    )


def _points(title: str, points: tuple[Point, ...], mark: str, style: str) -> list[Text]:
    if not points:
        return []
    return [Text(title, style="bold")] + [
        Text.assemble((f"  {mark} ", style), point.says) for point in points
    ]


def _flags(flags: tuple[Flag, ...], title: str = "Flags") -> list[Text]:
    if not flags:
        return []
    lines = [Text(title, style="bold red")]
    for flag in flags:
        line = Text.assemble(("  ✗ ", "red"), flag.says)
        if flag.text:
            line.append(" — you wrote: ", style="dim")
            line.append(f"“{flag.text}”", style="italic")
        lines.append(line)
    return lines


def render_grade(console: Console, grade: Grade) -> None:
    """A card grade: verdict, matched and missed points, flags, then the card's short answer."""
    console.print(
        Text.assemble(verdict_text(grade.verdict, grade.score), "  ", (grade.card, "cyan"))
    )
    for line in (
        *_flags(grade.flags),
        *_points("Hit", grade.matched, "✓", "green"),
        *_points("Missed", grade.missed, "·", "yellow"),
    ):
        console.print(line)
    console.print(Text.assemble(("Short answer: ", "bold green"), grade.short_answer))


def render_case_grade(console: Console, grade: CaseGrade, case: Case) -> None:
    """A case grade: verdict, each part covered or not with the items hit, red flags."""
    console.print(Text.assemble(verdict_text(grade.verdict, grade.score), "  ", (case.id, "cyan")))
    for line in _flags(grade.red_flags, "Red flags"):
        console.print(line)
    table = Table(expand=False, show_header=True, header_style="bold")
    table.add_column("part")
    table.add_column("covered")
    table.add_column("hit", overflow="fold")
    table.add_column("missed", overflow="fold", style="dim")
    for part in grade.parts:
        table.add_row(
            Text(part.part),
            Text("yes", style="green") if part.covered else Text("no", style="red"),
            Text("; ".join(i.says for i in part.items)),
            Text("; ".join(i.says for i in part.missed)),
        )
    console.print(table)
