"""grill.ui.plain draws `grill due` without rich: the same table rich would draw, folded to the
window when it does not fit, coloured only where rich would colour."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from grill.ui.plain import BOLD, CYAN, DIM, Out, Table, cells, when


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _out(monkeypatch: pytest.MonkeyPatch, *, tty: bool = False, **env: str) -> Out:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Out(_Tty() if tty else io.StringIO())


def _written(out: Out) -> str:
    stream = out.stream
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=14)


@settings(max_examples=60, deadline=None)
@given(
    headers=st.lists(_WORD, min_size=1, max_size=4),
    rows=st.lists(st.lists(_WORD, min_size=4, max_size=4), max_size=5),
    right=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_a_table_that_fits_is_drawn_as_rich_draws_it(
    headers: list[str], rows: list[list[str]], right: list[bool]
) -> None:
    ours, theirs = Table(), RichTable(box=box.HEAVY_HEAD)
    for header, r in zip(headers, right, strict=False):
        ours.add_column(header, right=r)
        theirs.add_column(header, justify="right" if r else "left")
    for row in rows:
        ours.add_row(*row[: len(headers)])
        theirs.add_row(*row[: len(headers)])
    console = Console(file=io.StringIO(), width=200, color_system=None, legacy_windows=False)
    console.print(theirs)
    out = Out(io.StringIO())
    out.width = 200
    out.table(ours)
    assert isinstance(console.file, io.StringIO)
    assert _written(out) == console.file.getvalue()


def test_a_table_too_wide_folds_its_foldable_columns_to_the_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = _out(monkeypatch, COLUMNS="30")
    table = Table("Due now: 2")
    table.add_column("#", right=True, fold=False)
    table.add_column("id")
    table.add_column("due", fold=False)
    table.add_row("1", "small-batch-generalization-and-sharp-minima", "04 Dec 09:00")
    table.add_row("12", "lr-finder", "05 Dec 10:30")
    out.table(table)
    lines = _written(out).splitlines()
    assert lines[0] == "Due now: 2"
    assert max(cells(line) for line in lines) == 30
    body = [line.split("│")[1:4] for line in lines if line.startswith("│")]
    assert "".join(cell.strip() for _, cell, _ in body) == (
        "small-batch-generalization-and-sharp-minima" + "lr-finder"
    )
    # a new row starts where # shows; the numbers and dates are never broken
    assert [(n.strip(), d.strip()) for n, _, d in body if n.strip()] == [
        ("1", "04 Dec 09:00"),
        ("12", "05 Dec 10:30"),
    ]


def test_words_fold_at_spaces_and_wide_characters_count_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert cells("学习率") == 6 and cells("é") == 1 and cells("e\u0301") == 1
    out = _out(monkeypatch, COLUMNS="16")
    table = Table()
    table.add_column("deck")
    table.add_row("my deck 学习率")
    out.table(table)
    lines = _written(out).splitlines()
    assert [line.strip("┃│ ") for line in lines[1:] if line[0] in "┃│"] == [
        "deck",
        "my deck",
        "学习率",
    ]
    assert {cells(line) for line in lines} == {cells(lines[0])}  # every line as wide as the box


def test_colour_only_on_a_terminal_and_never_under_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _out(monkeypatch).style("x", BOLD) == "x"  # a pipe or a file: plain
    assert _out(monkeypatch, tty=True).style("x", BOLD, CYAN) == "\x1b[1;36mx\x1b[0m"
    # NO_COLOR drops colours and keeps bold and dim, as rich does
    assert _out(monkeypatch, tty=True, NO_COLOR="1").style("x", BOLD, CYAN) == "\x1b[1mx\x1b[0m"
    assert _out(monkeypatch, tty=True, NO_COLOR="1").style("x", CYAN) == "x"
    assert _out(monkeypatch, tty=True, TERM="dumb").style("x", DIM) == "x"
    assert _out(monkeypatch, FORCE_COLOR="1").style("x", DIM) == "\x1b[2mx\x1b[0m"


def test_width_is_columns_else_the_terminal_else_80(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _out(monkeypatch, COLUMNS="57").width == 57
    monkeypatch.setattr("os.get_terminal_size", _no_terminal)
    assert _out(monkeypatch).width == 80
    assert _out(monkeypatch, COLUMNS="wide").width == 80


def _no_terminal(fd: int = 1) -> object:
    raise OSError("not a terminal")


def test_when_is_local_time_with_the_year_only_when_it_differs() -> None:
    now = datetime(2026, 12, 2, 9, tzinfo=UTC)
    assert when(datetime(2026, 12, 4, 9, 5, tzinfo=UTC), now) == "04 Dec 09:05"
    assert when(datetime(2027, 1, 4, 9, 5, tzinfo=UTC), now) == "04 Jan 2027 09:05"
    assert when(None, now) == "-"


def test_lines_wrap_at_spaces_to_the_width(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _out(monkeypatch, COLUMNS="20", tty=True)
    out.line("In learning steps, due soon: warmup-why", DIM)
    out.line("a-single-word-longer-than-the-window")
    assert _written(out).splitlines() == [
        "\x1b[2mIn learning steps,\x1b[0m",
        "\x1b[2mdue soon: warmup-why\x1b[0m",  # each line styled on its own
        "a-single-word-longer",
        "-than-the-window",
    ]


def test_line_breaks_and_tabs_in_a_cell_stay_inside_the_box(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = _out(monkeypatch, COLUMNS="40")
    table = Table("A title longer than the forty columns of this window")
    table.add_column("question")
    table.add_row("first line\nsecond\tline")
    out.table(table)
    lines = _written(out).splitlines()
    assert lines[:2] == ["A title longer than the forty columns of", "this window"]
    body = [line for line in lines if line.startswith("│")]
    assert [line.strip("│ ") for line in body] == ["first line", "second  line"]
    assert len({cells(line) for line in lines[2:]}) == 1  # every line of the box as wide
