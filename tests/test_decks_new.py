"""`grill decks new NAME --from-csv FILE`: a CSV of questions becomes a deck that loads, with
rubric stubs; bad rows are named; nothing is overwritten without --force."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grill.cli import app
from grill.deck import dump_deck, load_deck, load_library, parse_deck
from grill.errors import UsageError
from grill.export.csv_deck import CsvCard, deck_data
from grill.grader import phrase_error
from grill.model import Card

runner = CliRunner()

CSV = """\
question,answer,explanation
Why warmup?,Stabilizes early gradients; optimizer state forms; prevents divergence,"Adam needs
a few hundred steps."
"Flat early loss, what first?",LR too low; frozen weights,
What is (x|y) in a rubric?,{either} one,
"""


def _new(*args: str) -> tuple[int, str, BaseException | None]:
    result = runner.invoke(app, ["decks", "new", *args])
    return result.exit_code, result.stdout, result.exception


def test_a_csv_becomes_a_deck_that_loads(tmp_path: Path, grill_home: Path) -> None:
    source = tmp_path / "mine.csv"
    source.write_text(CSV, encoding="utf-8")
    code, stdout, _ = _new("mine", "--from-csv", str(source))
    assert code == 0, stdout
    path = grill_home / "decks" / "mine.yaml"
    assert f"Wrote deck 'mine' to {path}: 3 cards, 6 key points." in stdout
    assert f"grill decks validate {path}" in stdout and "docs/rubrics.md" in stdout

    deck = load_deck(path)
    assert [(c.n, c.id, c.section) for c in deck.cards] == [
        (1, "warmup", "A"),
        (2, "flat-early-loss-first", "A"),
        (3, "x-y-rubric", "A"),
    ]
    warmup = deck.cards[0]
    assert warmup.question == "Why warmup?"
    assert warmup.answer == "Stabilizes early gradients; optimizer state forms; prevents divergence"
    assert warmup.explanation == "Adam needs\na few hundred steps."
    assert [p.says for p in warmup.rubric.points] == [
        "Stabilizes early gradients",
        "optimizer state forms",
        "prevents divergence",
    ]
    # derived phrasings: any half of an item's words, and the whole item as the grader reads it
    assert warmup.rubric.points[0].match == (
        "stabl early",
        "stabl grad",
        "early grad",
        "stabl early grad",
    )
    assert warmup.rubric.generated
    assert deck.cards[1].explanation is None
    # the phrase language's operators are taken out of the phrases, kept in what it says
    assert deck.cards[2].rubric.points[0].says == "{either} one"
    assert all(phrase_error(m) is None for m in deck.cards[2].rubric.points[0].match)
    assert [c.id for c in load_library().cards("mine")] == [c.id for c in deck.cards]
    assert runner.invoke(app, ["decks", "validate", str(path)]).exit_code == 0


def test_the_header_row_is_optional(tmp_path: Path) -> None:
    with_header, without = tmp_path / "a.csv", tmp_path / "b.csv"
    with_header.write_text("Question,Answer\nWhy clip?,Bounds the update\n", encoding="utf-8")
    without.write_text("Why clip?,Bounds the update\n", encoding="utf-8")
    assert _new("a", "--from-csv", str(with_header), "-o", str(tmp_path / "a.yaml"))[0] == 0
    assert _new("a", "--from-csv", str(without), "-o", str(tmp_path / "b.yaml"))[0] == 0
    assert (tmp_path / "a.yaml").read_text().replace("a.csv", "b.csv") == (
        tmp_path / "b.yaml"
    ).read_text()
    assert len(load_deck(tmp_path / "a.yaml").cards) == 1


def test_tabs_in_a_tsv_and_a_byte_order_mark(tmp_path: Path) -> None:
    source = tmp_path / "cards.tsv"
    source.write_bytes("\ufeffWhy clip?\tBounds the update, mostly\n".encode())
    out = tmp_path / "t.yaml"
    assert _new("t", "--from-csv", str(source), "-o", str(out))[0] == 0
    assert load_deck(out).cards[0].answer == "Bounds the update, mostly"


def test_an_existing_file_is_kept_without_force(tmp_path: Path) -> None:
    source = tmp_path / "q.csv"
    source.write_text("Why clip?,Bounds the update\n", encoding="utf-8")
    out = tmp_path / "q.yaml"
    out.write_text("mine\n")
    code, _, exc = _new("q", "--from-csv", str(source), "-o", str(out))
    assert isinstance(exc, UsageError) and exc.exit_code == 2
    assert "already exists; add --force" in str(exc)
    assert out.read_text() == "mine\n"
    assert _new("q", "--from-csv", str(source), "-o", str(out), "--force")[0] == 0
    assert load_deck(out).name == "q"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q,a\nWhy?\n", "row 2: no answer"),
        ("Why?,\n", "row 1: no answer"),
        (",An answer\n", "row 1: the question is empty"),
        ("Why?,a,b,c\n", "row 1: 4 columns; expected question, answer[, explanation]"),
        ("Why?,;;\n", "row 1: the answer has no words to match"),
        ("question,answer\n\n", "no questions found"),
        ('Why?,"never closed\n', "unexpected end of data"),
    ],
)
def test_a_bad_csv_names_the_row(tmp_path: Path, text: str, message: str) -> None:
    source = tmp_path / "bad.csv"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "bad.yaml"
    code, _, exc = _new("bad", "--from-csv", str(source), "-o", str(out))
    assert isinstance(exc, UsageError), exc
    assert f"{source}: " in str(exc) and message in str(exc)
    assert not out.exists()


def test_every_bad_row_is_listed(tmp_path: Path) -> None:
    source = tmp_path / "bad.csv"
    source.write_text("Why?,fine\nNo answer\nAlso,fine\n,orphan\n", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        runner.invoke(app, ["decks", "new", "b", "--from-csv", str(source)], catch_exceptions=False)
    assert str(caught.value).splitlines() == [
        f"{source}: row 2: no answer (expected question, answer[, explanation])",
        f"{source}: row 4: the question is empty",
    ]


def test_not_utf8_bad_names_and_taken_names(tmp_path: Path) -> None:
    latin = tmp_path / "latin.csv"
    latin.write_bytes("Caf\xe9?,Coffee\n".encode("latin-1"))
    assert "not UTF-8" in str(_new("x", "--from-csv", str(latin))[2])
    good = tmp_path / "good.csv"
    good.write_text("Why?,Because\n", encoding="utf-8")
    assert "must be a slug" in str(_new("My Deck", "--from-csv", str(good))[2])
    taken = _new("training-behaviors", "--from-csv", str(good))[2]
    assert "already a deck named 'training-behaviors'" in str(taken)
    assert "cannot read" in str(_new("x", "--from-csv", str(tmp_path / "missing.csv"))[2])


_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85")
    | st.just("\n"),
    min_size=1,
    max_size=40,
).map(str.strip)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(_TEXT, _TEXT, _TEXT), min_size=1, max_size=4))
def test_any_text_round_trips_through_yaml(rows: list[tuple[str, str, str]]) -> None:
    cards = [
        CsvCard(i + 2, q or "?", a + " x", e or None)  # " x": every answer has a word to match
        for i, (q, a, e) in enumerate(rows)
    ]
    deck = parse_deck(dump_deck(deck_data("any", "Any", cards)), "any.yaml")
    assert [(c.question, c.answer, c.explanation) for c in deck.cards] == [
        (c.question, c.answer, c.explanation) for c in cards
    ]


def test_a_card_without_an_explanation_reads_the_claims_of_the_card_it_shortens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from grill.grader import grade

    cards = [
        CsvCard(
            2,
            "Token budget rule for model size?",
            "Grow tokens with parameters.",
            "Double the parameters, double the training tokens; keep the ratio near twenty.",
        ),
        CsvCard(3, "Token budget rule?", "Grow tokens."),
        CsvCard(4, "Why clip?", "Stops spikes.", "A cap on the global norm stops one bad step."),
    ]

    def short() -> Card:
        deck = parse_deck(dump_deck(deck_data("any", "Any", cards)), "any.yaml")
        return next(c for c in deck.cards if c.question == "Token budget rule?")

    assert grade(short(), "grow the tokens as the model grows").verdict.label == "correct"
    turned = "grow tokens and cut the parameters"
    assert grade(short(), turned).verdict.label == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.sibling")
    assert grade(short(), turned).verdict.label != "wrong"


def test_a_card_without_an_explanation_sees_the_card_it_shortens() -> None:
    from grill.grader import grade

    cards = [
        CsvCard(
            2,
            "Critical batch size?",
            "Beyond it, more batch is wasted.",
            "It is task-dependent: small for easy tasks, millions of tokens for hard ones.",
        ),
        CsvCard(3, "Critical batch size is?", "The saturation point."),
        CsvCard(4, "Why clip?", "Stops spikes.", "A cap on the global norm stops one bad step."),
    ]
    data = deck_data("any", "Any", cards)
    assert [c.get("see") for c in data["cards"]] == [None, data["cards"][0]["id"], None]
    deck = parse_deck(dump_deck(data), "any.yaml")
    short = next(c for c in deck.cards if c.question == "Critical batch size is?")
    assert short.explanation is None
    assert short.context is not None and "task-dependent" in short.context
    # the card's checks read the card it sees: its "task-dependent" makes "whatever the task" wrong
    # (the rubric derived from it, or the `absolute` check)
    got = grade(short, "the saturation point, the same 8M tokens whatever the task")
    assert got.verdict.label == "wrong"
    assert {f.id for f in got.flags} <= {"absolute", "dependence-denied"} and got.flags
    assert grade(short, "the saturation point").verdict.label == "correct"


def _made(tmp_path: Path) -> Path:
    source = tmp_path / "mine.csv"
    source.write_text(CSV, encoding="utf-8")
    deck = tmp_path / "mine.yaml"
    assert _new("mine", "--from-csv", str(source), "-o", str(deck))[0] == 0
    return deck


def _rederive(*args: str) -> tuple[int, str, BaseException | None]:
    result = runner.invoke(app, ["decks", "rederive", *args])
    return result.exit_code, " ".join(result.stdout.split()), result.exception


def test_rederive_derives_again_only_the_rubrics_not_yet_reviewed(tmp_path: Path) -> None:
    """A deck made by an older grill: one generated rubric stale, one reviewed by its author.
    The stale one is derived as a new deck would be; the reviewed one is kept, as is the
    file's opening comment; a second run changes nothing."""
    deck = _made(tmp_path)
    fresh = deck.read_text(encoding="utf-8")
    # the first card's rubric stale and still generated; the second reviewed, with a phrase
    # an author added by hand
    text = fresh.replace("    generated: true\n", "    generated: true\n    correct: 1\n", 1)
    second = text.index("    generated: true\n", text.index("correct: 1"))
    text = text[:second] + text[second:].replace("    generated: true\n", "", 1)
    text = text.replace("      - lr low\n", "      - lr low\n      - lr far too small\n", 1)
    deck.write_text(text, encoding="utf-8")
    code, said, _ = _rederive(str(deck), "--dry-run")
    assert code == 0 and "1 of 2 generated rubric(s) would change" in said
    assert deck.read_text(encoding="utf-8") == text  # a dry run writes nothing
    code, said, _ = _rederive(str(deck))
    assert code == 0 and "1 of 2 generated rubric(s) changed" in said
    again = deck.read_text(encoding="utf-8")
    assert again.startswith("# Made by `grill decks new mine")
    assert "correct: 1" not in again  # derived as a new deck would be
    assert "lr far too small" in again  # the reviewed rubric is the author's
    assert parse_deck(again, str(deck)).cards[0].rubric == parse_deck(fresh, "x").cards[0].rubric
    assert _rederive(str(deck))[1].endswith("0 of 2 generated rubric(s) changed")


def test_rederive_keeps_comments_unless_forced_and_names_a_missing_file(tmp_path: Path) -> None:
    deck = _made(tmp_path)
    text = deck.read_text(encoding="utf-8").replace(
        "    generated: true\n", "    generated: true  # look at this one\n    correct: 1\n", 1
    )
    deck.write_text(text, encoding="utf-8")
    code, _, exc = _rederive(str(deck))
    assert code != 0 and isinstance(exc, UsageError) and "--force" in str(exc)
    assert deck.read_text(encoding="utf-8") == text
    assert _rederive(str(deck), "--force")[0] == 0
    assert "look at this one" not in deck.read_text(encoding="utf-8")
    code, _, exc = _rederive(str(tmp_path / "nope.yaml"))
    assert code != 0 and isinstance(exc, UsageError) and "cannot read" in str(exc)


def test_a_card_beside_another_gets_no_check_twice() -> None:
    # each card sees the other; the premise each reads from its own question is not added again
    rows = [
        CsvCard(1, "LR too low symptoms?", "Loss decreases very slowly.", "Training barely moves."),
        CsvCard(
            2, "LR too high symptoms?", "Loss bounces; NaNs.", "Updates overshoot the minimum."
        ),
    ]
    for card in deck_data("mine", "Mine", rows)["cards"]:
        matches = [tuple(w["match"]) for w in card["rubric"].get("wrong", [])]
        assert len(matches) == len(set(matches)), card["question"]
        assert any("deepened-premise" == w["id"] for w in card["rubric"]["wrong"])
