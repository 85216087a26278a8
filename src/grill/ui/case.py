"""The open-ended case on screen: the question against the clock, the graded parts, the timed
follow-ups self-checked against their key points, then the model answer and what was missed.

`case_interview` drives a `CaseRun` with a `TimedInput` (multi-line answers). Ctrl-C or EOF
before the main answer is in leaves nothing to keep (returns None); after it, the attempt is
kept as it stands, marked aborted. `render_case_history` lists past attempts from their saved
summaries. Text the user typed is drawn as `Text`, never as markup.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from grill import clock
from grill.mock import ABORTED, COMPLETED, CaseAttempt, CaseRun, Clock, load_case_grader
from grill.model import Case, CaseGrade, SessionRecord, Verdict
from grill.store import Store
from grill.ui.timed import TimedInput, clock_text, default_input

__all__ = [
    "case_interview",
    "render_attempt",
    "render_case_history",
    "render_grade",
    "run_case",
]


def run_case(
    console: Console,
    case: Case,
    *,
    store: Store,
    minutes: float,
    follow_up_seconds: float,
    source: TimedInput | None = None,
    grader: Callable[[Case, str], CaseGrade] | None = None,
    monotonic: Clock = time.monotonic,
    now: Callable[[], datetime] = clock.now,
) -> CaseAttempt | None:
    """Run the case on screen, keeping the attempt in `store` from the moment the main answer is
    graded (None: stopped before answering; nothing kept)."""
    run = CaseRun(
        case,
        minutes=minutes,
        follow_up_seconds=follow_up_seconds,
        clock=monotonic,
        now=now,
        grader=grader or load_case_grader(),
        store=store,
    )
    return case_interview(console, run, source or default_input(console))


_VERDICT_STYLE = {Verdict.CORRECT: "bold green", Verdict.PARTIAL: "bold yellow"}


def _verdict(verdict: Verdict) -> Text:
    return Text(verdict.label.upper(), style=_VERDICT_STYLE.get(verdict, "bold red"))


def render_grade(console: Console, attempt: CaseAttempt) -> None:
    """The main answer's verdict, each part with the items hit, and any red flag."""
    grade = attempt.grade
    line = Text.assemble("Case answer: ", _verdict(grade.verdict))
    if attempt.timed_out:
        line.append(" (submitted at zero)", style="yellow")
    console.print(line)
    parts = {p.id: p for p in attempt.case.parts}
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for part in grade.parts:
        mark = Text("✓", "green") if part.covered else Text("✗", "red")
        says = parts[part.part].says if part.part in parts else ""
        cell = Text.assemble((part.part, "bold"), f" ({says})")
        for item in part.items:
            cell.append(f"\n  hit: {item.says}")
        grid.add_row(mark, cell)
    for flag in grade.red_flags:
        cell = Text.assemble(("red flag ", "bold red"), (flag.id, "red"), f": {flag.says}")
        if flag.text:
            cell.append("\n  you said: ")
            cell.append(flag.text)
        grid.add_row(Text("!", "bold red"), cell)
    console.print(grid)


def _bullets(console: Console, rows: Sequence[tuple[Text | str, Text]]) -> None:
    """Rows of (mark, text) whose text wraps under itself, not under the mark."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for mark, text in rows:
        grid.add_row(mark, text)
    console.print(grid)


def render_attempt(console: Console, attempt: CaseAttempt) -> None:
    """After the follow-ups: how they went, the model answer, what the answer missed."""
    if attempt.follow_ups:
        console.print(Text("Follow-ups", style="bold"))
        rows = []
        for answer in attempt.follow_ups:
            ticked = f" {len(answer.ticked)}/{len(answer.follow_up.points)} points: "
            rows.append(
                ("  ", Text.assemble(_verdict(answer.verdict), ticked, answer.follow_up.question))
            )
        _bullets(console, rows)
    console.print(
        Panel(
            Text(attempt.case.example),
            title="Model answer: one concrete example",
            title_align="left",
        )
    )
    _missed(console, attempt)
    console.print(Text(f"Source: {attempt.case.source}", style="dim"))


def _missed(console: Console, attempt: CaseAttempt) -> None:
    """Per part: not covered (name `need` of these) or covered (these could be named too)."""
    needs = {p.id: p.need for p in attempt.case.parts}
    if not attempt.missed and not attempt.grade.red_flags:
        console.print(Text("Your answer named every item of every part.", style="green"))
        return
    console.print(Text("What your answer missed", style="bold"))
    covered = {p.part: p.covered for p in attempt.grade.parts}
    for part, points in attempt.missed:
        if covered.get(part):
            head = Text.assemble("  ", (part, "bold"), ": covered; you could also have named")
        else:
            need = needs.get(part, 1)
            head = Text.assemble(
                "  ", (part, "bold red"), f": not covered; name at least {need} of"
            )
        console.print(head)
        _bullets(console, [("    •", Text(point.says)) for point in points])
    if attempt.grade.red_flags:
        _bullets(console, [("  avoid:", Text(flag.says)) for flag in attempt.grade.red_flags])


def _main_answer(console: Console, run: CaseRun, source: TimedInput) -> CaseAttempt:
    case = run.case
    minutes = clock_text(run.limit)
    console.print(Panel(Text(case.question, style="bold"), title=f"case {case.id} · {minutes}"))
    console.print(Text("Answer in full: several lines are fine. The clock is running.", "dim"))
    timer = run.start()
    reply = source.ask(timer, status=f"case {case.id}", multiline=True)
    attempt = run.submit(reply.text, timed_out=reply.timed_out)
    render_grade(console, attempt)
    return attempt


def _follow_ups(console: Console, run: CaseRun, source: TimedInput) -> None:
    total = len(run.case.follow_ups)
    while (follow_up := run.next_follow_up) is not None:
        index = len(run.attempt.follow_ups) + 1 if run.attempt else 1
        console.print()
        head = f"Follow-up {index} of {total} · {clock_text(run.follow_up_seconds)}"
        console.print(Text(head, style="dim"))
        console.print(Text(follow_up.question, style="bold"))
        timer = run.start_follow_up()
        reply = source.ask(timer, status=f"follow-up {index}/{total}", multiline=True)
        spent = timer.elapsed()
        ticked = source.ask_ticks(follow_up.points)
        run.submit_follow_up(reply.text, ticked, seconds=spent, timed_out=reply.timed_out)


def case_interview(console: Console, run: CaseRun, source: TimedInput) -> CaseAttempt | None:
    """Run the case; None when stopped before the main answer (nothing to keep)."""
    try:
        _main_answer(console, run, source)
        _follow_ups(console, run, source)
    except (KeyboardInterrupt, EOFError):
        console.print()
        attempt = run.finish(ABORTED)
        if attempt is None:
            console.print(Text("Stopped before answering: nothing saved.", style="yellow"))
            return None
        console.print(Text("Stopped. The attempt so far is saved.", style="yellow"))
        render_attempt(console, attempt)
        return attempt
    attempt = run.finish(COMPLETED)
    if attempt is not None:
        render_attempt(console, attempt)
    return attempt


# ---------------------------------------------------------------------------------- history


def _parts_cell(summary: Mapping[str, Any]) -> Text:
    grade = summary.get("grade", {})
    cell = Text()
    for name, part in grade.get("parts", {}).items():
        if cell:
            cell.append(" ")
        covered = bool(part.get("covered"))
        cell.append(("✓" if covered else "✗") + name, style="green" if covered else "red")
    for flag in grade.get("red_flags", []):
        cell.append("\nred flag: ", style="red")
        cell.append(str(flag).replace("_", " "))
    return cell


def _follow_cell(summary: Mapping[str, Any]) -> str:
    answers = summary.get("follow_ups", [])
    if not answers:
        return "-"
    right = sum(1 for a in answers if a.get("verdict") == "correct")
    return f"{right}/{len(answers)}"


def _when(moment: datetime, now: datetime) -> str:
    """Compact local time, e.g. `04 Dec 09:00`; the year only when it is not this year's."""
    local = moment.astimezone(now.tzinfo)
    return f"{local:%d %b %H:%M}" if local.year == now.year else f"{local:%d %b %Y %H:%M}"


def render_case_history(console: Console, sessions: Sequence[SessionRecord], now: datetime) -> None:
    """Past case attempts, oldest first: when, verdict, parts covered and red flags, follow-ups
    answered correctly. The case column shows only when attempts span several cases."""
    if not sessions:
        console.print(Text("No case attempts yet: try `grill case`."))
        return
    several = len({s.summary.get("case") for s in sessions}) > 1
    table = Table(title="Case attempts", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("when", no_wrap=True)
    if several:
        table.add_column("case", no_wrap=True)
    table.add_column("verdict")
    table.add_column("parts covered", overflow="fold", ratio=1)
    table.add_column("follow-ups", justify="right", no_wrap=True)
    for session in sessions:
        summary: Mapping[str, Any] = session.summary
        verdict = str(summary.get("grade", {}).get("verdict", "?"))
        if summary.get("status") == ABORTED:
            verdict += "\nstopped"
        table.add_row(
            _when(session.started_at, now),
            *([str(summary.get("case", "?"))] if several else []),
            verdict,
            _parts_cell(summary),
            _follow_cell(summary),
        )
    console.print(table)
