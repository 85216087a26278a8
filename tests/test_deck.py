"""The built-in decks load, keep the user's words, and bad decks fail with located messages."""

from __future__ import annotations

import os
import re
from dataclasses import field, fields, is_dataclass, make_dataclass
from pathlib import Path

import pytest

from grill import model
from grill.deck import cached as deck_cache
from grill.deck import deck_schema, load_deck, load_library, parse_deck
from grill.errors import DeckError
from grill.model import Card
from grill.paths import builtin_decks_dir

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
SEED = SEEDS / "000_d8d4bdc503a37df4.txt"
BROKEN = Path(__file__).parent / "decks" / "broken"


def builtin():
    return load_deck(builtin_decks_dir() / "training-behaviors.yaml", builtin=True)


def test_builtin_deck_has_45_numbered_cards_each_with_a_rubric() -> None:
    deck = builtin()
    assert sorted(c.n for c in deck.cards) == list(range(1, 46))
    assert len({c.id for c in deck.cards}) == 45
    assert all(c.rubric.points and all(p.match for p in c.rubric.points) for c in deck.cards)


def test_builtin_deck_metadata_matches_the_seed() -> None:
    deck = builtin()
    assert (deck.target, deck.floor) == (28, 24)
    assert [s.key for s in deck.sections] == ["A", "B", "C", "D", "E", "F", "G", "Q"]
    assert [(t.first, t.last) for t in deck.tiers] == [(1, 15), (16, 30), (31, 45)]
    assert {c.section for c in deck.cards if c.n > 35} == {"Q"}
    assert all(c.explanation for c in deck.cards if c.n <= 35)
    assert not any(c.explanation for c in deck.cards if c.n > 35)


def _seed_items(text: str) -> list[tuple[int, str, str, str | None]]:
    """(n, question, short answer, explanation) for every numbered item of the seed."""
    body, rest = text.split("\nQuick fire\n")
    quick = rest.split("\nSelf-grading\n")[0]
    items = []
    for m in re.finditer(
        r"^(\d+)\. (.+?\?) (.+)\n\nSaying it out loud\. (.+)$", body, flags=re.MULTILINE
    ):
        items.append((int(m[1]), m[2], m[3], m[4]))
    for m in re.finditer(r"(\d+)\. (.+?\?) (.+?)(?= \d+\. |$)", quick.strip()):
        items.append((int(m[1]), m[2], m[3], None))
    return items


@pytest.mark.skipif(not SEED.is_file(), reason="the seed files are not beside this checkout")
def test_every_seed_question_answer_and_explanation_is_in_the_deck_unchanged() -> None:
    items = _seed_items(SEED.read_text(encoding="utf-8"))
    assert [n for n, *_ in items] == list(range(1, 46))
    cards = {c.n: c for c in builtin().cards}
    for n, question, answer, explanation in items:
        card = cards[n]
        assert (card.question, card.answer, card.explanation) == (question, answer, explanation)


@pytest.mark.skipif(not SEED.is_file(), reason="the seed files are not beside this checkout")
def test_the_self_grading_tiers_keep_the_seed_verdicts() -> None:
    text = SEED.read_text(encoding="utf-8")
    for tier in builtin().tiers:
        assert tier.verdict in text


def test_library_loads_user_decks_from_grill_home(grill_home: Path) -> None:
    (grill_home / "decks").mkdir(parents=True)
    (grill_home / "decks" / "mine.yaml").write_text(
        (BROKEN / "missing-answer.yaml")
        .read_text()
        .replace("    question: Why warmup?\n", "    question: Why warmup?\n    answer: Because.\n")
        .replace("deck: broken", "deck: mine")
    )
    lib = load_library()
    assert [d.name for d in lib.decks][-1] == "mine"
    assert lib.card("mine/warmup-why").answer == "Because."
    assert lib.card("7").id == "warmup-why"  # numbers refer to the built-in deck


def test_an_invalid_user_deck_stops_the_library_with_its_location(grill_home: Path) -> None:
    (grill_home / "decks").mkdir(parents=True)
    (grill_home / "decks" / "bad.yaml").write_text((BROKEN / "wrong-type.yaml").read_text())
    with pytest.raises(DeckError) as info:
        load_library()
    assert re.search(
        r"bad\.yaml:7:8: card 'warmup-why': 'n' must be a whole number", str(info.value)
    )


EXPECTED = {
    "missing-answer": ":6:5: card 'warmup-why': 'answer' is missing",
    "wrong-type": ":7:8: card 'warmup-why': 'n' must be a whole number, not 'seven'",
    "unknown-field": (
        ":9:5: card 'warmup-why': unknown field 'questoin' in a card (did you mean 'question'?)"
    ),
    "duplicate-id": ":14:9: card 'warmup-why': duplicate id 'warmup-why'",
    "duplicate-number": ":15:8: card 'two': duplicate n 1 (first used by 'one'",
    "unknown-section": ":8:14: card 'one': unknown section 'Z' (known: A)",
    "empty-rubric": ":12:15: card 'one': 'points' needs at least 1 item(s)",
    "syntax-error": ":5:6: YAML syntax error",
    "tab-indent": ":4:1: YAML syntax error: a tab character",
    "empty": ":1:1: the file is empty",
    "alias": ":4:5: anchors and aliases are not allowed",
    "python-tag": ":2:8: tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed",
    "bad-requires": ":14:18: card 'one': 'requires' names 'q', which is not a point id",
    "not-a-mapping": ":1:1: a deck must be a mapping, not a list",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_broken_deck_gets_its_located_message(name: str) -> None:
    path = BROKEN / f"{name}.yaml"
    with pytest.raises(DeckError) as info:
        load_deck(path)
    assert len(info.value.issues) == 1, str(info.value)
    assert str(info.value.issues[0]).startswith(str(path) if not path.is_absolute() else "")
    assert f"{name}.yaml{EXPECTED[name]}" in str(info.value)


def test_all_errors_in_a_file_are_listed_not_only_the_first() -> None:
    text = (BROKEN / "duplicate-id.yaml").read_text().replace("n: 2", "n: two")
    text = text.replace("section: A\n    question: Why warmup?", "section: B\n    question: Why?")
    with pytest.raises(DeckError) as info:
        parse_deck(text, "two.yaml")
    messages = [i.message for i in info.value.issues]
    assert any("unknown section 'B'" in m for m in messages)
    assert any("'n' must be a whole number" in m for m in messages)


def test_schema_describes_the_required_fields_of_a_card() -> None:
    schema = deck_schema()
    card = schema["properties"]["cards"]["items"]
    assert set(card["required"]) == {"id", "n", "section", "question", "answer", "rubric"}
    assert card["additionalProperties"] is False


def test_a_cached_deck_equals_the_parsed_one_and_follows_edits(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    text = (
        (BROKEN / "duplicate-number.yaml")
        .read_text()
        .replace(
            "n: 1\n    section: A\n    question: Two?", "n: 2\n    section: A\n    question: Two?"
        )
    )
    path.write_text(text)
    first = load_deck(path)
    with pytest.MonkeyPatch.context() as patch:  # the second load must not parse
        patch.setattr("grill.deck.parse_deck", lambda *a, **k: pytest.fail("parsed again"))
        again = load_deck(path)
    assert again == first and again.cards.ids == ("one", "two")
    path.write_text(text.replace("question: Two?", "question: Deux?"))
    assert load_deck(path).card("two").question == "Deux?"  # new content, new cache key


def _grown(cls: type, name: str, kind: str) -> type:
    """`cls` (a grill.model dataclass) with one more field, under the same name."""
    extra = [(name, kind, field(default=None))]
    return make_dataclass(cls.__name__, extra, bases=(cls,), frozen=True)


def test_the_cache_key_follows_the_deck_model_s_fields(tmp_path: Path) -> None:
    classes = deck_cache.CACHED_CLASSES
    assert deck_cache.FORMAT == f"{deck_cache.LAYOUT}-{deck_cache.model_shape(classes)}"
    same = [make_dataclass(c.__name__, [], bases=(c,), frozen=True) for c in classes[:1]]
    assert deck_cache.model_shape(same) == deck_cache.model_shape(classes[:1])
    for cls in (model.Card, model.Point, model.Deck):
        others = [c for c in classes if c is not cls]
        grown = deck_cache.model_shape([*others, _grown(cls, "hint", "str | None")])
        retyped = deck_cache.model_shape([*others, _grown(cls, "hint", "int | None")])
        assert len({grown, retyped, deck_cache.model_shape(classes)}) == 3, cls
    key = deck_cache.entry_for(b"deck: x", builtin=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deck_cache, "FORMAT", f"{deck_cache.LAYOUT}-{grown}")
        assert deck_cache.entry_for(b"deck: x", builtin=False) != key


def test_every_model_class_a_deck_holds_is_cached_and_allowed() -> None:
    """A new class inside a deck (a field typed with it) must join CACHED_CLASSES, or every
    entry holding it would fail to load and the deck be parsed on every command."""
    names = {name for name in vars(model) if isinstance(getattr(model, name), type)}
    held, todo = set(), [model.Deck]
    while todo:
        cls = todo.pop()
        held.add(cls)
        kinds = [f.type for f in fields(cls)] if is_dataclass(cls) else ["Card"]
        for word in re.findall(r"\w+", " ".join(map(str, kinds))):
            inner = getattr(model, word) if word in names else None
            if inner is not None and inner not in held and inner.__module__ == model.__name__:
                todo.append(inner)
    assert held == set(deck_cache.CACHED_CLASSES)


def test_a_cached_deck_builds_a_card_only_when_it_is_read(tmp_path: Path) -> None:
    """Listing or scheduling thousands of cached cards must not unpickle them all."""
    path = tmp_path / "big.yaml"
    cards = "".join(
        f"  - id: c{i}\n    n: {i}\n    section: A\n    question: Q{i}?\n    answer: A{i}.\n"
        f"    rubric:\n      points:\n        - id: p\n          says: a{i}\n"
        f"          match: [a{i}]\n"
        for i in range(1, 301)
    )
    path.write_text(f"deck: big\ntitle: Big\nsections:\n  - key: A\n    title: A\ncards:\n{cards}")
    parsed = load_deck(path)
    built: list[bytes] = []
    real = deck_cache._card

    def counting(blob: bytes, where: Path) -> Card:
        built.append(blob)
        return real(blob, where)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deck_cache, "_card", counting)
        cached = load_deck(path)
        assert len(cached.cards) == 300 and cached.cards.numbers[:3] == (1, 2, 3)
        assert cached.cards.sections == ("A",) * 300 and built == []
        assert cached.card("c250") == parsed.card("c250") and len(built) == 1
        assert cached.card("7") == parsed.card("7") and len(built) == 2
        assert cached.card("c250") is cached.card("c250") and len(built) == 2
        assert list(cached.cards) == list(parsed.cards) and len(built) == 300


def test_the_cache_serves_the_deck_from_any_working_folder_under_its_shown_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    path = folder / "mine.yaml"
    builtin = builtin_decks_dir() / "training-behaviors.yaml"
    path.write_text(builtin.read_text().replace("deck: training-behaviors", "deck: mine"))
    load_library(user_decks=False)  # the built-in decks are cached first
    parsed: list[tuple[str, int]] = []
    monkeypatch.chdir(tmp_path)
    first = load_library([path], user_decks=False, on_parse=lambda *told: parsed.append(told))
    assert parsed == [("decks/mine.yaml", path.stat().st_size)]  # only the uncached file
    monkeypatch.chdir(folder)
    again = load_library([path], user_decks=False, on_parse=lambda *told: parsed.append(told))
    assert len(parsed) == 1  # served from the cache
    assert again.deck("mine").path == "mine.yaml" and first.deck("mine").path == "decks/mine.yaml"
    assert again.deck("mine").cards == first.deck("mine").cards


def test_cache_files_unused_for_a_month_are_pruned_and_a_hit_counts_as_use(
    tmp_path: Path, grill_home: Path
) -> None:
    import os
    import time

    path = tmp_path / "mine.yaml"
    text = (BROKEN / "duplicate-number.yaml").read_text()
    path.write_text(
        text.replace(
            "n: 1\n    section: A\n    question: Two?", "n: 2\n    section: A\n    question: Two?"
        )
    )
    load_deck(path)
    (used,) = (grill_home / "cache" / "decks").glob("*.pickle")
    stale = used.with_name("0" * 40 + ".pickle")
    stale.write_bytes(b"an old deck")
    month = time.time() - 31 * 86_400
    os.utime(stale, (month, month))
    os.utime(used, (month, month))
    load_deck(path)  # a hit: the file is in use again
    assert used.stat().st_mtime > time.time() - 60 and stale.exists()
    path.write_text(path.read_text().replace("question: Two?", "question: Deux?"))
    load_deck(path)  # writing the edited deck's file prunes what a month has not used
    assert not stale.exists() and used.exists()
    assert len(list((grill_home / "cache" / "decks").glob("*.pickle"))) == 2


def test_a_tampered_cache_file_is_ignored_and_never_runs(tmp_path: Path, grill_home: Path) -> None:
    import pickle
    import struct

    path = tmp_path / "mine.yaml"
    path.write_text(
        (BROKEN / "missing-answer.yaml")
        .read_text()
        .replace("    question: Why warmup?\n", "    question: Why warmup?\n    answer: Because.\n")
    )
    load_deck(path)
    (cached,) = (grill_home / "cache" / "decks").glob("*.pickle")
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            import os

            return (os.system, (f"touch {marker}",))

    cached.write_bytes(pickle.dumps(Evil()))
    assert load_deck(path).card("warmup-why").answer == "Because."
    assert not marker.exists()

    # the same payload in place of the card, after a sound index: refused when the card is
    # read, and the damaged file is removed so that the next load parses the deck again
    load_deck(path)  # the entry written again
    data = cached.read_bytes()
    (size,) = struct.unpack(">Q", data[:8])
    head, ids, numbers, sections, _ = pickle.loads(data[8 : 8 + size])
    evil = pickle.dumps(Evil())
    index = pickle.dumps((head, ids, numbers, sections, (0, len(evil))))
    cached.write_bytes(struct.pack(">Q", len(index)) + index + evil)
    deck = load_deck(path)
    assert deck.cards.ids == ("warmup-why",)
    with pytest.raises(DeckError, match="cache was damaged and has been removed"):
        deck.card("warmup-why")
    assert not marker.exists() and not cached.exists()
    assert load_deck(path).card("warmup-why").answer == "Because."


def _settled_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(
        (BROKEN / "missing-answer.yaml")
        .read_text()
        .replace("    question: Why warmup?\n", "    question: Why warmup?\n    answer: Because.\n")
    )
    return path


def test_a_deck_file_unchanged_since_it_was_noted_is_not_read_again(
    tmp_path: Path, grill_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _settled_file(tmp_path)
    monkeypatch.setattr(deck_cache, "SETTLED_SECONDS", -1.0)  # trust a file changed just now
    first = load_deck(path)
    assert len(list((grill_home / "cache" / "decks").glob("*.stat"))) == 1
    with monkeypatch.context() as patch:  # entry_for hashes the bytes read: never called
        patch.setattr(deck_cache, "entry_for", lambda *a: pytest.fail("read and hashed again"))
        assert load_deck(path) == first
    # the same size, the old modification time put back: the change time still tells
    mtime = path.stat().st_mtime_ns
    path.write_text(path.read_text().replace("Because.", "Becau$e."))
    os.utime(path, ns=(mtime, mtime))
    assert load_deck(path).card("warmup-why").answer == "Becau$e."


def test_a_file_changed_moments_ago_gets_no_note(tmp_path: Path, grill_home: Path) -> None:
    """Two edits within one tick of the filesystem's clock could share an identity."""
    load_deck(_settled_file(tmp_path))
    folder = grill_home / "cache" / "decks"
    assert len(list(folder.glob("*.pickle"))) == 1 and list(folder.glob("*.stat")) == []


def test_a_note_naming_a_missing_or_foreign_entry_falls_back_to_reading_the_file(
    tmp_path: Path, grill_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _settled_file(tmp_path)
    monkeypatch.setattr(deck_cache, "SETTLED_SECONDS", -1.0)
    load_deck(path)
    (note,) = (grill_home / "cache" / "decks").glob("*.stat")
    identity = note.read_text().split("\n")[0]
    for entry in ("0" * 40 + ".pickle", "../../../etc/passwd", ""):
        note.write_text(f"{identity}\n{entry}\n")
        assert load_deck(path).card("warmup-why").answer == "Because."


def _see_deck(
    see: str, explained: str = "    explanation: Past it the gradient is already accurate.\n"
) -> str:
    return (
        "deck: see\ntitle: See\nsections:\n  - {key: A, title: A}\ncards:\n"
        "  - id: long\n    n: 1\n    section: A\n    question: Critical batch size?\n"
        "    answer: Beyond it, more batch is wasted.\n"
        + explained
        + "    rubric: {points: [{id: a, says: wasted, match: [wasted]}]}\n"
        "  - id: short\n    n: 2\n    section: A\n    question: Critical batch?\n"
        f"    answer: Saturation point.\n    see: {see}\n"
        "    rubric: {points: [{id: s, says: saturation, match: [saturation]}]}\n"
    )


def test_a_card_sees_another_card_of_its_deck_for_the_text_it_lacks() -> None:
    deck = parse_deck(_see_deck("long"), "see.yaml")
    short = next(c for c in deck.cards if c.id == "short")
    assert short.see == "long"
    assert (
        short.context
        == "Beyond it, more batch is wasted.\nPast it the gradient is already accurate."
    )
    # what it sees is part of what it is: an edit there changes its hash
    other = parse_deck(_see_deck("long").replace("already accurate", "accurate"), "see.yaml")
    assert next(c for c in other.cards if c.id == "short").content_hash != short.content_hash


@pytest.mark.parametrize(
    ("see", "explained", "says"),
    [
        ("nowhere", None, "'see' names 'nowhere', which is not another card of this deck"),
        ("short", None, "'see' names 'short', which is not another card of this deck"),
        ("long", "", "'see' names 'long', which has no explanation to read"),
    ],
)
def test_a_see_that_names_no_card_with_text_is_refused(
    see: str, explained: str | None, says: str
) -> None:
    text = _see_deck(see) if explained is None else _see_deck(see, explained)
    with pytest.raises(DeckError) as err:
        parse_deck(text, "see.yaml")
    assert says in str(err.value)
    assert "see.yaml:" in str(err.value)
