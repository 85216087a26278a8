"""Text that used to end in a traceback or to mislead where it is shown: card refs in Unicode
digits, a card number too large to store, bidi overrides in answers, links in the Markdown
report."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from grill.answers import clean_answer, printable
from grill.cli import app
from grill.config import Settings
from grill.deck import load_library, parse_deck
from grill.errors import DeckError, NotFoundError, UsageError
from grill.model import MAX_CARD_NUMBER, Rating, card_number
from grill.report import gather, render
from grill.report.markdown import cell
from grill.scheduler import Scheduler
from grill.session import record_answer
from grill.store import Store
from grill.ui.timed import parse_ticks

runner = CliRunner()
NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)

DECK = """\
deck: mine
title: Mine
sections:
  - {key: A, title: A}
cards:
  - id: one
    n: NUMBER
    section: A
    question: Why warmup?
    answer: Stabilizes early updates.
    rubric:
      points:
        - {id: stable, says: stabilizes early updates, match: ["stabiliz"]}
"""


# ------------------------------------------------------------------ card refs


@pytest.mark.parametrize("ref", ["²", "٣", "７", "1²", "9" * 5000])
def test_a_ref_in_other_digits_is_no_card_not_a_traceback(ref: str) -> None:
    lib = load_library()
    with pytest.raises(NotFoundError):
        lib.card(ref)
    assert card_number(ref) is None


@pytest.mark.parametrize(
    "args", [["card", "²"], ["decks", "rubric", "²"], ["grade", "²", "-a", "x"]]
)
def test_commands_taking_a_ref_say_no_card_for_unicode_digits(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert isinstance(result.exception, NotFoundError | UsageError), result.output
    assert "no card '²'" in str(result.exception)


def test_a_batch_with_unicode_digit_refs_names_its_line(tmp_path: Path) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text('{"card": "7", "answer": "x"}\n{"card": "²", "answer": "x"}\n')
    result = runner.invoke(app, ["grade", "--batch", str(batch)])
    assert isinstance(result.exception, UsageError)
    assert str(result.exception).startswith(f"{batch}:2: no card '²'")


def test_ascii_numbers_still_name_cards() -> None:
    lib = load_library()
    assert lib.card("7").n == 7 and lib.card(" 7 ").n == 7
    assert card_number(str(MAX_CARD_NUMBER)) == MAX_CARD_NUMBER


def test_ticks_in_other_digits_are_not_understood_not_a_traceback() -> None:
    assert parse_ticks("1 ²", 3) is None and parse_ticks("1 3", 3) == (1, 3)


# ------------------------------------------------------------------ card numbers


@pytest.mark.parametrize("n", [MAX_CARD_NUMBER + 1, 2**63, 10**40])
def test_a_card_number_too_large_is_refused_by_validate(n: int) -> None:
    with pytest.raises(DeckError, match=f"'n' must be at most {MAX_CARD_NUMBER:,}"):
        parse_deck(DECK.replace("NUMBER", str(n)), "mine.yaml")


def test_the_largest_card_number_is_stored_and_reported(grill_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(DECK.replace("NUMBER", str(MAX_CARD_NUMBER)))
    lib = load_library([path])
    card = lib.card(str(MAX_CARD_NUMBER), "mine")
    with Store.open() as store:
        record_answer(store, Scheduler(enable_fuzzing=False), card, Rating.GOOD, NOW, answer="x")
    for fmt in ("json", "csv", "md"):
        result = runner.invoke(app, ["report", "-o", "-", "-f", fmt, "--deck", str(path)])
        assert result.exit_code == 0, (fmt, result.output, result.exception)
    args = ["report", "-o", "-", "-f", "json", "--deck", str(path)]
    log = json.loads(runner.invoke(app, args).stdout)["reviews"]
    assert [(r["card"], r["n"]) for r in log] == [("one", MAX_CARD_NUMBER)]


# ------------------------------------------------------------------ bidi overrides


@pytest.mark.parametrize(
    "control", [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
)
def test_bidi_overrides_are_removed_from_answers(control: str) -> None:
    assert clean_answer(f"lr {control}3-e1 warmup") == "lr 3-e1 warmup"
    assert printable(f"a{control}b") == "ab"


def test_bidi_marks_and_right_to_left_text_stay() -> None:
    text = "שלום \u200f warmup \u200e مرحبا"
    assert clean_answer(text) == text


def test_an_answer_with_an_override_is_stored_without_it(grill_home: Path) -> None:
    result = runner.invoke(app, ["review", "7", "--rating", "good", "--answer", "x\u202eyz"])
    assert result.exit_code == 0, result.output
    with Store.open() as store:
        assert [r.answer for r in store.reviews()] == ["xyz"]


# ------------------------------------------------------------------ links in the Markdown report


def _permissive() -> MarkdownIt:
    """A renderer that trusts every link, as some Markdown viewers do."""
    md = MarkdownIt("commonmark")
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    return md


@pytest.mark.parametrize(
    "text",
    [
        "[click](javascript:alert(1))",
        "![x](https://tracker.example/pixel.png)",
        "[ref][1]\n\n[1]: javascript:alert(1)",
        "<javascript:alert(1)>",
        "[a](<javascript:alert(1)>)",
    ],
)
def test_a_link_in_deck_or_answer_text_is_not_live_in_markdown(text: str) -> None:
    html = _permissive().render(cell(text))
    assert "<a " not in html and "<img" not in html, html
    assert "javascript:alert(1)" not in html or "href" not in html


def test_the_markdown_report_shows_a_link_answer_as_text(grill_home: Path) -> None:
    lib = load_library()
    card = lib.card("7")
    with Store.open() as store:
        record_answer(
            store,
            Scheduler(enable_fuzzing=False),
            card,
            Rating.AGAIN,
            NOW - timedelta(days=1),
            answer="[see](javascript:alert(document.cookie))",
        )
        markdown = render(gather(store, lib, Settings(), NOW), "md")
    assert "\\[see\\](javascript:alert(document.cookie))" in markdown
    assert "<a " not in _permissive().render(markdown)
