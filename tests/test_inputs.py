"""Endless input through the real command line: an answer file, a batch, a CSV, a deck or the
drill's stdin that never ends is read only as far as its limit, in a process whose memory is
capped (RLIMIT_AS), and refused in one line; what is not a regular file in the decks folder is
skipped with a warning instead of hanging every command. The endless sources are a writer that
never stops, behind a pipe or a FIFO made in tmp_path, never a real device node."""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from grill.answers import MAX_ANSWER_CHARS, CutLine, clean_answer, read_line
from grill.errors import UsageError

MEMORY = 512 * 1024 * 1024  # grill needs about 100 MB; endless input would need all there is
NOW = "2026-12-02T09:00:00+00:00"
DECK = """\
deck: mine
title: Mine
sections:
  - {key: A, title: A}
cards:
  - id: one
    n: 1
    section: A
    question: Why warmup?
    answer: Stabilizes early updates.
    rubric:
      points:
        - {id: stable, says: stabilizes early updates, match: ["stabiliz"]}
"""


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def _capping(memory: int) -> Callable[[], None]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return cap


_WRITER = (
    "import sys\n"
    "chunk, left = (sys.argv[1] * 65536).encode(), int(sys.argv[2])\n"
    "out = open(sys.argv[3], 'wb') if len(sys.argv) > 3 else sys.stdout.buffer\n"
    "try:\n"
    "    while left:\n"
    "        out.write(chunk)\n"
    "        left -= 1\n"
    "except (BrokenPipeError, OSError):\n"
    "    pass\n"
)


@contextmanager
def endless(text: str, into: Path | None = None, chunks: int = -1) -> Iterator[IO[bytes] | None]:
    """A writer of `text` (forever, or `chunks` times 65,536 of it): to its stdout (yielded, to
    give as stdin) or into a FIFO."""
    args = [sys.executable, "-c", _WRITER, text, str(chunks), *([str(into)] if into else [])]
    writer = subprocess.Popen(args, stdout=None if into else subprocess.PIPE)
    try:
        yield writer.stdout
    finally:
        writer.kill()
        writer.wait(timeout=30)
        if writer.stdout is not None:
            writer.stdout.close()


def grill(
    home: Path, *args: str, stdin: IO[bytes] | bytes | None = None, memory: int = MEMORY
) -> Run:
    env = dict(os.environ, GRILL_HOME=str(home), GRILL_NOW=NOW, NO_COLOR="1", COLUMNS="100")
    env.pop("GRILL_DEBUG", None)
    given = stdin if isinstance(stdin, bytes) else None
    proc = subprocess.run(
        [sys.executable, "-m", "grill", *args],
        input=given,
        stdin=None if given is not None else (stdin or subprocess.DEVNULL),
        capture_output=True,
        env=env,
        timeout=120,
        preexec_fn=_capping(memory),
    )
    return Run(proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode())


def one_line_error(run: Run, code: int) -> str:
    assert run.code == code, run
    assert "Traceback" not in run.err and "MemoryError" not in run.err, run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    return lines[0]


# ------------------------------------------------------------------ grill grade


def test_yes_into_an_answer_on_stdin_is_refused(tmp_path: Path) -> None:
    with endless("y\n") as pipe:
        run = grill(tmp_path, "grade", "7", "--answer-file", "-", stdin=pipe)
    line = one_line_error(run, 2)
    assert line == (
        "error: standard input: the answer is more than 10,000 characters long; grill takes"
        " answers of up to 10,000 characters (about 1,500 words)"
    )


def test_an_endless_answer_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "answer.txt"
    os.mkfifo(fifo)
    with endless("0", into=fifo):
        line = one_line_error(grill(tmp_path, "grade", "7", "--answer-file", str(fifo)), 2)
    assert line.startswith(f"error: {fifo}: the answer is more than 10,000 characters long")


def test_an_answer_file_within_the_limit_is_graded(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("é" * MAX_ANSWER_CHARS)  # 20,000 bytes: the limit is in characters
    run = grill(tmp_path, "grade", "7", "--answer-file", str(answer), "--json")
    assert run.code == 0, run.err
    run = grill(tmp_path, "grade", "7", "--answer-file", "-", "--json", stdin=b"warmup\n")
    assert run.code == 0 and '"verdict"' in run.out, run.err


def test_an_endless_batch_is_refused(tmp_path: Path) -> None:
    with endless('{"card": "7", "answer": "x"}\n') as pipe:
        line = one_line_error(grill(tmp_path, "grade", "--batch", "-", stdin=pipe), 2)
    assert line == "error: standard input: a batch is limited to 32 MB"


@pytest.mark.parametrize(
    "line",
    ['{"card": "7", "answer": "x", "n": 1' + "0" * 5000 + "}", "[" * 100_000 + "]" * 100_000],
)
def test_a_batch_line_too_large_to_read_is_one_line(tmp_path: Path, line: str) -> None:
    batch = tmp_path / "answers.jsonl"
    batch.write_text('{"card": "7", "answer": "warmup"}\n' + line + "\n")
    error = one_line_error(grill(tmp_path, "grade", "--batch", str(batch)), 2)
    assert error == f"error: {batch}:2: JSON with a number or a nesting too large to read"


# ------------------------------------------------------------------ decks


def test_decks_validate_of_an_endless_stream_is_refused(tmp_path: Path) -> None:
    with endless("deck: x\n") as pipe:
        run = grill(tmp_path, "decks", "validate", "/dev/stdin", stdin=pipe)
    line = one_line_error(run, 2)
    assert line.endswith(":1:1: file is over 5 MB; decks are limited to 5 MB")


def test_decks_validate_reads_a_deck_from_a_pipe(tmp_path: Path) -> None:
    run = grill(tmp_path, "decks", "validate", "/dev/stdin", stdin=DECK.encode())
    assert run.code == 0 and "1 cards" in run.out, run.err


def test_a_deck_that_is_a_symlink_to_an_endless_fifo_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "zero"
    os.mkfifo(fifo)
    (tmp_path / "mine.yaml").symlink_to(fifo)
    with endless("0", into=fifo):
        run = grill(tmp_path / "home", "due", "--deck", str(tmp_path / "mine.yaml"))
    assert "file is over 5 MB; decks are limited to 5 MB" in one_line_error(run, 2)


def test_decks_new_from_an_endless_csv_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "questions.csv"
    os.mkfifo(fifo)
    with endless("q,a\n", into=fifo):
        run = grill(tmp_path, "decks", "new", "mine", "--from-csv", str(fifo))
    line = one_line_error(run, 2)
    assert line == f"error: {fifo}: a CSV of questions is limited to 5 MB"


@pytest.mark.parametrize("kind", ["fifo", "loop", "dangling"])
def test_what_is_not_a_regular_file_in_decks_is_skipped_with_a_warning(
    tmp_path: Path, kind: str
) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "mine.yaml").write_text(DECK)
    odd = decks / "odd.yaml"
    if kind == "fifo":
        os.mkfifo(odd)  # nothing ever writes it: reading it would hang
    elif kind == "loop":
        odd.symlink_to(decks / "loop.yaml")
        (decks / "loop.yaml").symlink_to(odd)
    else:
        odd.symlink_to(decks / "gone.yaml")
    run = grill(tmp_path, "decks", "list", "--json")
    assert run.code == 0, run.err
    assert '"name": "mine"' in run.out
    why = {
        "fifo": "it is a named pipe",
        "loop": "Too many levels of symbolic links",
        "dangling": "No such file or directory",
    }[kind]
    assert f"grill: skipped {odd}: {why}, not a deck file" in run.err.splitlines()
    assert "Traceback" not in run.err


# ------------------------------------------------------------------ the drill's stdin


LINE_CHUNKS = 4_800  # a line of 300 MB without a line break, into a process capped at 256 MB
SMALL = 256 * 1024 * 1024


def test_a_line_longer_than_memory_into_the_drill_is_refused(tmp_path: Path) -> None:
    with endless("y", chunks=LINE_CHUNKS) as pipe:
        run = grill(tmp_path, "drill", stdin=pipe, memory=SMALL)
    assert run.code == 0 and "Traceback" not in run.err, run.err[-2000:]
    assert "the answer is 314,572,800 characters long; grill takes answers of up" in run.out


def test_a_mock_answer_longer_than_memory_is_cut(tmp_path: Path) -> None:
    args = ("mock", "--section", "Q", "--count", "1", "--seed", "1")
    with endless("y", chunks=LINE_CHUNKS) as pipe:
        run = grill(tmp_path, *args, stdin=pipe, memory=SMALL)
    assert "Traceback" not in run.err, run.err[-2000:]
    assert "answered cold" in run.out


def test_read_line_bounds_a_long_line_and_resumes_on_the_next() -> None:
    stream = io.StringIO("y" * 25 + "\r\nnext\n" + "z" * 10 + "\n" + "w" * 11)
    cut = read_line(stream, 10)
    assert cut == "y" * 11 and isinstance(cut, CutLine) and cut.length == 25
    assert read_line(stream, 10) == "next\n"  # the rest of the long line was dropped
    assert read_line(stream, 10) == "z" * 10 + "\n"  # at the limit, kept whole
    last = read_line(stream, 10)
    assert last == "w" * 11 and isinstance(last, CutLine) and last.length == 11
    assert read_line(stream, 10) == ""


def test_a_cut_line_is_refused_with_the_length_it_had() -> None:
    line = read_line(io.StringIO("y" * 30_000 + "\n"))
    with pytest.raises(UsageError, match="the answer is 30,000 characters long"):
        clean_answer(line)


def test_a_deck_given_as_a_symlink_loop_is_one_located_line(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    run = grill(tmp_path / "home", "due", "--deck", str(tmp_path / "a.yaml"))
    assert one_line_error(run, 2).endswith(
        "a.yaml:1:1: cannot read: Too many levels of symbolic links"
    )
