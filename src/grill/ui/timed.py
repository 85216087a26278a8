"""Timed answers from the terminal: a live countdown that stays visible while the user types, and
auto-submit at zero with whatever was typed.

Two inputs behind one interface (`TimedInput`):

- `TerminalInput` (a real terminal): a prompt_toolkit prompt whose bottom toolbar shows the time
  left, refreshed twice a second. When the countdown reaches zero a background task ends the
  prompt with the text typed so far. Enter submits; in a multi-line answer Alt-Enter (Esc then
  Enter) starts a new line, as in the drill. Ctrl-C raises KeyboardInterrupt; Ctrl-D on an
  empty line raises EOFError (the caller ends the mock and keeps what was answered).
- `LineInput` (piped stdin, no TTY): one plain line per answer (a multi-line answer ends at a
  blank line), no escape codes; EOF raises EOFError. A line cannot be interrupted mid-read, so a
  late line still counts and is marked timed out by the countdown.

Both return a `TimedText`: the text and whether the clock ran out. The countdown is a
`grill.mock.Countdown`, so the clock is the engine's (injected) clock.
"""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grill.answers import MAX_ANSWER_CHARS, clean_answer, read_line
from grill.mock import Countdown
from grill.model import Point
from grill.ui.prompt import answer_keys, echo_answer, prompt_once

if TYPE_CHECKING:  # prompt_toolkit is imported on first use: it is slow to load
    from prompt_toolkit import PromptSession
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output
    from prompt_toolkit.styles import Style

__all__ = [
    "fit_answer",
    "LineInput",
    "TerminalInput",
    "TimedInput",
    "Status",
    "TimedText",
    "clock_text",
    "default_input",
    "is_terminal",
    "parse_ticks",
]


def _style() -> Style:
    from prompt_toolkit.styles import Style

    return Style.from_dict(
        {"bottom-toolbar": "reverse", "bottom-toolbar.urgent": "reverse bold", "prompt": "bold"}
    )


Status = str | Callable[[], str]


def _status(status: Status) -> str:
    return status() if callable(status) else status


@dataclass(frozen=True)
class TimedText:
    text: str
    timed_out: bool


class TimedInput(Protocol):
    """Where answers come from. `status` is shown beside the countdown (e.g. "question 3/45");
    a callable is re-read at each refresh (e.g. for the whole interview's time left)."""

    def ask(
        self, timer: Countdown, *, status: Status, multiline: bool = False, keys: str = ""
    ) -> TimedText:
        """`keys` replaces the usual "Enter submits" hint."""
        ...

    def ask_ticks(self, points: Sequence[Point]) -> tuple[str, ...]: ...


def is_terminal(stdin: TextIO | None = None, stdout: TextIO | None = None) -> bool:
    """True when both ends are a terminal, so the live prompt can be used."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    return bool(stdin.isatty() and stdout.isatty())


def fit_answer(text: str) -> str:
    """A timed answer as graded and stored: cleaned, and cut at the length limit rather than
    refused, because the clock has already run and what was typed counts."""
    return clean_answer(text[:MAX_ANSWER_CHARS])


def clock_text(seconds: float) -> str:
    """Seconds left as m:ss, rounded up (2.1 s left shows 0:03, never 0:00 before the end)."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"


def parse_ticks(text: str, count: int) -> tuple[int, ...] | None:
    """'1 3' / '1,3' -> (1, 3); 'a' or 'all' -> every point; '' / '0' / 'none' -> none.
    None when the text names something else (the caller asks again)."""
    words = text.replace(",", " ").lower().split()
    if not words or words in (["0"], ["none"], ["n"]):
        return ()
    if words in (["a"], ["all"]):
        return tuple(range(1, count + 1))
    picked: list[int] = []
    for word in words:
        if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= count:
            return None
        if int(word) not in picked:
            picked.append(int(word))
    return tuple(sorted(picked))


def _tick_help(count: int) -> str:
    return f"the numbers you said (e.g. 1 3), 'a' for all {count}, Enter for none"


def _show_checklist(console: Console, points: Sequence[Point]) -> None:
    console.print(Text("Tick honestly: which of these did you say?", style="bold"))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(overflow="fold")
    for i, point in enumerate(points, 1):
        grid.add_row(f"  {i}.", Text(point.says))
    console.print(grid)


def _pick(points: Sequence[Point], numbers: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(points[i - 1].id for i in numbers)


class TerminalInput:
    """The live prompt. `input`/`output` are for tests (prompt_toolkit pipe input, DummyOutput)."""

    def __init__(
        self, console: Console, *, input: Input | None = None, output: Output | None = None
    ) -> None:
        self.console = console
        self._input = input
        self._output = output

    def _session(self, multiline: bool) -> PromptSession[str]:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.key_binding import KeyBindings

        # a multi-line answer takes the drill's keys; a one-line one, prompt_toolkit's own
        bindings = answer_keys() if multiline else KeyBindings()
        return PromptSession(
            multiline=multiline,
            key_bindings=bindings,
            style=_style(),
            input=self._input,
            output=self._output,
            erase_when_done=True,  # then echoed wrapped at words (`echo_answer`)
        )

    def ask(
        self, timer: Countdown, *, status: Status, multiline: bool = False, keys: str = ""
    ) -> TimedText:
        from prompt_toolkit.application import get_app
        from prompt_toolkit.formatted_text import FormattedText

        session = self._session(multiline)
        expired = False
        keys = keys or ("Enter submits · Alt-Enter new line" if multiline else "Enter submits")

        def toolbar() -> FormattedText:
            left = timer.remaining()
            style = "class:bottom-toolbar.urgent" if left <= 10 else ""
            return FormattedText(
                [(style, f" {clock_text(left)} left · {_status(status)} · {keys} · Ctrl-C stops ")]
            )

        async def expire() -> None:
            nonlocal expired
            while timer.remaining() > 0:
                await asyncio.sleep(min(timer.remaining(), 0.2))
            app = get_app()
            if app.future is not None and not app.future.done():
                expired = True
                app.exit(result=session.default_buffer.text)

        def pre_run() -> None:
            get_app().create_background_task(expire())

        text = prompt_once(
            session,
            FormattedText([("class:prompt", "› ")]),
            bottom_toolbar=toolbar,
            refresh_interval=0.5,
            pre_run=pre_run,
            prompt_continuation="  ",
        )
        echo_answer(self.console, "› ", text)
        return TimedText(fit_answer(text), expired or timer.expired)

    def ask_ticks(self, points: Sequence[Point]) -> tuple[str, ...]:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.formatted_text import FormattedText

        _show_checklist(self.console, points)
        session: PromptSession[str] = PromptSession(
            style=_style(), input=self._input, output=self._output
        )
        while True:
            text = prompt_once(
                session,
                FormattedText([("class:prompt", "said: ")]),
                bottom_toolbar=f" {_tick_help(len(points))} ",
            )
            numbers = parse_ticks(text, len(points))
            if numbers is not None:
                return _pick(points, numbers)


class LineInput:
    """Plain lines from piped stdin: one per answer; a blank line ends a multi-line answer."""

    def __init__(self, console: Console, stream: TextIO | None = None) -> None:
        self.console = console
        self.stream = stream or sys.stdin

    def _line(self) -> str:
        line = read_line(self.stream)  # bounded: a line may never end
        if line == "":
            raise EOFError
        return line.rstrip("\r\n")

    def ask(
        self, timer: Countdown, *, status: Status, multiline: bool = False, keys: str = ""
    ) -> TimedText:
        lines = [self._line()]
        while multiline and lines[-1].strip():
            try:
                lines.append(self._line())
            except EOFError:
                break
        text = fit_answer("\n".join(lines).strip("\n"))
        for line in text.splitlines() or [""]:
            self.console.print(Text(f"> {line}"))  # echoed: no terminal shows piped input
        return TimedText(text, timer.expired)

    def ask_ticks(self, points: Sequence[Point]) -> tuple[str, ...]:
        _show_checklist(self.console, points)
        self.console.print(Text(f"said: {_tick_help(len(points))}"))
        while True:
            numbers = parse_ticks(self._line(), len(points))
            if numbers is not None:
                return _pick(points, numbers)
            self.console.print(Text(f"not understood: give {_tick_help(len(points))}"))


def default_input(console: Console) -> TimedInput:
    """The live prompt in a terminal; plain lines from stdin when either end is not a TTY."""
    if is_terminal():
        return TerminalInput(console)
    return LineInput(console, sys.stdin)
