"""Decks -> an Anki package (.apkg), written with genanki.

One note per card (question, short answer, explanation, section, number, id, deck) and one per
case (question on the front; what it tests, what a good answer covers and the model answer on the
back). Every id Anki matches on is derived from grill's ids, never from the export time: a note's
GUID from (deck, card id), the note types' and decks' ids from fixed names. So importing a new
export after editing a card updates that note in Anki, keeping its review history, instead of
adding a duplicate. Notes carry the export time as their modification time, which is what Anki's
"update if newer" compares. All text is HTML-escaped: a card about `<pad>` tokens shows `<pad>`.
"""

from __future__ import annotations

import hashlib
import html
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import genanki

from grill.errors import UsageError
from grill.files import STDOUT_HINT, is_stdout, output_path
from grill.model import Card, Case, Deck

__all__ = [
    "CARD_FIELDS",
    "CASE_FIELDS",
    "AnkiExport",
    "anki_deck_name",
    "anki_package",
    "export_anki",
    "note_guid",
]

CARD_FIELDS = ("Question", "Answer", "Explanation", "Section", "Number", "Id", "Deck")
CASE_FIELDS = ("Question", "Title", "Tests", "Covers", "Example", "Source", "Id", "Deck")

_CSS = """\
.card { font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
  font-size: 20px; line-height: 1.45; text-align: left; color: #1d1d1f; background: #fff;
  max-width: 42em; margin: 0 auto; padding: 0 0.5em; }
.nightMode .card, .card.nightMode { color: #e8e8e8; background: #1e1e1e; }
.meta { font-size: 0.7em; color: #888; margin-bottom: 0.6em; }
.question { font-weight: 600; }
hr#answer { border: 0; border-top: 1px solid #ccc; margin: 1em 0; }
.answer { color: #1a7f37; font-weight: 600; }
.nightMode .answer { color: #56d364; }
.label { font-size: 0.7em; color: #888; text-transform: uppercase; letter-spacing: 0.05em;
  margin-top: 1em; }
.text { font-size: 0.9em; }
.ref { font-size: 0.6em; color: #aaa; margin-top: 1.5em; }
"""

_CARD_FRONT = """\
<div class="meta">{{Section}} · #{{Number}}</div>
<div class="question">{{Question}}</div>"""

_CARD_BACK = """\
{{FrontSide}}
<hr id="answer">
<div class="answer">{{Answer}}</div>
{{#Explanation}}<div class="label">Saying it out loud</div>
<div class="text">{{Explanation}}</div>{{/Explanation}}
<div class="ref">{{Deck}}/{{Id}}</div>"""

_CASE_FRONT = """\
<div class="meta">case · {{Title}}</div>
<div class="question">{{Question}}</div>"""

_CASE_BACK = """\
{{FrontSide}}
<hr id="answer">
<div class="label">What this tests</div><div class="text">{{Tests}}</div>
<div class="label">A good answer covers</div><div class="text">{{Covers}}</div>
<div class="label">One concrete example</div><div class="text">{{Example}}</div>
<div class="ref">{{Deck}}/{{Id}}{{#Source}} · {{Source}}{{/Source}}</div>"""


def _stable_id(*parts: str) -> int:
    """A fixed id for a name, in the range genanki recommends for model and deck ids."""
    digest = hashlib.sha256("\x1f".join(("grill",) + parts).encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:4], "big") % (1 << 30)


# Changing a note type's fields or templates makes Anki treat it as another type: bump the
# version in the name then, so the new type gets a new id instead of clashing with the old one.
_CARD_MODEL = genanki.Model(
    _stable_id("model", "card", "v1"),
    "grill card",
    fields=[{"name": name} for name in CARD_FIELDS],
    templates=[{"name": "Recall", "qfmt": _CARD_FRONT, "afmt": _CARD_BACK}],
    css=_CSS,
)
_CASE_MODEL = genanki.Model(
    _stable_id("model", "case", "v1"),
    "grill case",
    fields=[{"name": name} for name in CASE_FIELDS],
    templates=[{"name": "Case", "qfmt": _CASE_FRONT, "afmt": _CASE_BACK}],
    css=_CSS,
)


@dataclass(frozen=True)
class AnkiExport:
    """What was written: the file and how many notes of each kind, per Anki deck name."""

    path: Path
    decks: tuple[str, ...]
    cards: int
    cases: int


def _html(text: str | None) -> str:
    return html.escape(text or "").replace("\n", "<br>")


def note_guid(deck: str, card_id: str, *, case: bool = False) -> str:
    """The note's GUID: a function of the deck name and the card (or case) id only."""
    if case:
        return str(genanki.guid_for(deck, "case", card_id))
    return str(genanki.guid_for(deck, card_id))


def _section(deck: Deck, key: str) -> str:
    title = deck.section_title(key)
    return title if title == key else f"{key} · {title}"


def _card_note(deck: Deck, card: Card) -> genanki.Note:
    fields = (
        card.question,
        card.answer,
        card.explanation,
        _section(deck, card.section),
        str(card.n),
        card.id,
        deck.name,
    )
    return genanki.Note(
        model=_CARD_MODEL,
        fields=[_html(f) for f in fields],
        guid=note_guid(deck.name, card.id),
        tags=[f"grill::{deck.name}"],
    )


def _case_note(deck: Deck, case: Case) -> genanki.Note:
    fields = (
        case.question,
        case.title,
        case.tests,
        case.covers,
        case.example,
        case.source,
        case.id,
        deck.name,
    )
    return genanki.Note(
        model=_CASE_MODEL,
        fields=[_html(f) for f in fields],
        guid=note_guid(deck.name, case.id, case=True),
        tags=[f"grill::{deck.name}", "grill::case"],
    )


def anki_deck_name(deck: Deck) -> str:
    """Decks land under one `grill` parent in Anki's deck list; `::` would nest deeper."""
    return "grill::" + deck.title.replace("::", ":")


def anki_package(decks: tuple[Deck, ...]) -> genanki.Package:
    """The genanki package for these decks: one Anki deck per grill deck."""
    out = []
    for deck in decks:
        anki = genanki.Deck(_stable_id("deck", deck.name), anki_deck_name(deck), deck.description)
        for card in deck.cards:
            anki.add_note(_card_note(deck, card))
        for case in deck.cases:
            anki.add_note(_case_note(deck, case))
        out.append(anki)
    return genanki.Package(out)


def export_anki(decks: tuple[Deck, ...], path: Path, now: datetime) -> AnkiExport:
    """Write `decks` to `path` (.apkg; `-`: standard output), atomically; `now` becomes the
    notes' modification time."""
    if path.suffix.lower() != ".apkg" and not is_stdout(path):
        raise UsageError(f"{path}: Anki packages end in .apkg (try -o {path.with_suffix('.apkg')})")
    if not decks:
        raise UsageError("no deck to export")
    package = anki_package(decks)
    with output_path(path, STDOUT_HINT) as tmp:
        _write_package(package, tmp, now)
    return AnkiExport(
        path=path,
        decks=tuple(anki_deck_name(d) for d in decks),
        cards=sum(len(d.cards) for d in decks),
        cases=sum(len(d.cases) for d in decks),
    )


def _write_package(package: genanki.Package, path: Path, now: datetime) -> None:
    # genanki builds the collection in a tempfile.mkstemp() file it never deletes; point
    # tempfile at a folder of ours for the call, so nothing is left behind in /tmp.
    with tempfile.TemporaryDirectory(prefix="grill-anki-") as scratch:
        saved, tempfile.tempdir = tempfile.tempdir, scratch
        try:
            package.write_to_file(str(path), timestamp=now.timestamp())
        finally:
            tempfile.tempdir = saved
