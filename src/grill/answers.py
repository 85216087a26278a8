"""Typed answers as grill accepts them: any Unicode, cleaned of what could harm a terminal or
the database, and capped in length.

`clean_answer(text)`:
  - line breaks become `\\n` (`\\r\\n` and lone `\\r` included), tabs stay;
  - other control characters (C0, DEL, C1: the escape sequences a paste can carry) are removed,
    so an answer shown back never drives the terminal;
  - the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) are
    removed, so an answer shown back in a terminal, a report or Anki reads in the order it was
    stored (a U+202E makes "lr 1e-3" display reversed); the marks LRM and RLM stay, harmless;
  - lone surrogates (undecodable bytes from a terminal or argv) become U+FFFD, so any text can
    be stored as UTF-8;
  - more than `MAX_ANSWER_CHARS` characters is refused with a UsageError saying the limit (an
    answer is a few sentences; a 1 MB paste is a mistake, and grading it would be slow).
Empty text is a valid answer (graded as wrong, never an error).

Input is read with the same bound, so endless input (`/dev/zero`, `yes |`, a line that never
ends) never fills the memory: an answer file is read up to `MAX_ANSWER_BYTES`, and
`read_line(stream)` takes at most one character more than the limit from a line, reading the
rest of a longer one and dropping it, so the next read starts on the next line.
"""

from __future__ import annotations

import re
from typing import TextIO

from grill.errors import UsageError

__all__ = [
    "BIDI",
    "CONTROL",
    "MAX_ANSWER_BYTES",
    "CutLine",
    "MAX_ANSWER_CHARS",
    "answer_too_long",
    "clean_answer",
    "printable",
    "read_line",
]

MAX_ANSWER_CHARS = 10_000
"""About 1,500 words: far more than any answer to a card or a case needs."""
MAX_ANSWER_BYTES = 4 * MAX_ANSWER_CHARS
"""The most bytes an answer within the limit can take in UTF-8 (4 a character at most)."""

_NEWLINES = re.compile(r"\r\n?")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters other than tab and line feed (C0, DEL, C1): never printed, never stored."""
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""Bidirectional embeddings, overrides and isolates: they reorder the text shown after them."""
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_answer(text: str) -> str:
    """The answer as stored and graded (see the module docstring); idempotent."""
    if len(text) > MAX_ANSWER_CHARS:
        raise UsageError(answer_too_long(f"{getattr(text, 'length', len(text)):,}"))
    text = _NEWLINES.sub("\n", text)
    return _SURROGATE.sub("\ufffd", printable(text))


def printable(text: str) -> str:
    """`text` fit to echo on a terminal: without control characters or bidi overrides."""
    return BIDI.sub("", CONTROL.sub("", text))


def answer_too_long(length: str) -> str:
    """Why an answer of `length` characters (`more than 10,000` when unknown) is refused."""
    return (
        f"the answer is {length} characters long; grill takes answers of up to"
        f" {MAX_ANSWER_CHARS:,} characters (about 1,500 words)"
    )


class CutLine(str):
    """A line cut by `read_line`: its first characters, and `length`, the length it had."""

    length: int


def read_line(stream: TextIO, limit: int = MAX_ANSWER_CHARS) -> str:
    """The next line of `stream` with its line break ('' at the end of input). A line longer
    than `limit` is cut at `limit + 1` characters (a CutLine, which `clean_answer` refuses
    with the length it had): the rest is read in pieces, counted and dropped."""
    line = stream.readline(limit + 1)
    if len(line) <= limit or line.endswith("\n"):
        return line
    length = len(line)
    while (rest := stream.readline(limit + 1)) and not rest.endswith("\n"):
        length += len(rest)
    cut = CutLine(line)
    cut.length = length + len(rest.rstrip("\r\n"))
    return cut
