"""The mock interview on screen: each question cold with a live countdown, then the end screen.

`interview` drives a `MockRun` with a `TimedInput` (the live prompt in a terminal, plain lines
when stdin is piped): no hints and no feedback until the end, auto-submit at zero, Ctrl-C or
EOF ends the mock with the answers given kept (aborted). `render_result` draws the end screen:
the score against the target and floor (scaled when fewer cards were asked), the section and
tier tables with the seed's verdict for each tier with a miss, time used, and every miss with
the card's short answer. Text the user typed is always drawn as `Text`, never as markup.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grill import clock
from grill.mock import (
    ABORTED,
    COMPLETED,
    Clock,
    Grader,
    MockPlan,
    MockResult,
    MockRun,
    Question,
    StoreRecorder,
    load_grader,
)
from grill.scheduler import Scheduler
from grill.store import Store
from grill.ui.timed import TimedInput, clock_text, default_input

__all__ = ["interview", "render_result", "render_start", "run_mock"]


def run_mock(
    console: Console,
    plan: MockPlan,
    *,
    store: Store,
    scheduler: Scheduler | None,
    predict: Callable[[Sequence[str]], float] | None = None,
    source: TimedInput | None = None,
    grader: Grader | None = None,
    monotonic: Clock = time.monotonic,
    now: Callable[[], datetime] = clock.now,
) -> MockResult:
    """Run a whole mock on screen and keep it in `store` as it goes (see StoreRecorder);
    `scheduler` None logs the answers without touching the schedule (`--no-schedule`)."""
    recorder = StoreRecorder(store, scheduler=scheduler, predict=predict)
    run = MockRun(
        plan,
        clock=monotonic,
        now=now,
        grader=grader or load_grader(),
        recorder=recorder,
    )
    return interview(console, run, source or default_input(console))


def render_start(console: Console, run: MockRun) -> None:
    """What the user is about to face: how many questions, the limits, the bar."""
    plan = run.plan
    count = len(plan.questions)
    limits = sorted({q.seconds for q in plan.questions})
    per = " or ".join(f"{s} s" for s in limits)
    console.print(Text(f"Mock interview: {count} question(s), answered cold, {per} each.", "bold"))
    if plan.total_seconds:
        console.print(Text(f"Total time: {clock_text(plan.total_seconds)}."))
    if plan.spoken:
        how = (
            "Answer out loud and press Enter when done (at zero the clock stops you); then tick "
            "the key points you said."
        )
    else:
        how = "Type and press Enter; at zero what you typed is submitted."
    console.print(Text(f"{how} No feedback until the end. Ctrl-C stops (answers are kept)."))


def _show_question(console: Console, run: MockRun, question: Question, seconds: float) -> None:
    deck = run.plan.deck
    head = (
        f"Question {question.index + 1} of {len(run.plan.questions)} · "
        f"{question.card.section} {deck.section_title(question.card.section)} · "
        f"{math.ceil(seconds - 1e-9)} s"
    )
    console.print()
    console.print(Text(head, style="dim"))
    console.print(Text(question.card.question, style="bold"))


def _status(run: MockRun, question: Question) -> Callable[[], str]:
    def status() -> str:
        text = f"question {question.index + 1}/{len(run.plan.questions)}"
        total = run.total_remaining()
        if total is not None:
            text += f" · interview {clock_text(total)} left"
        return text

    return status


def _ask(console: Console, run: MockRun, question: Question, source: TimedInput) -> None:
    timer = run.start()
    _show_question(console, run, question, timer.seconds)
    status = _status(run, question)
    if not run.plan.spoken:
        reply = source.ask(timer, status=status)
        if reply.timed_out:
            console.print(Text("time: submitted what was typed", style="yellow"))
        run.submit(reply.text, timed_out=reply.timed_out)
        return
    reply = source.ask(timer, status=status, keys="speak, then Enter")
    spoke = timer.elapsed()
    if reply.timed_out:
        console.print(Text("time: your answer ends here", style="yellow"))
    ticked = source.ask_ticks(question.card.rubric.points)
    run.submit_ticks(ticked, seconds=spoke, timed_out=reply.timed_out)


def interview(console: Console, run: MockRun, source: TimedInput) -> MockResult:
    """Ask every question in turn; Ctrl-C or EOF ends the mock as aborted, answers kept."""
    render_start(console, run)
    try:
        while (question := run.current) is not None:
            _ask(console, run, question, source)
    except (KeyboardInterrupt, EOFError):
        console.print()
        console.print(Text("Stopped. The answers given so far are saved.", style="yellow"))
        return run.finish(ABORTED)
    if run.out_of_time:
        console.print(Text("The interview's total time is up.", style="yellow"))
    return run.finish(COMPLETED)


# ---------------------------------------------------------------------------------- end screen


def _verdict_line(result: MockResult) -> Text:
    if result.status == ABORTED:
        return Text.assemble(
            ("STOPPED", "bold yellow"),
            f" after {result.answered} answer(s): {result.correct}/{result.answered} cold so far"
            " (not judged against the target)",
        )
    mark = ("PASS", "bold green") if result.passed else ("NOT YET", "bold red")
    line = Text.assemble(
        ("Score ", "bold"),
        (f"{result.correct}/{result.asked}", "bold"),
        " answered cold · target ",
        str(result.target),
        ": ",
        mark,
    )
    if result.floor is not None:
        floor = "below the floor"
        if result.above_floor:  # reaching the floor is not rising above it
            floor = "at the floor" if result.correct == result.floor else "above the floor"
        line.append(f" · floor {result.floor}: {floor}")
    return line


def _scale_note(result: MockResult) -> Text | None:
    if not result.scaled or result.status == ABORTED:
        return None
    floor = ""
    if result.full_floor is not None and result.floor is not None:
        floor = f", floor {result.full_floor}/{result.deck_size} -> {result.floor}"
    return Text(
        f"Scaled: {result.asked} of {result.deck_size} cards asked, so the target "
        f"{result.full_target}/{result.deck_size} -> {result.target}/{result.asked}{floor} "
        "(rounded up).",
        style="dim",
    )


def _sections(result: MockResult) -> Table:
    table = Table(title="By section", title_justify="left", expand=False)
    table.add_column("section")
    table.add_column("cold", justify="right")
    table.add_column("partial", justify="right")
    table.add_column("wrong", justify="right")
    for s in result.sections:
        table.add_row(f"{s.key} {s.title}", f"{s.correct}/{s.asked}", str(s.partial), str(s.wrong))
    return table


def _tiers(result: MockResult) -> Table:
    table = Table(title="By tier", title_justify="left", expand=False)
    table.add_column("tier", no_wrap=True)
    table.add_column("cold", justify="right", no_wrap=True)
    table.add_column("what it means", overflow="fold")
    for t in result.tiers:
        verdict = Text(t.verdict, style="yellow") if t.verdict else Text("all answered cold")
        table.add_row(t.name, f"{t.correct}/{t.asked}", verdict)
    return table


def _time_line(result: MockResult) -> Text:
    line = f"Time used: {clock_text(result.seconds_used)} answering"
    if result.timed_out:
        line += f" · {result.timed_out} answer(s) submitted at zero"
    if result.not_reached:
        line += f" · {result.not_reached} question(s) not reached"
    return Text(line)


def _misses(console: Console, result: MockResult) -> None:
    if not result.misses:
        return
    console.print(Text(f"Missed ({len(result.misses)}): learn these", style="bold"))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(overflow="fold")
    for miss in sorted(result.misses, key=lambda m: m.card.n):
        label = miss.verdict.label if miss.verdict is not None else "not reached"
        if miss.timed_out:
            label += ", at zero"
        cell = Text.assemble((miss.card.question, "bold"), f" ({label})")
        if miss.ticked is not None:
            points = miss.card.rubric.points
            said = [p.says for p in points if p.id in miss.ticked]
            cell.append(f"\nyou said {len(said)} of {len(points)} key points")
            cell.append(": " + "; ".join(said) if said else "")
        elif miss.reached:
            cell.append("\nyou: ")
            cell.append(miss.answer if miss.answer.strip() else "(nothing)")
        cell.append("\nanswer: ")
        cell.append(miss.card.answer, style="green")
        grid.add_row(f"#{miss.card.n}", cell)
    console.print(grid)


def render_result(console: Console, result: MockResult) -> None:
    """The end screen."""
    console.print()
    console.print(_verdict_line(result))
    note = _scale_note(result)
    if note:
        console.print(note)
    if result.sections:
        console.print(_sections(result))
        console.print(_tiers(result))
    console.print(_time_line(result))
    _misses(console, result)
