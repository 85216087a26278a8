"""`grill export anki`, proved with the real thing: packages are imported into fresh collections
with the official `anki` package, and a re-export after an edit updates notes, not duplicates."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grill.cli import app
from grill.deck import load_library
from grill.export.anki import CARD_FIELDS, CASE_FIELDS, note_guid

anki_collection = pytest.importorskip(
    "anki.collection", reason="the `anki` package (test extra) is not installed"
)

runner = CliRunner()

DECK = """\
deck: tiny
title: Tiny deck
description: two cards and a case
sections:
  - {key: A, title: Tokens & <tags>}
cards:
  - id: pad-token
    n: 1
    section: A
    question: What does <pad> do & why?
    answer: Fills short sequences; masked out of the loss.
    explanation: |-
      It fills a batch to one length.
      The loss ignores it.
    rubric:
      points: [{id: fill, says: fills, match: [fill]}]
  - id: eos-token
    n: 2
    section: A
    question: Why an EOS token?
    answer: Marks where a document ends.
    rubric:
      points: [{id: end, says: ends, match: [end]}]
cases:
  - id: spike
    title: Loss spikes
    question: What causes sudden loss spikes?
    tests: Whether you can triage.
    covers: Culprits, triage, prevention.
    wrong_answers: Restart from scratch.
    parts:
      - id: culprits
        says: names causes
        items: [{id: bad-batch, says: a bad batch, match: [bad batch]}]
    follow_ups_text: Which layer?
    example: Roll back to the last good checkpoint and skip the batch.
    source: example.org
"""


@pytest.fixture
def collection(tmp_path: Path) -> Iterator[object]:
    (tmp_path / "anki").mkdir()
    col = anki_collection.Collection(str(tmp_path / "anki" / "collection.anki2"))
    yield col
    col.close()


def _import(col: object, package: Path) -> object:
    from anki.import_export_pb2 import (
        ImportAnkiPackageOptions,
        ImportAnkiPackageRequest,
        ImportAnkiPackageUpdateCondition,
    )

    options = ImportAnkiPackageOptions(  # Anki's own defaults: update notes if newer
        update_notes=ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER,
        update_notetypes=ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER,
    )
    request = ImportAnkiPackageRequest(package_path=str(package), options=options)
    return col.import_anki_package(request).log  # type: ignore[attr-defined]


def _export(out: Path, *deck: str) -> None:
    args = ["export", "anki", "-o", str(out)]
    for d in deck:
        args += ["--deck", d]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"Wrote {out}" in result.stdout


def _note_ids(col: object, guid: str) -> list[int]:
    # by SQL: a genanki GUID holds characters that Anki's search syntax reads as wildcards
    return list(col.db.list("select id from notes where guid = ?", guid))  # type: ignore[attr-defined]


def _fields(col: object, guid: str) -> dict[str, str]:
    (nid,) = _note_ids(col, guid)
    note = col.get_note(nid)  # type: ignore[attr-defined]
    return dict(note.items())


def test_a_deck_imports_into_anki_with_every_field_escaped(
    tmp_path: Path, collection: object
) -> None:
    deck = tmp_path / "tiny.yaml"
    deck.write_text(DECK, encoding="utf-8")
    package = tmp_path / "tiny.apkg"
    _export(package, str(deck))

    log = _import(collection, package)
    assert len(log.new) == 3  # type: ignore[attr-defined]
    assert collection.note_count() == 3  # type: ignore[attr-defined]
    assert collection.card_count() == 3  # type: ignore[attr-defined]

    pad = _fields(collection, note_guid("tiny", "pad-token"))
    assert list(pad) == list(CARD_FIELDS)
    assert pad == {
        "Question": "What does &lt;pad&gt; do &amp; why?",
        "Answer": "Fills short sequences; masked out of the loss.",
        "Explanation": "It fills a batch to one length.<br>The loss ignores it.",
        "Section": "A · Tokens &amp; &lt;tags&gt;",
        "Number": "1",
        "Id": "pad-token",
        "Deck": "tiny",
    }
    assert _fields(collection, note_guid("tiny", "eos-token"))["Explanation"] == ""
    case = _fields(collection, note_guid("tiny", "spike", case=True))
    assert list(case) == list(CASE_FIELDS)
    assert case["Question"] == "What causes sudden loss spikes?"
    assert case["Example"] == "Roll back to the last good checkpoint and skip the batch."
    assert case["Tests"] == "Whether you can triage."

    deck_names = {d.name for d in collection.decks.all_names_and_ids()}  # type: ignore[attr-defined]
    assert "grill::Tiny deck" in deck_names
    (nid,) = _note_ids(collection, note_guid("tiny", "eos-token"))
    rendered = collection.get_note(nid).cards()[0]  # type: ignore[attr-defined]
    assert "Why an EOS token?" in rendered.question()
    assert "Marks where a document ends." in rendered.answer()
    assert "Saying it out loud" not in rendered.answer()  # no empty explanation block


def test_reexport_after_an_edit_updates_the_note_instead_of_duplicating(
    tmp_path: Path, collection: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = tmp_path / "tiny.yaml"
    deck.write_text(DECK, encoding="utf-8")
    first = tmp_path / "first.apkg"
    _export(first, str(deck))
    _import(collection, first)
    guid = note_guid("tiny", "pad-token")
    (nid,) = _note_ids(collection, guid)
    cards_before = sorted(collection.find_cards("deck:*"))  # type: ignore[attr-defined]

    edited = DECK.replace("masked out of the loss.", "masked out of the loss and attention.")
    deck.write_text(edited, encoding="utf-8")
    monkeypatch.setenv("GRILL_NOW", "2026-12-03T09:00:00+00:00")  # the edit comes a day later
    second = tmp_path / "second.apkg"
    _export(second, str(deck))
    log = _import(collection, second)

    assert len(log.new) == 0  # type: ignore[attr-defined]
    assert len(log.updated) == 3  # type: ignore[attr-defined]
    assert collection.note_count() == 3  # type: ignore[attr-defined]
    assert sorted(collection.find_cards("deck:*")) == cards_before  # type: ignore[attr-defined]
    assert _note_ids(collection, guid) == [nid]
    answer = _fields(collection, guid)["Answer"]
    assert answer == "Fills short sequences; masked out of the loss and attention."


def test_the_builtin_deck_exports_every_card(tmp_path: Path, collection: object) -> None:
    package = tmp_path / "grill.apkg"
    _export(package, "training-behaviors")
    _import(collection, package)
    deck = load_library().deck("training-behaviors")
    assert len(deck.cards) == 45
    notes = len(deck.cards) + len(deck.cases)  # a case in this deck is one note with one card
    assert collection.note_count() == notes  # type: ignore[attr-defined]
    assert collection.card_count() == notes  # type: ignore[attr-defined]
    card = deck.card("7")
    assert card is not None
    fields = _fields(collection, note_guid("training-behaviors", card.id))
    assert fields["Number"] == "7" and fields["Id"] == card.id
    assert fields["Section"] == f"{card.section} · {deck.section_title(card.section)}"


def test_a_wrong_extension_is_refused(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "grill", "export", "anki", "-o", str(tmp_path / "x.zip")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Anki packages end in .apkg" in proc.stderr
    assert not (tmp_path / "x.zip").exists()


def test_genanki_is_not_loaded_when_grill_starts() -> None:
    code = "import sys, grill.cli; sys.exit('genanki' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_nothing_is_left_in_the_temp_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr("tempfile.tempdir", None)  # re-read TMPDIR
    _export(tmp_path / "grill.apkg", "training-behaviors")
    assert list(scratch.iterdir()) == []  # genanki's own temporary collection is gone too
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["grill.apkg"]


def test_an_unwritable_place_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a file, not a folder")
    place = tmp_path / "file" / "x.apkg"
    result = runner.invoke(app, ["export", "anki", "-o", str(place)])
    assert result.exit_code == 1
    assert str(result.exception).startswith(f"cannot write {place}: ")
