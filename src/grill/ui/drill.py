"""The drill on screen: ask, grade, show feedback, take the rating, end with a summary.

`run_drill(console, drill, reader)` drives a `grill.session.Drill` with a `grill.ui.prompt.Reader`,
so it runs the same on a terminal, a pipe, or a StringIO in tests. Three ways to answer:

- graded (the drill has a grader): type an answer; see the verdict, key points hit and missed,
  misconceptions flagged (with the words that triggered them), the short answer and the
  explanation, and the proposed rating: Enter takes it, 1-4 or a/h/g/e override it;
- self-rated (no grader yet): type an answer, see the model answer, rate yourself;
- flip (`flip=True`, Anki-style): think, Enter reveals, rate yourself.

Every rating is committed before the next card. `/undo` as an answer (or `u` at a key prompt)
takes back the last rating; `/quit` or `q` ends. Ctrl-C or end of input ends the session at any
point with its summary, and an answer already graded is kept with its proposed rating; so does
closing the terminal (SIGHUP), which then exits with status 129 and prints nothing more.
User and deck text is always printed as `Text`, never parsed as markup.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from grill.answers import clean_answer
from grill.clock import study_day
from grill.errors import StoreError, UsageError
from grill.model import RATING_KEYS, Card, Grade, Rating, SessionStatus, Verdict
from grill.session import Drill, DrillSummary
from grill.ui.prompt import Reader

if TYPE_CHECKING:  # readiness brings fsrs, which `grill due` (importing this module) never needs
    from grill.readiness import Readiness

__all__ = [
    "format_duration",
    "format_until",
    "next_dues",
    "short_until",
    "render_feedback",
    "render_question",
    "render_readiness",
    "render_reveal",
    "render_summary",
    "run_drill",
]

_VERDICT_STYLE = {
    Verdict.CORRECT: ("✓ correct", "bold green"),
    Verdict.PARTIAL: ("~ partial", "bold yellow"),
    Verdict.WRONG: ("✗ wrong", "bold red"),
}


class _End(Exception):
    """The person ended the session (q, /quit or end of input)."""


# ------------------------------------------------------------------ rendering


def format_duration(delta: timedelta | float) -> str:
    """A short human duration: 45s, 6m 12s, 2h 5m, 3d, 1.4y."""
    seconds = delta.total_seconds() if isinstance(delta, timedelta) else float(delta)
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f}s"
    if seconds < 3600:
        m, s = divmod(int(round(seconds)), 60)
        return f"{m}m {s}s" if s else f"{m}m"
    if seconds < 86400:
        h, m = divmod(int(seconds // 60), 60)
        return f"{h}h {m}m" if m else f"{h}h"
    days = seconds / 86400
    return f"{days / 365:.1f}y" if days >= 365 else f"{days:.0f}d"


def format_until(due: datetime, now: datetime) -> str:
    """How long until `due`, as `format_duration` says it; a review due by the day (from the
    start of a later study day, grill.scheduler.by_the_day) in whole study days: answered at
    18:45 and due tomorrow from 4 am is "1d", not "9h"."""
    local = due.astimezone(now.tzinfo)
    days = (study_day(local) - study_day(now)).days
    if local == study_day(local) and days >= 1 and local - now > timedelta(hours=1):
        return f"{days / 365:.1f}y" if days >= 365 else f"{days}d"
    return format_duration(local - now)


def short_until(due: datetime, now: datetime) -> str:
    """`format_until` in one unit, for a column: "2d", "10m"."""
    return format_until(due, now).split(" ")[0]


def render_question(console: Console, drill: Drill, card: Card, hint: str) -> None:
    """The progress line, the card's number, section and tier, the question and the input hint."""
    done, left = drill.done, drill.left
    total = max(done + left, 1)
    deck = drill.library.deck(card.deck)
    tier = deck.tier_of(card.n)
    main = drill.library.main_deck()
    where = Text.assemble(
        (f"#{card.n}", "bold"),
        f" · {card.section} {deck.section_title(card.section)}",
        f" · tier {tier.name}" if tier else "",
        (f" · {card.deck}", "dim") if main is None or card.deck != main.name else "",
    )
    console.print()
    console.print(_progress(done, total, min(20, max(5, console.width // 4))))
    console.print(where)
    if drill.early is not None:
        console.print(_early(drill.early))
    console.print(Text(card.question, style="bold"))
    console.print(Text(hint, style="dim"))


def _early(early: timedelta) -> Text:
    """Why a card is back before the time `saved: … next in 10m` promised (learn-ahead)."""
    return Text(
        f"asked early: due in {format_duration(early)}, but nothing else is waiting",
        style="yellow",
    )


def _progress(done: int, total: int, width: int) -> Text:
    """A text progress bar that still reads without colour: ━━━━────── 4/10."""
    filled = round(width * done / total)
    return Text.assemble(
        ("━" * filled, "green"), ("─" * (width - filled), "dim"), f" {done + 1}/{total}"
    )


def _points(title: str, mark: str, style: str, says: list[str]) -> RenderableType:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for i, text in enumerate(says):
        grid.add_row(Text(title if i == 0 else "", style=style), Text(f"{mark} {text}"))
    return grid


def render_feedback(
    console: Console,
    card: Card,
    grade: Grade,
    proposed: Rating,
    whens: dict[Rating, str],
) -> None:
    """The verdict, points hit and missed, misconceptions, the model answer, the proposal."""
    label, style = _VERDICT_STYLE[grade.verdict]
    verdict = Text(label, style=style)
    if card.rubric.generated:  # the author has not checked what it is graded by
        verdict.append("  (rubric derived from the card's text, not yet reviewed)", style="dim")
    parts: list[RenderableType] = [verdict]
    if grade.matched:
        parts.append(_points("hit   ", "+", "green", [p.says for p in grade.matched]))
    if grade.missed:
        parts.append(_points("missed", "-", "yellow", [p.says for p in grade.missed]))
    for flag in grade.flags:
        parts.append(
            Text.assemble(
                ("misconception: ", "bold red"),
                flag.says,
                " (you wrote: ",
                (f"“{flag.text}”", "italic"),
                ")",
            )
        )
    console.print()
    console.print(Group(*parts))
    render_reveal(console, card, short_answer=grade.short_answer)
    console.print(_rating_hint(proposed, whens))


def render_reveal(console: Console, card: Card, *, short_answer: str | None = None) -> None:
    """The short answer and the longer explanation."""
    console.print(Text.assemble(("Answer: ", "bold green"), short_answer or card.answer))
    if card.explanation:
        console.print(Text.assemble(("Saying it out loud: ", "bold dim"), card.explanation))


def next_dues(drill: Drill) -> dict[Rating, str]:
    """For the rating keys: how long until the current card is due again after each rating."""
    dues = drill.dues()
    now = drill.shown_at
    return {} if now is None else {r: short_until(due, now) for r, due in dues.items()}


def _rating_hint(proposed: Rating | None, whens: dict[Rating, str]) -> Text:
    choices = []
    for rating in Rating:
        when = f" {whens[rating]}" if rating in whens else ""
        choices.append(f"{rating.key} {rating.label}{when}")
    text = Text()
    if proposed is not None:
        text.append("proposed: ")
        text.append(proposed.label, style="bold")
        text.append(" (Enter to accept)\n")
    else:
        text.append("rate yourself (Enter: good)\n")
    text.append(" · ".join(choices) + " · u undo · q quit", style="dim")
    return text


def render_summary(console: Console, summary: DrillSummary, now: datetime) -> None:
    """Cards reviewed, verdicts, ratings, time spent, what is left and when cards are due next."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    reviewed = f"{summary.reviews} review(s) of {summary.cards} card(s), {summary.new_cards} new"
    grid.add_row("reviewed", reviewed)
    spent = format_duration(summary.seconds)
    if summary.answer_seconds:
        spent += f" (answering {format_duration(summary.answer_seconds)})"
    grid.add_row("time", spent)
    if summary.reviews:
        verdicts = []
        if summary.ungraded < summary.reviews:
            verdicts = [f"{summary.by_verdict.get(v, 0)} {v.label}" for v in reversed(Verdict)]
        if summary.ungraded:
            verdicts.append(f"{summary.ungraded} self-rated")
        grid.add_row("verdicts", " · ".join(verdicts))
        grid.add_row(
            "ratings", " · ".join(f"{summary.by_rating.get(r, 0)} {r.label}" for r in Rating)
        )
    if summary.left:
        grid.add_row("left", f"{summary.left} card(s): run grill again to go on")
    grid.add_row("next", _outlook(summary, now))
    console.print()
    console.print(Rule(Text("session summary", style="bold"), align="left"))
    console.print(grid)


def render_readiness(console: Console, ready: Readiness, *, interview: datetime | None) -> None:
    """One line after the summary: the expected cold score and the chance of reaching the target,
    now or on the interview day (if study stopped here)."""
    when = f"on {interview:%a %d %b} (interview)" if interview else "if asked cold now"
    text = Text.assemble(
        f"expected {ready.expected:.1f}/{ready.total} cold"
        + (f" ({ready.interval})" if ready.interval else "")
        + f" · P(≥{ready.target}) ",
        (f"{ready.p_target:.0%}", "bold"),
        f" · {when}",
    )
    # the summary's layout: the label column as wide as its "reviewed", wrapped text indented
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True, min_width=len("reviewed"))
    grid.add_column(overflow="fold")
    grid.add_row("ready", text)
    console.print(grid)


def _outlook(summary: DrillSummary, now: datetime) -> str:
    due = f"{summary.due_tomorrow} due by tomorrow, {summary.new_tomorrow} new"
    if summary.next_due is None:
        return due
    local = summary.next_due.astimezone(now.tzinfo)
    return f"{due}; next due {local:%a %d %b %H:%M} (in {format_until(local, now)})"


# ------------------------------------------------------------------ the loop


def run_drill(
    console: Console,
    drill: Drill,
    reader: Reader,
    *,
    flip: bool = False,
    timer: Callable[[], float] = time.monotonic,
) -> DrillSummary:
    """Run the session until the queue is empty or the person ends it; show and return the
    summary. Ctrl-C and end of input end it too; nothing rated or graded is lost."""
    status = SessionStatus.DONE
    previous = _hang_up_ends_it()
    try:
        while (card := drill.next_card()) is not None:
            if flip:
                _flip(console, drill, reader, card, timer)
            elif drill.grader is None:
                _self_rate(console, drill, reader, card, timer)
            else:
                _graded(console, drill, reader, card, timer)
    except _End:
        status = SessionStatus.INTERRUPTED
    except KeyboardInterrupt:
        console.print(Text("\ninterrupted", style="dim"))
        status = SessionStatus.INTERRUPTED
    except _HangUp:  # the terminal is gone: save, then stop without writing to it
        drill.finish(SessionStatus.INTERRUPTED)
        raise SystemExit(128 + _SIGHUP) from None
    finally:
        _hang_up_restored(previous)
    if drill.current is None and drill.left == 0:
        status = SessionStatus.DONE
    kept = drill.proposed
    summary = drill.finish(status)
    if kept is not None:  # ended at the rating prompt: the answer is saved, and the screen says so
        console.print(Text(f"saved: {kept.label}, the proposed rating", style="dim"))
    if summary.session_id is None:
        console.print(Text(_nothing_due(summary, drill.clock())))
    else:
        render_summary(console, summary, drill.clock())
    return summary


class _HangUp(Exception):
    """The terminal was closed (SIGHUP) during the drill."""


_SIGHUP = int(getattr(signal, "SIGHUP", 1))


def _hang_up_ends_it() -> object:
    """From now on, closing the terminal (SIGHUP) ends the drill as Ctrl-C does, so the answer
    graded but not rated yet is saved with its proposed rating instead of dying with the
    process. Returns the handler it replaced (for `_hang_up_restored`); None where nothing
    changed (no SIGHUP here, or not the main thread, the only one that takes signals)."""
    if not hasattr(signal, "SIGHUP") or threading.current_thread() is not threading.main_thread():
        return None

    def hang_up(signum: int, frame: object) -> None:
        raise _HangUp

    return signal.signal(signal.SIGHUP, hang_up)


def _hang_up_restored(previous: object) -> None:
    if previous is not None:
        signal.signal(signal.SIGHUP, previous)  # type: ignore[arg-type]


def _nothing_due(summary: DrillSummary, now: datetime) -> str:
    return f"Nothing to study right now. Next: {_outlook(summary, now)}."


def _elapsed_ms(reader: Reader, started: float, timer: Callable[[], float]) -> int | None:
    return int((timer() - started) * 1000) if reader.timed else None


STRAY_ENTER_S = 0.4
"""An empty answer sooner than this after the question showed is the Enter of a rating typed as
"3⏎" (the rating takes its key alone, and the Enter would land on the next card as an empty
answer, graded wrong): it is not taken, once per card. Nobody reads a question that fast."""


def _read_answer(
    console: Console, drill: Drill, reader: Reader, card: Card, timer: Callable[[], float]
) -> str | None:
    """The typed answer; None when the card was undone instead. Raises _End to stop."""
    render_question(console, drill, card, reader.answer_hint + " · /undo · /quit")
    shown: float | None = timer()
    while True:
        answer = reader.answer()
        if answer is None or answer.strip() == "/quit":
            raise _End
        if reader.timed and shown is not None and not answer.strip():
            stray, shown = timer() - shown < STRAY_ENTER_S, None
            if stray:
                continue
        if answer.strip() == "/undo":
            _undo(console, drill)
            return None
        try:  # control characters out, a runaway paste refused: the card is asked again
            return clean_answer(answer)
        except UsageError as exc:
            console.print(Text(f"{exc}: not kept, answer again", style="yellow"))


def _graded(
    console: Console, drill: Drill, reader: Reader, card: Card, timer: Callable[[], float]
) -> None:
    started = timer()
    answer = _read_answer(console, drill, reader, card, timer)
    if answer is None:
        return
    grade = drill.submit(card, answer, _elapsed_ms(reader, started, timer))
    proposed = drill.proposed or Rating.GOOD
    render_feedback(console, card, grade, proposed, next_dues(drill))
    _take_rating(console, drill, reader, proposed)


def _self_rate(
    console: Console, drill: Drill, reader: Reader, card: Card, timer: Callable[[], float]
) -> None:
    started = timer()
    answer = _read_answer(console, drill, reader, card, timer)
    if answer is None:
        return
    elapsed = _elapsed_ms(reader, started, timer)
    console.print()
    render_reveal(console, card)
    console.print(_rating_hint(None, next_dues(drill)))
    _take_rating(console, drill, reader, None, answer=answer or None, response_ms=elapsed)


def _flip(
    console: Console, drill: Drill, reader: Reader, card: Card, timer: Callable[[], float]
) -> None:
    started = timer()
    render_question(
        console, drill, card, "think of the answer, then Enter to reveal · u undo · q quit"
    )
    key = reader.key("", "uq", "reveal")
    if key is None or key == "q":
        raise _End
    if key == "u":
        _undo(console, drill)
        return
    elapsed = _elapsed_ms(reader, started, timer)
    render_reveal(console, card)
    console.print(_rating_hint(None, next_dues(drill)))
    _take_rating(console, drill, reader, None, response_ms=elapsed)


def _take_rating(
    console: Console,
    drill: Drill,
    reader: Reader,
    proposed: Rating | None,
    *,
    answer: str | None = None,
    response_ms: int | None = None,
) -> None:
    default = (proposed or Rating.GOOD).key
    key = reader.key("rating: ", "".join(RATING_KEYS) + "uq", default)
    if key is None or key == "q":
        raise _End
    if key == "u":
        if not _undo(console, drill) and drill.pending is not None:  # refused: rate it still
            _take_rating(console, drill, reader, proposed, answer=answer, response_ms=response_ms)
        return
    rating = RATING_KEYS[key]
    review = drill.rate(rating, answer=answer, response_ms=response_ms)
    when = ""
    if review.after is not None:
        answered = review.reviewed_at.astimezone(drill.clock().tzinfo)  # stored in UTC
        when = f" · next in {format_until(review.after.due, answered)}"
    console.print(Text(f"saved: {rating.label}{when}", style="dim"))


def _undo(console: Console, drill: Drill) -> bool:
    """Take back the last rating; False when the store refused (the card was reviewed again
    since, by another grill): the drill goes on as it was."""
    graded = drill.pending is not None
    try:
        review = drill.undo()
    except StoreError as exc:
        console.print(Text(f"{exc}; nothing was undone", style="yellow"))
        return False
    if review is None and graded:  # the first card: its answer was shown, not yet saved
        console.print(Text("undone: your answer (it was not saved): answer again", style="yellow"))
    elif review is None:
        console.print(Text("nothing to undo in this session", style="yellow"))
    else:
        console.print(Text(f"undone: {review.card_id} ({review.rating.label})", style="yellow"))
    return True
