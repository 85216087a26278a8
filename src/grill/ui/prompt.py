"""Reading answers and keys from the person at the terminal. The only prompt_toolkit user.

Two readers with one interface (`Reader`):

- `LineReader(stream, console)`: plain lines from any text stream (piped stdin, a StringIO in
  tests). One line is one answer; no escape codes are written; EOF returns None.
- `TerminalReader()`: a real terminal via prompt_toolkit. Answers may span lines: **Enter
  submits, Alt-Enter (or Esc then Enter) starts a new line**. Keys take effect on a single
  press (no Enter needed); Enter takes the default. Ctrl-D on an empty prompt is EOF.

Both let KeyboardInterrupt (Ctrl-C) through: the drill loop turns it into the end of the session.
`reader_for(stdin, console)` picks the terminal reader only when stdin and stdout are terminals.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grill.answers import CutLine, printable, read_line
from grill.model import Rating

if TYPE_CHECKING:  # prompt_toolkit is imported on first use: it is slow to load
    from prompt_toolkit import PromptSession
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

__all__ = [
    "ANSWER_HINT",
    "LineReader",
    "Reader",
    "TerminalReader",
    "answer_keys",
    "echo_answer",
    "prompt_once",
    "reader_for",
]

ANSWER_HINT = "Enter: submit · Alt-Enter: new line · Ctrl-C: end the session"


class Reader(Protocol):
    timed: bool
    """True when response times mean something (a person typing, not a pipe)."""
    answer_hint: str

    def answer(self) -> str | None:
        """One typed answer (may be empty); None at end of input."""
        ...

    def key(self, prompt: str, keys: str, default: str) -> str | None:
        """One of `keys` (or `default` for Enter); None at end of input."""
        ...


class LineReader:
    """Plain line input from a text stream: one line per answer or key."""

    timed = False
    answer_hint = "one line per answer; end of input ends the session"

    def __init__(self, stream: TextIO, console: Console) -> None:
        self.stream = stream
        self.console = console

    def _line(self, prompt: str) -> str | None:
        self.console.print(Text(prompt), end="")
        self.console.file.flush()
        line = read_line(self.stream)  # bounded: a line may never end
        if not line:
            self.console.print()
            return None
        # echoed (piped input is not shown by any terminal), its control characters removed
        self.console.print(Text(printable(line.rstrip("\r\n"))))
        # a line cut at the length limit has no line break, and keeps the length it had
        return line if isinstance(line, CutLine) else line.rstrip("\r\n")

    def answer(self) -> str | None:
        return self._line("> ")

    def key(self, prompt: str, keys: str, default: str) -> str | None:
        while True:
            line = self._line(prompt)
            if line is None:
                return None
            choice = line.strip().lower()
            if not choice:
                return default
            if choice in _WORDS and _WORDS[choice] in keys:
                return _WORDS[choice]
            if len(choice) == 1 and choice in keys:
                return choice
            self.console.print(Text(f"type one of {', '.join(keys)}, or just Enter"))


_WORDS = {**{r.label: r.key for r in Rating}, "undo": "u", "quit": "q"}
"""Words typed for a key: a rating's word for its key (`grill.model.RATING_KEYS`), undo, quit."""


def answer_keys() -> KeyBindings:
    """The keys of every multi-line answer: Enter submits, Alt-Enter (Esc Enter, Ctrl-J) adds a
    line. Enter submitting keeps a one-line answer one key away, as people type in a drill."""
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("enter")
    def _submit(event: KeyPressEvent) -> None:
        event.current_buffer.validate_and_handle()

    @bindings.add("escape", "enter")
    @bindings.add("c-j")
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    return bindings


def echo_answer(console: Console, prompt: str, text: str) -> None:
    """A submitted answer left on screen wrapped at words, under its prompt's indent. While it is
    typed prompt_toolkit wraps at the last column, splitting words ("stea" / "dily"); so the
    prompt erases itself when done and the answer is printed again here."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Text(prompt), Text(printable(text)))
    console.print(grid)


class TerminalReader:
    """prompt_toolkit input for a real terminal (see the module docstring for the keys)."""

    timed = True
    answer_hint = ANSWER_HINT

    def __init__(self, console: Console | None = None) -> None:
        self.console = console

    def answer(self) -> str | None:
        from prompt_toolkit import PromptSession

        session: PromptSession[str] = PromptSession(
            "> ",
            multiline=True,
            key_bindings=answer_keys(),
            prompt_continuation="  ",
            erase_when_done=self.console is not None,
        )
        try:
            text = prompt_once(session)
        except EOFError:
            return None
        if self.console is not None and text.strip():  # an empty Enter leaves no empty "> "
            echo_answer(self.console, "> ", text)
        return text

    def key(self, prompt: str, keys: str, default: str) -> str | None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.key_binding import KeyBindings

        bindings = KeyBindings()
        for key in keys:
            bindings.add(key)(_exit_with(key, key))
        bindings.add("enter")(_exit_with(default))
        bindings.add("<any>")(lambda event: None)  # ignore every other key
        session: PromptSession[str] = PromptSession(prompt, key_bindings=bindings)
        try:
            return prompt_once(session)
        except EOFError:
            return None


def prompt_once(session: PromptSession[str], *args: Any, **kwargs: Any) -> str:
    """`session.prompt(...)`, with Ctrl-C always a KeyboardInterrupt: a Ctrl-C that lands while
    prompt_toolkit is still starting its event loop surfaces from asyncio as CancelledError (a
    traceback, seen once in a tmux test under load), and it is the same key."""
    import asyncio

    try:
        return session.prompt(*args, **kwargs)
    except asyncio.CancelledError:
        raise KeyboardInterrupt from None


def _exit_with(result: str, shown: str = "") -> Callable[[KeyPressEvent], None]:
    def handler(event: KeyPressEvent) -> None:
        event.current_buffer.text = shown  # left on screen: the key that was pressed
        event.app.exit(result=result)

    return handler


def reader_for(stdin: TextIO, console: Console) -> Reader:
    """The terminal reader when both ends are terminals, else plain lines."""
    if stdin.isatty() and sys.stdout.isatty() and console.is_terminal:
        return TerminalReader(console)
    return LineReader(stdin, console)
