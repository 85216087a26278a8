"""A CSV of questions -> a new YAML deck with derived rubrics, for `grill decks new --from-csv`.

The CSV has one card a row: question, answer[, explanation]; a header row is recognised by its
names and skipped; `.tsv` files are split on tabs. Each card gets a slug id made from its
question, its row order as number, and one section. Its rubric is derived from the card's own
text by `grill.grader.derive` (key points from the answer's items, phrasings from their words and
from the explanation's restatements) and marked `generated` until a person reviews it. The text
is read back with the deck loader before it is written, so a new deck is always a valid deck.
Every bad row is reported at once, by its row number as a spreadsheet shows it.
"""

from __future__ import annotations

import csv
import io
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grill.deck import MAX_DECK_BYTES, dump_deck, load_library, parse_deck, read_deck
from grill.errors import DeckError, UsageError
from grill.files import STDOUT_HINT, is_stdout, read_capped, write_atomically
from grill.grader import normalise
from grill.grader.context import disabled
from grill.grader.derive import GENERIC, common_words, derive_rubric
from grill.model import seen_text

__all__ = [
    "MAX_CSV_BYTES",
    "CsvCard",
    "NewDeck",
    "Rederived",
    "deck_data",
    "read_csv",
    "rederive",
    "write_deck",
]

MAX_CSV_BYTES = MAX_DECK_BYTES
"""A CSV is read no further: the deck made from it, rubrics added, would be larger still."""

_SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_COMMENT = re.compile(r"\s#(?:\s|$)")
"""A YAML comment after text on its line (a `#` inside a quoted text is taken for one too:
the rewrite is then refused without --force, which loses nothing)."""
_HEADERS = (
    {"question", "questions", "q", "front", "prompt"},
    {"answer", "answers", "a", "back", "short answer", "short_answer"},
)
_STOP = set(
    "a an and are at be by can do does for how if in is it of on or should the to what when"
    " where which who why would you your".split()
)


@dataclass(frozen=True)
class CsvCard:
    """One row of the CSV; `row` is its number as a spreadsheet shows it (the header is row 1)."""

    row: int
    question: str
    answer: str
    explanation: str | None = None


@dataclass(frozen=True)
class NewDeck:
    path: Path
    name: str
    cards: int
    points: int


def read_csv(path: Path) -> list[CsvCard]:
    """The cards of a CSV file; raise UsageError naming every bad row."""
    try:
        raw = read_capped(path, MAX_CSV_BYTES, "a CSV of questions is limited to 5 MB")
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text; save it as 'CSV UTF-8'") from None
    delimiter = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    cards: list[CsvCard] = []
    problems: list[str] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for row, cells in enumerate(reader, start=1):
            _take_row(row, cells, cards, problems)
    except csv.Error as exc:
        hint = " (a double quote that is never closed?)" if "end of data" in str(exc) else ""
        problems.append(f"line {reader.line_num}: {exc}{hint}")
    if not cards and not problems:
        problems.append("no questions found (expected rows of question, answer[, explanation])")
    if problems:
        raise UsageError("\n".join(f"{path}: {p}" for p in problems))
    return cards


def _take_row(row: int, cells: list[str], cards: list[CsvCard], problems: list[str]) -> None:
    cells = [c.strip() for c in cells]
    while cells and not cells[-1]:
        cells.pop()  # spreadsheets pad rows with empty columns
    if not cells:
        return
    if not cards and not problems and _is_header(cells):
        return
    if len(cells) > 3:
        problems.append(
            f"row {row}: {len(cells)} columns; expected question, answer[, explanation]"
            " (put a cell with commas in double quotes)"
        )
    elif len(cells) < 2 or not cells[1]:
        problems.append(f"row {row}: no answer (expected question, answer[, explanation])")
    elif not cells[0]:
        problems.append(f"row {row}: the question is empty")
    elif not _words(cells[1]):
        problems.append(f"row {row}: the answer has no words to match: {cells[1]!r}")
    else:
        explanation = cells[2] if len(cells) == 3 else None
        cards.append(CsvCard(row, cells[0], cells[1], explanation))


def _is_header(cells: list[str]) -> bool:
    names = [c.lower() for c in cells[:2]]
    return len(names) == 2 and names[0] in _HEADERS[0] and names[1] in _HEADERS[1]


def _words(text: str) -> list[str]:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.findall(r"[a-z0-9]+", ascii_text.lower())


def _slug(text: str, taken: set[str], words: int, fallback: str) -> str:
    """A readable, unique slug from the first meaningful words of `text`."""
    found = _words(text)
    meaningful = [w for w in found if w not in _STOP] or found
    base = "-".join(meaningful[:words])[:40].strip("-") or fallback
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def _content(text: str) -> set[str]:
    return {w for s in normalise(text) for w in s if w not in GENERIC and not w.startswith("{")}


def _sibling(card: CsvCard, cards: list[CsvCard]) -> int | None:
    """The index of the card that asks the most about the same thing as this one, whose answer
    and explanation its checks read (`see` in the deck): for a card without an explanation
    ("FP16 needs?", "Loss scaling.") all its checks (derive.sibling), for one with an
    explanation the claims of that card turned round (derive.sibling-claims: "LR too high
    symptoms?" reads what "LR too low symptoms?" says). The words of the questions shared count
    twice, those of question and answer once. None unless one card clearly leads."""
    if "derive.sibling" in disabled():
        return None
    if card.explanation and "derive.sibling-claims" in disabled():
        return None
    asked, said = _content(card.question), _content(f"{card.question} {card.answer}")
    scored = sorted(
        (
            (
                2 * len(asked & _content(o.question))
                + len(said & _content(f"{o.question} {o.answer}")),
                k,
            )
            for k, o in enumerate(cards)
            if o is not card and o.explanation
        ),
        reverse=True,
    )
    if not scored or scored[0][0] < 4 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def deck_data(name: str, title: str, cards: list[CsvCard]) -> dict[str, Any]:
    """The deck as plain data: one section, cards numbered in row order, derived rubrics; a
    card `see`s the card that says most about the same thing (`_sibling`)."""
    taken: set[str] = set()
    ids = [_slug(c.question, taken, 5, f"card-{n}") for n, c in enumerate(cards, start=1)]
    out = []
    common = _common(cards)
    for n, card in enumerate(cards, start=1):
        entry: dict[str, Any] = {
            "id": ids[n - 1],
            "n": n,
            "section": "A",
            "question": card.question,
            "answer": card.answer,
        }
        if card.explanation:
            entry["explanation"] = card.explanation
        sibling = _sibling(card, cards)
        if sibling is not None:
            entry["see"] = ids[sibling]
        seen = cards[sibling] if sibling is not None else None
        entry["rubric"] = _derived(card, seen, common)
        out.append(entry)
    return {
        "deck": name,
        "title": title,
        "sections": [{"key": "A", "title": title}],
        "cards": out,
    }


def _common(cards: list[CsvCard]) -> frozenset[str]:
    """The deck's common words (`common_words`), from every card's question, answer and
    explanation."""
    return common_words([f"{c.question} {c.answer} {c.explanation or ''}" for c in cards])


def _derived(card: CsvCard, seen: CsvCard | None, common: frozenset[str]) -> dict[str, Any]:
    """A card's rubric derived from its text (and, for a card that `see`s another, that card's
    answer and explanation: for the claims it turns round, and for every check of a card
    without an explanation)."""
    context = None if seen is None else seen_text(seen.answer, seen.explanation)
    return derive_rubric(card.question, card.answer, card.explanation, common, context=context)


@dataclass(frozen=True)
class Rederived:
    path: Path
    generated: int
    """Rubrics still marked `generated: true` (not reviewed by a person)."""
    changed: int
    """Of those, the ones this grill derives differently."""


def rederive(path: Path, *, dry_run: bool = False, force: bool = False) -> Rederived:
    """Derive again, with this grill's rules, every rubric of the deck at `path` that is still
    marked `generated: true`; a rubric a person has reviewed (the mark deleted) is left as it
    is. The file is rewritten only when a rubric changed and not `dry_run`; comments after the
    opening block would be lost in the rewrite, so a file that has any is refused unless
    `force`. The new text is read back by the deck loader before it is written."""
    try:
        text = read_capped(path, MAX_DECK_BYTES, "larger than a deck may be").decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from exc
    data, deck = read_deck(text, str(path))
    lines = text.splitlines(keepends=True)
    opening = 0
    while opening < len(lines) and lines[opening].lstrip().startswith("#"):
        opening += 1
    later = [
        n + 1
        for n, line in enumerate(lines)
        if n >= opening and (line.lstrip().startswith("#") or _COMMENT.search(line))
    ]
    as_csv = {c.id: CsvCard(0, c.question, c.answer, c.explanation) for c in deck.cards if c.id}
    common = _common(list(as_csv.values()))
    generated = changed = 0
    for entry in data.get("cards") or []:
        rubric = entry.get("rubric")
        if not isinstance(rubric, dict) or rubric.get("generated") is not True:
            continue
        generated += 1
        fresh = _derived(as_csv[entry["id"]], as_csv.get(entry.get("see") or ""), common)
        if fresh != rubric:
            entry["rubric"] = fresh
            changed += 1
    if changed and not dry_run:
        if later and not force:
            raise UsageError(
                f"{path} has comments (line {later[0]}) that rewriting it would drop; "
                "add --force to rewrite it anyway, or --dry-run to count the changes"
            )
        rewritten = "".join(lines[:opening]) + dump_deck(data)
        parse_deck(rewritten, str(path))  # a DeckError here is a bug in this module
        write_atomically(path, rewritten)
    return Rederived(path, generated, changed)


def write_deck(
    source: Path, name: str, path: Path, *, title: str | None = None, force: bool = False
) -> NewDeck:
    """Turn the CSV at `source` into deck `name` at `path` (`-`: standard output); refuse to
    replace a file unless `force`. The text is validated by the deck loader before anything is
    written."""
    if not _SLUG.match(name):
        raise UsageError(f"deck name {name!r} must be a slug: lowercase letters, digits, - or _")
    if not is_stdout(path):
        if path.exists() and not force:
            raise UsageError(f"{path} already exists; add --force to replace it")
        _check_name_is_free(name, path)
    cards = read_csv(source)
    title = title or name.replace("-", " ").replace("_", " ").capitalize()
    data = deck_data(name, title, cards)
    header = (
        f"# Made by `grill decks new {name} --from-csv {source.name}`. The rubrics are derived\n"
        "# from each card's text (`grill decks rubric REF` explains one). Review them, add the\n"
        "# phrasings and misconceptions a grader should know (docs/rubrics.md), delete the\n"
        "# `generated: true` line of each rubric you have reviewed, then `grill decks validate`.\n"
    )
    text = header + dump_deck(data)
    deck = parse_deck(text, str(path))  # a DeckError here is a bug in this module, not the CSV
    write_atomically(path, text, STDOUT_HINT)
    points = sum(len(c.rubric.points) for c in deck.cards)
    return NewDeck(path=path, name=name, cards=len(deck.cards), points=points)


def _check_name_is_free(name: str, path: Path) -> None:
    """Two loaded decks may not share a name; replacing the same file is fine."""
    try:
        decks = load_library().decks
    except DeckError:  # a broken user deck is reported by the commands that load it
        decks = load_library(user_decks=False).decks
    for deck in decks:
        if deck.name == name and Path(deck.path).resolve() != Path(os.path.realpath(path)):
            raise UsageError(f"there is already a deck named '{name}' ({deck.path})")
