"""`grill grade`: judge a typed answer to a card or case, one at a time or as a JSON-lines batch."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from grill.answers import MAX_ANSWER_BYTES, answer_too_long, clean_answer
from grill.cli.common import DeckOpt, JsonOpt, library, out, print_json, split_deck_option
from grill.errors import UsageError
from grill.files import is_stdout, read_capped
from grill.grader import grade as grade_card
from grill.grader import grade_batch, grade_case, resolve_ref
from grill.model import Case
from grill.ui.grade import render_case_grade, render_grade

__all__ = ["MAX_BATCH_BYTES", "grade"]

MAX_BATCH_BYTES = 32 * 1024 * 1024
"""A batch is read no further: 3,000 answers of the longest kind, or about 50,000 usual ones."""


def grade(
    ref: Annotated[
        str | None, typer.Argument(help="Card id (warmup-why), number (7) or case id (spike).")
    ] = None,
    answer: Annotated[
        str | None, typer.Option("--answer", "-a", help="The typed answer.", show_default=False)
    ] = None,
    answer_file: Annotated[
        Path | None,
        typer.Option("--answer-file", help="Read the answer from a file ('-': stdin)."),
    ] = None,
    batch: Annotated[
        Path | None,
        typer.Option(
            "--batch",
            help='JSON lines {"card": REF, "answer": TEXT} (\'-\': stdin); prints one JSON'
            " result per line.",
        ),
    ] = None,
    deck: DeckOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Grade a typed answer: verdict, key points hit and missed, misconceptions flagged.

    Example: grill grade 21 --answer "1.0 on the global norm"
    """
    _, names = split_deck_option(deck)
    lib = library(deck)
    home = names[0] if names else None
    if batch is not None:
        if ref is not None or answer is not None or answer_file is not None:
            raise UsageError("--batch takes no card and no --answer/--answer-file")
        text = _read(batch, MAX_BATCH_BYTES, f"a batch is limited to {MAX_BATCH_BYTES // 2**20} MB")
        source = "standard input" if is_stdout(batch) else str(batch)
        for result in grade_batch(lib, text, source, home):
            sys.stdout.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
        return
    if ref is None:
        raise UsageError("name a card or case to grade (or use --batch FILE)")
    text = clean_answer(_answer(answer, answer_file))  # capped, control characters out
    target = resolve_ref(lib, ref, home)
    if isinstance(target, Case):
        case_result = grade_case(target, text)
        if as_json:
            print_json(case_result.to_dict())
        else:
            render_case_grade(out(), case_result, target)
        return
    result = grade_card(target, text)
    if as_json:
        print_json(result.to_dict())
    else:
        render_grade(out(), result)


def _answer(answer: str | None, answer_file: Path | None) -> str:
    if (answer is None) == (answer_file is None):
        raise UsageError("give the answer with exactly one of --answer TEXT or --answer-file FILE")
    if answer is not None:
        return answer
    assert answer_file is not None
    return _read(answer_file, MAX_ANSWER_BYTES, answer_too_long("more than 10,000"))


def _read(path: Path, limit: int, too_long: str) -> str:
    """The UTF-8 text of `path` ('-': stdin), read no further than `limit` bytes."""
    try:
        return read_capped(path, limit, too_long).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise UsageError(f"cannot read {path}: {reason}") from None
