"""Plain-text output for the listings that must be quick: `grill due`, which people run from a
shell prompt or a script many times a day (importing rich costs about 35 ms, a third of grill's
own start-up), and `grill decks show`, whose thousands of rows took rich seconds to lay out.
This module draws the same kind of table with nothing but the standard library.

`Out` decides colour and width once, as rich does: no colour with NO_COLOR (bold and dim stay)
or TERM=dumb, colour with FORCE_COLOR, otherwise only on a terminal; the width is COLUMNS, else
the terminal's, else 80. Its lines wrap at spaces to that width. `Table` looks like rich's
default table (heavy head, light body, a bold header) and folds cells that do not fit the
window. `when` is the compact local time every study listing shows, here so that the rich
listings share it.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from datetime import datetime
from typing import TextIO

__all__ = ["BOLD", "CYAN", "DIM", "ITALIC", "YELLOW", "Out", "Table", "cells", "when"]

# SGR parameters; colours are dropped under NO_COLOR, attributes kept (as rich does)
BOLD, DIM, ITALIC = "1", "2", "3"
CYAN, YELLOW = "36", "33"
_COLOURS = {CYAN, YELLOW}


def when(moment: datetime | None, now: datetime) -> str:
    """Compact local time, e.g. `04 Dec 09:00`; the year only when it is not this year's."""
    if moment is None:
        return "-"
    local = moment.astimezone(now.tzinfo)
    return f"{local:%d %b %H:%M}" if local.year == now.year else f"{local:%d %b %Y %H:%M}"


def cells(text: str) -> int:
    """Terminal columns `text` takes: wide (East Asian) characters two, combining marks none."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _fold(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns: its own line breaks kept, tabs expanded as
    rich expands them, broken at spaces, a word longer than the width cut."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.expandtabs(8).split(" "):
            candidate = f"{line} {word}" if line else word
            if cells(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            for char in word:
                if cells(line + char) > width and line:
                    lines.append(line)
                    line = ""
                line += char
        lines.append(line)
    return lines


class Out:
    """A text stream with its colour and width decided when it is made."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = sys.stdout if stream is None else stream
        env = os.environ
        self.colour = env.get("NO_COLOR", "") == ""
        if env.get("FORCE_COLOR", ""):
            self.styled = True
        elif env.get("TERM", "") in ("dumb", "unknown"):
            self.styled = False
        else:
            isatty = getattr(self.stream, "isatty", None)
            self.styled = bool(isatty and isatty())
        self.width = self._width(env.get("COLUMNS", ""))

    @staticmethod
    def _width(columns: str) -> int:
        if columns.isascii() and columns.isdigit() and int(columns) > 0:
            return int(columns)
        for fd in (0, 1, 2):  # a pipe's reader still sits at a terminal: rich looks at all three
            try:
                return os.get_terminal_size(fd).columns
            except (OSError, ValueError):
                continue
        return 80

    def style(self, text: str, *sgr: str) -> str:
        """`text` wrapped in the SGR codes `sgr` when this stream shows them."""
        codes = [c for c in sgr if c and (self.colour or c not in _COLOURS)]
        if not (self.styled and codes and text):
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def line(self, text: str = "", *sgr: str) -> None:
        """`text`, styled, wrapped at spaces to the width as rich wraps it (a word longer than
        the width is cut)."""
        for part in _fold(text, self.width):
            self.stream.write(self.style(part, *sgr) + "\n")

    def table(self, table: Table) -> None:
        for line in table.lines(self):
            self.stream.write(line + "\n")


class _Column:
    __slots__ = ("fold", "header", "right", "sgr")

    def __init__(self, header: str, right: bool, sgr: str, fold: bool) -> None:
        self.header, self.right, self.sgr, self.fold = header, right, sgr, fold


class Table:
    """Rows of text under a header, drawn in box characters like rich's default table."""

    def __init__(self, title: str = "") -> None:
        self.title = title
        self._columns: list[_Column] = []
        self._rows: list[tuple[str, ...]] = []

    def add_column(
        self, header: str, *, right: bool = False, sgr: str = "", fold: bool = True
    ) -> None:
        """A column; `right` justifies it right, `fold=False` never breaks its cells."""
        self._columns.append(_Column(header, right, sgr, fold))

    def add_row(self, *values: str) -> None:
        if len(values) != len(self._columns):
            raise ValueError(f"{len(values)} cells for {len(self._columns)} columns")
        self._rows.append(values)

    def widths(self, total: int) -> list[int]:
        """Each column's width, the widest foldable ones narrowed until the table fits `total`
        columns (or cannot narrow further: then the terminal wraps it)."""
        widths = [
            max([cells(c.header), *(cells(row[i]) for row in self._rows)])
            for i, c in enumerate(self._columns)
        ]
        over = sum(widths) + 3 * len(widths) + 1 - total
        while over > 0:
            foldable = [i for i, c in enumerate(self._columns) if c.fold and widths[i] > 1]
            if not foldable:
                break
            widest = max(foldable, key=lambda i: widths[i])
            widths[widest] -= 1
            over -= 1
        return widths

    def lines(self, out: Out) -> list[str]:
        """The table as lines of text for `out` (its width and colours)."""
        widths = self.widths(out.width)
        lines = (
            [out.style(part, ITALIC) for part in _fold(self.title, out.width)] if self.title else []
        )
        lines.append(self._rule("┏", "━", "┳", "┓", widths))
        lines += self._cells(out, [c.header for c in self._columns], widths, "┃", header=True)
        lines.append(self._rule("┡", "━", "╇", "┩", widths))
        for row in self._rows:
            lines += self._cells(out, row, widths, "│", header=False)
        lines.append(self._rule("└", "─", "┴", "┘", widths))
        return lines

    @staticmethod
    def _rule(left: str, line: str, cross: str, right: str, widths: list[int]) -> str:
        return left + cross.join(line * (w + 2) for w in widths) + right

    def _cells(
        self,
        out: Out,
        values: tuple[str, ...] | list[str],
        widths: list[int],
        bar: str,
        *,
        header: bool,
    ) -> list[str]:
        folded = [
            _fold(v, w) if c.fold else [v]
            for v, w, c in zip(values, widths, self._columns, strict=True)
        ]
        lines = []
        for k in range(max(len(f) for f in folded)):
            parts = []
            for f, w, c in zip(folded, widths, self._columns, strict=True):
                text = f[k] if k < len(f) else ""
                pad = " " * max(0, w - cells(text))
                shown = out.style(text, BOLD if header else c.sgr)
                parts.append(f" {pad}{shown} " if c.right else f" {shown}{pad} ")
            lines.append(bar + bar.join(parts) + bar)
        return lines
