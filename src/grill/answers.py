"""Typed answers as grill accepts them: any Unicode, cleaned of what could harm a terminal or
the database, and capped in length.

`clean_answer(text)`:
  - line breaks become `\\n` (`\\r\\n` and lone `\\r` included), tabs stay;
  - other control characters (C0, DEL, C1: the escape sequences a paste can carry) are removed,
    so an answer shown back never drives the terminal;
  - lone surrogates (undecodable bytes from a terminal or argv) become U+FFFD, so any text can
    be stored as UTF-8;
  - more than `MAX_ANSWER_CHARS` characters is refused with a UsageError saying the limit (an
    answer is a few sentences; a 1 MB paste is a mistake, and grading it would be slow).
Empty text is a valid answer (graded as wrong, never an error).
"""

from __future__ import annotations

import re

from grill.errors import UsageError

__all__ = ["CONTROL", "MAX_ANSWER_CHARS", "clean_answer"]

MAX_ANSWER_CHARS = 10_000
"""About 1,500 words: far more than any answer to a card or a case needs."""

_NEWLINES = re.compile(r"\r\n?")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters other than tab and line feed (C0, DEL, C1): never printed, never stored."""
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_answer(text: str) -> str:
    """The answer as stored and graded (see the module docstring); idempotent."""
    if len(text) > MAX_ANSWER_CHARS:
        raise UsageError(
            f"the answer is {len(text):,} characters long; grill takes answers of up to"
            f" {MAX_ANSWER_CHARS:,} characters (about 1,500 words)"
        )
    text = _NEWLINES.sub("\n", text)
    text = CONTROL.sub("", text)
    return _SURROGATE.sub("\ufffd", text)
