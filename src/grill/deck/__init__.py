"""YAML deck files -> validated model objects, with every mistake located by file:line:column.

The only module importing yaml. Files are composed with a safe loader into a node tree, which is
checked against one declarative schema (the same one `grill decks schema` prints as JSON Schema)
and only then turned into frozen model objects. Aliases and tags are refused, so an alias bomb or
a `!!python/object` tag never expands or runs. All issues in a file are reported, not the first.

yaml itself is loaded on first use: a deck found in the parsed-deck cache needs no YAML, and
importing yaml would cost `grill due` more than loading a small cached deck.
"""

from __future__ import annotations

import importlib.util
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from grill.answers import CONTROL
from grill.deck import cached as deck_cache
from grill.errors import DeckError, DeckIssue
from grill.files import InputTooLarge, kind_of, read_capped
from grill.model import (
    MAX_CARD_NUMBER,
    Card,
    CardList,
    Case,
    CasePart,
    Deck,
    FollowUp,
    Library,
    Point,
    Rubric,
    Section,
    Tier,
    seen_text,
)
from grill.paths import builtin_decks_dir, user_decks_dir

OnParse = Callable[[str, int], None]
"""Told (shown path, size in bytes) before a deck file missing from the cache is parsed."""


def _lazy(name: str) -> ModuleType:
    """The module `name`, executed on its first attribute access (importlib's LazyLoader)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


if TYPE_CHECKING:
    import yaml
else:
    yaml = _lazy("yaml")

__all__ = [
    "MAX_DECK_BYTES",
    "MAX_LINE",
    "OnParse",
    "deck_schema",
    "dump_deck",
    "load_deck",
    "load_library",
    "parse_deck",
    "read_deck",
]

MAX_DECK_BYTES = 5 * 1024 * 1024
"""A deck is text typed by a person; anything bigger is refused before parsing."""

MAX_LINE = 20_000
"""The longest line a deck may have; a long explanation is a few thousand characters."""

_MAX_DEPTH = 32
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",  # a bare date; text fields then ask for quotes
}


# ---------------------------------------------------------------- reading nodes with positions


@dataclass
class _Reader:
    """Collects issues while a node tree is read; `card` names the card being read, if any."""

    path: str
    issues: list[DeckIssue] = field(default_factory=list)
    card: str | None = None
    seen: set[int] = field(default_factory=set)

    def fail(self, node: yaml.Node | None, message: str) -> None:
        line, col = (node.start_mark.line + 1, node.start_mark.column + 1) if node else (1, 1)
        self.issues.append(DeckIssue(self.path, line, col, message, self.card))

    def enter(self, node: yaml.Node, depth: int) -> bool:
        """Refuse aliases (a node reached twice), foreign tags and deep nesting."""
        if id(node) in self.seen:
            self.fail(node, "anchors and aliases are not allowed in decks")
            return False
        self.seen.add(id(node))
        if depth > _MAX_DEPTH:
            self.fail(node, f"nesting deeper than {_MAX_DEPTH} levels")
            return False
        allowed = {
            yaml.ScalarNode: _SCALAR_TAGS,
            yaml.SequenceNode: {"tag:yaml.org,2002:seq"},
            yaml.MappingNode: {"tag:yaml.org,2002:map"},
        }[type(node)]
        if node.tag not in allowed:
            self.fail(node, f"tag {node.tag!r} is not allowed in decks")
            return False
        return True


class _Spec:
    """A declarative schema node: reads a YAML node into plain data and describes itself."""

    def read(self, node: yaml.Node, r: _Reader, name: str, depth: int) -> Any:
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return {
        "tag:yaml.org,2002:str": "text",
        "tag:yaml.org,2002:int": "a number",
        "tag:yaml.org,2002:float": "a number",
        "tag:yaml.org,2002:bool": "true/false",
        "tag:yaml.org,2002:null": "empty",
        "tag:yaml.org,2002:timestamp": "a date",
    }.get(node.tag, node.tag)


def _quote_hint(node: yaml.Node) -> str:
    """YAML reads `42`, `yes` or `2026-12-02` as non-text; quoting is the fix."""
    if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return " (put it in quotes)"
    return ""


@dataclass(frozen=True)
class _Text(_Spec):
    slug: bool = False
    doc: str = ""

    def read(self, node: yaml.Node, r: _Reader, name: str, depth: int) -> str | None:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str":
            r.fail(node, f"'{name}' must be text, not {_kind(node)}{_quote_hint(node)}")
            return None
        value = str(node.value)
        if not value.strip():
            r.fail(node, f"'{name}' is empty")
            return None
        if self.slug and not _SLUG.match(value):
            r.fail(node, f"'{name}' must be a slug (lowercase letters, digits, - or _): {value!r}")
            return None
        if control := CONTROL.search(value):  # escape sequences would drive the terminal
            r.fail(node, f"'{name}' holds the control character U+{ord(control[0]):04X}")
            return None
        return value

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string", "minLength": 1}
        if self.slug:
            out["pattern"] = _SLUG.pattern
        if self.doc:
            out["description"] = self.doc
        return out


@dataclass(frozen=True)
class _Int(_Spec):
    minimum: int = 0
    doc: str = ""
    maximum: int = MAX_CARD_NUMBER  # no count or number in a deck comes near; SQLite's int does

    def read(self, node: yaml.Node, r: _Reader, name: str, depth: int) -> int | None:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:int":
            shown = repr(node.value) if isinstance(node, yaml.ScalarNode) else _kind(node)
            r.fail(node, f"'{name}' must be a whole number, not {shown}")
            return None
        try:
            value = int(str(node.value).replace("_", ""), 0)
        except ValueError:
            r.fail(node, f"'{name}' must be a whole number: {node.value!r}")
            return None
        if value < self.minimum:
            r.fail(node, f"'{name}' must be at least {self.minimum}, not {value}")
            return None
        if value > self.maximum:
            shown = str(value) if value < 10**12 else f"a {len(str(value))}-digit number"
            r.fail(node, f"'{name}' must be at most {self.maximum:,}, not {shown}")
            return None
        return value

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}
        if self.doc:
            out["description"] = self.doc
        return out


@dataclass(frozen=True)
class _Bool(_Spec):
    doc: str = ""

    def read(self, node: yaml.Node, r: _Reader, name: str, depth: int) -> bool | None:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:bool":
            shown = repr(node.value) if isinstance(node, yaml.ScalarNode) else _kind(node)
            r.fail(node, f"'{name}' must be true or false, not {shown}")
            return None
        return str(node.value).lower() in ("true", "yes", "on")

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "boolean"}
        if self.doc:
            out["description"] = self.doc
        return out


@dataclass(frozen=True)
class _List(_Spec):
    item: _Spec
    min_items: int = 0
    doc: str = ""

    def read(self, node: yaml.Node, r: _Reader, name: str, depth: int) -> list[Any] | None:
        if not isinstance(node, yaml.SequenceNode):
            r.fail(node, f"'{name}' must be a list, not {_kind(node)}")
            return None
        if len(node.value) < self.min_items:
            r.fail(node, f"'{name}' needs at least {self.min_items} item(s)")
            return None
        out = []
        for child in node.value:
            if r.enter(child, depth + 1):
                out.append(self.item.read(child, r, name, depth + 1))
        return out

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.schema()}
        if self.min_items:
            out["minItems"] = self.min_items
        if self.doc:
            out["description"] = self.doc
        return out


@dataclass(frozen=True)
class _Record(_Spec):
    """A mapping with known fields: (spec, required). Unknown keys are errors."""

    title: str
    fields: dict[str, tuple[_Spec, bool]]
    names_card: bool = False  # reading this record sets the card name used in messages

    def read(self, node: yaml.Node, r: _Reader, name: str, depth: int) -> dict[str, Any] | None:
        if not isinstance(node, yaml.MappingNode):
            r.fail(node, f"{self.title} must be a mapping, not {_kind(node)}")
            return None
        outer_card = r.card
        if self.names_card:
            r.card = self._card_name(node, r)
        try:
            return self._read_fields(node, r, depth)
        finally:
            r.card = outer_card

    def _card_name(self, node: yaml.MappingNode, r: _Reader) -> str:
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "id":
                if isinstance(value, yaml.ScalarNode) and str(value.value).strip():
                    return str(value.value)
        return "?"

    def _read_fields(self, node: yaml.MappingNode, r: _Reader, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in node.value:
            if not r.enter(key, depth + 1) or not isinstance(key, yaml.ScalarNode):
                continue
            kname = str(key.value)
            if kname not in self.fields:
                hint = _close_match(kname, self.fields)
                r.fail(key, f"unknown field '{kname}' in {self.title}{hint}")
                continue
            if kname in out:
                r.fail(key, f"'{kname}' is given twice")
                continue
            # a refused value still counts as given, so it is not also reported as missing
            out[kname] = None
            if r.enter(value, depth + 1):
                out[kname] = self.fields[kname][0].read(value, r, kname, depth + 1)
        for fname, (_, required) in self.fields.items():
            if required and fname not in out:
                r.fail(node, f"'{fname}' is missing")
        return out

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "title": self.title,
            "additionalProperties": False,
            "required": [k for k, (_, req) in self.fields.items() if req],
            "properties": {k: spec.schema() for k, (spec, _) in self.fields.items()},
        }


def _close_match(name: str, options: Iterable[str]) -> str:
    import difflib

    best = difflib.get_close_matches(name, list(options), n=1)
    return f" (did you mean '{best[0]}'?)" if best else ""


# ---------------------------------------------------------------- the deck schema

_PHRASES = _List(_Text(doc="a phrase in the grader's phrase language"), min_items=1)
_POINT = _Record(
    "a rubric point",
    {
        "id": (_Text(slug=True), True),
        "says": (_Text(doc="the point in words, shown as hit or missed"), True),
        "match": (_PHRASES, True),
        "vague": (_List(_Text()), False),
    },
)
_RED_FLAG = _Record(
    "a red flag",
    {
        "id": (_Text(slug=True), True),
        "says": (_Text(doc="the red flag in words"), True),
        "match": (_PHRASES, True),
        "alone": (
            _List(_Text(slug=True)),
            False,
        ),
        "unless": (_List(_Text(doc="a phrase that, said beside the flag, makes it none")), False),
        "needs": (_List(_Text(doc="a phrase the answer must say for the flag's phrases")), False),
    },
)
_RUBRIC = _Record(
    "a rubric",
    {
        "points": (_List(_POINT, min_items=1), True),
        "correct": (_Int(minimum=1, doc="points needed for correct"), False),
        "partial": (_Int(minimum=1, doc="points needed for partial"), False),
        "requires": (_List(_Text(slug=True)), False),
        "order": (_List(_Text(slug=True)), False),
        "wrong": (_List(_POINT), False),
        "generated": (
            _Bool(doc="derived from the card's text and not yet reviewed by a person"),
            False,
        ),
    },
)
_CARD = _Record(
    "a card",
    {
        "id": (_Text(slug=True, doc="stable id: the card's history follows it"), True),
        "n": (_Int(minimum=1, doc="the card's number in its source"), True),
        "section": (_Text(), True),
        "question": (_Text(), True),
        "answer": (_Text(doc="the short answer"), True),
        "explanation": (_Text(doc="the longer 'saying it out loud' text"), False),
        "see": (
            _Text(
                slug=True,
                doc="a card of this deck whose answer and explanation the grader checks this"
                " card's answers against when it has no explanation of its own (a generated"
                " rubric also reads that card's claims turned round)",
            ),
            False,
        ),
        "rubric": (_RUBRIC, True),
    },
    names_card=True,
)
_PART = _Record(
    "a case part",
    {
        "id": (_Text(slug=True), True),
        "says": (_Text(), True),
        "need": (_Int(minimum=1), False),
        "items": (_List(_POINT, min_items=1), True),
    },
)
_FOLLOW_UP = _Record(
    "a follow-up",
    {"question": (_Text(), True), "points": (_List(_POINT, min_items=1), True)},
)
_CASE = _Record(
    "a case",
    {
        "id": (_Text(slug=True), True),
        "title": (_Text(), True),
        "question": (_Text(), True),
        "tests": (_Text(doc="what the case tests"), True),
        "covers": (_Text(doc="what a good answer covers"), True),
        "wrong_answers": (_Text(doc="common wrong answers"), True),
        "parts": (_List(_PART, min_items=1), True),
        "red_flags": (_List(_RED_FLAG), False),
        "follow_ups_text": (_Text(), True),
        "follow_ups": (_List(_FOLLOW_UP), False),
        "example": (_Text(doc="the model answer"), True),
        "source": (_Text(), True),
    },
    names_card=True,
)
_DECK = _Record(
    "a deck",
    {
        "deck": (_Text(slug=True, doc="the deck's name"), True),
        "title": (_Text(), True),
        "description": (_Text(), False),
        "target": (_Int(minimum=1, doc="cards to answer cold to pass"), False),
        "floor": (_Int(minimum=1, doc="the minimum acceptable cold score"), False),
        "target_text": (_Text(), False),
        "sections": (
            _List(_Record("a section", {"key": (_Text(), True), "title": (_Text(), True)}), 1),
            True,
        ),
        "tiers": (
            _List(
                _Record(
                    "a tier",
                    {
                        "first": (_Int(minimum=1), True),
                        "last": (_Int(minimum=1), True),
                        "verdict": (_Text(), True),
                    },
                )
            ),
            False,
        ),
        "cards": (_List(_CARD), False),
        "cases": (_List(_CASE), False),
    },
)


def deck_schema() -> dict[str, Any]:
    """The JSON Schema of a deck file, for editors; generated from the loader's own schema."""
    schema = _DECK.schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "grill deck"
    return schema


# ---------------------------------------------------------------- writing


@cache
def _loader() -> Any:
    """The C loader when PyYAML was built with libyaml (several times faster), else Python's."""
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _dumper() -> type[yaml.SafeDumper]:
    class Dumper(yaml.SafeDumper):
        """Plain YAML a person can edit: no anchors or aliases (the loader refuses them)."""

        def ignore_aliases(self, data: Any) -> bool:
            return True

    Dumper.add_representer(str, _represent_str)
    return Dumper


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None  # multi-line text as a block, as people write it
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def dump_deck(data: dict[str, Any]) -> str:
    """Plain deck data (dicts, lists, text, numbers) as YAML text that `parse_deck` reads back."""
    text: str = yaml.dump(
        data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=100, indent=2
    )
    return text


# ---------------------------------------------------------------- loading


def parse_deck(text: str, path: str, *, builtin: bool = False) -> Deck:
    """Parse and validate one deck's YAML text; raise DeckError listing every issue."""
    return read_deck(text, path, builtin=builtin)[1]


def read_deck(text: str, path: str, *, builtin: bool = False) -> tuple[dict[str, Any], Deck]:
    """A valid deck's plain data (what `dump_deck` writes back) and the deck itself; raise
    DeckError listing every issue."""
    r = _Reader(path)
    root = _compose(text, r)
    data = None
    if root is not None and r.enter(root, 0):
        data = _DECK.read(root, r, "deck", 0)
    if data is None and not r.issues:
        r.fail(None, "the file is empty: a deck needs 'deck', 'title', 'sections' and cards")
    if data is None:
        raise DeckError(r.issues)
    # cross-field checks run even after schema issues, so every mistake is listed at once
    deck = _build(data, root, r, builtin)
    if r.issues:
        raise DeckError(r.issues)
    return data, deck


def _compose(text: str, r: _Reader) -> yaml.Node | None:
    try:
        node: yaml.Node | None = yaml.compose(text, Loader=_loader())
        return node
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if mark and _char_at(text, mark.line, mark.column) == "\t":
            problem = "a tab character; indent YAML with spaces"
        r.issues.append(DeckIssue(r.path, line, col, f"YAML syntax error: {problem}"))
    except yaml.YAMLError as exc:
        r.issues.append(DeckIssue(r.path, 1, 1, f"YAML error: {exc}"))
    except RecursionError:
        r.issues.append(DeckIssue(r.path, 1, 1, "nesting too deep to read"))
    return None


def _first_long_line(text: str) -> int | None:
    """The number of the first line over MAX_LINE characters (such a line costs seconds)."""
    if len(text) <= MAX_LINE:
        return None
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE:
            return number
    return None


def _char_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    if line < len(lines) and column < len(lines[line]):
        return lines[line][column]
    return ""


def load_deck(path: Path, *, builtin: bool = False, on_parse: OnParse | None = None) -> Deck:
    """Read, decode and validate one deck file. `on_parse(shown path, bytes)` is called when
    the file is not in the parsed-deck cache and is about to be parsed (about 0.25 ms a card).

    A named pipe or a device is read too (`grill decks validate /dev/stdin`), no further than
    the size limit: their `st_size` says nothing of what they hold."""
    shown = _shown_path(path)
    try:
        st = path.stat()
        regular = stat.S_ISREG(st.st_mode)
        if regular and st.st_size > MAX_DECK_BYTES:
            raise _too_big(shown, st.st_size)
        cached = deck_cache.known(path, st, builtin, shown) if regular else None
        if cached is not None:  # the file is as it was when it was last read
            return cached
        raw = read_capped(path, MAX_DECK_BYTES, "")
    except InputTooLarge:
        raise _too_big(shown, None) from None
    except OSError as exc:
        raise DeckError([DeckIssue(shown, 1, 1, f"cannot read: {exc.strerror or exc}")]) from None
    # only bytes that passed every check below are ever cached, so a hit skips them
    entry = deck_cache.entry_for(raw, builtin)
    cached = deck_cache.get(entry, shown)
    if cached is not None:
        if regular:  # a pipe's identity says nothing of what it gives next time
            deck_cache.remember(path, st, builtin, entry)
        return cached
    if on_parse is not None:
        on_parse(shown, len(raw))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DeckError([DeckIssue(shown, line, col, "not valid UTF-8 text")]) from None
    long_line = _first_long_line(text)
    if long_line:
        message = (
            f"line {long_line} is longer than {MAX_LINE:,} characters: not a hand-written deck"
        )
        raise DeckError([DeckIssue(shown, long_line, 1, message)])
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise DeckError([DeckIssue(shown, line, 1, "binary data (NUL byte): not a YAML deck")])
    deck = parse_deck(text.lstrip("\ufeff"), shown, builtin=builtin)
    deck_cache.put(entry, deck)
    if regular:
        deck_cache.remember(path, st, builtin, entry)
    return deck


def _too_big(shown: str, size: int | None) -> DeckError:
    """A deck over the limit: `size` is None when it was found by reading (a pipe, a device)."""
    what = "over 5 MB" if size is None else f"{size / 1024 / 1024:.1f} MB"
    return DeckError([DeckIssue(shown, 1, 1, f"file is {what}; decks are limited to 5 MB")])


def _shown_path(path: Path) -> str:
    """The path as the user would type it: relative under the working folder, else absolute."""
    resolved = Path(os.path.realpath(path))  # unlike resolve(), no error on a symlink loop
    cwd = Path.cwd()
    if cwd != Path(cwd.anchor) and resolved.is_relative_to(cwd):
        return str(resolved.relative_to(cwd))
    return str(resolved)


def load_library(
    extra: Iterable[Path] = (),
    *,
    user_decks: bool = True,
    on_parse: OnParse | None = None,
    warn: Callable[[str], None] | None = None,
) -> Library:
    """Every deck: the built-in ones, `$GRILL_HOME/decks/*.yaml`, then `extra` paths.

    Raises one DeckError listing the issues of every invalid file. `on_parse`: see `load_deck`.
    In the deck folders, what is not a regular file (a named pipe, which would hang every
    command, a device, a broken or looping symlink) is skipped and `warn` is told why.
    """
    files = [(p, True) for p in _deck_files(builtin_decks_dir(), warn)]
    if user_decks and user_decks_dir().is_dir():
        files += [(p, False) for p in _deck_files(user_decks_dir(), warn)]
    files += [(Path(p), False) for p in extra]
    decks: list[Deck] = []
    issues: list[DeckIssue] = []
    for path, builtin in files:
        try:
            decks.append(load_deck(path, builtin=builtin, on_parse=on_parse))
        except DeckError as exc:
            issues.extend(exc.issues)
    issues.extend(_duplicate_decks(decks))
    if issues:
        raise DeckError(issues)
    return Library(tuple(decks))


def _deck_files(folder: Path, warn: Callable[[str], None] | None) -> list[Path]:
    """The regular `*.yaml` files of a deck folder, symlinks followed, in name order."""
    found = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            mode = os.stat(path).st_mode
            why = None if stat.S_ISREG(mode) else f"it is {kind_of(mode)}"
        except OSError as exc:
            why = exc.strerror or str(exc)
        if why is None:
            found.append(path)
        elif warn is not None:
            warn(f"skipped {path}: {why}, not a deck file")
    return found


def _duplicate_decks(decks: list[Deck]) -> list[DeckIssue]:
    seen: dict[str, Deck] = {}
    issues = []
    for deck in decks:
        if deck.name in seen:
            other = seen[deck.name].path
            message = f"deck name '{deck.name}' is also used by {other}"
            issues.append(DeckIssue(deck.path, 1, 1, message))
        seen.setdefault(deck.name, deck)
    return issues


# ---------------------------------------------------------------- plain data -> model objects


def _node_at(root: yaml.Node | None, *keys: str | int) -> yaml.Node | None:
    """The node at a path of mapping keys and list indexes, for locating cross-field issues."""
    node = root
    for key in keys:
        if isinstance(key, int) and isinstance(node, yaml.SequenceNode):
            node = node.value[key] if key < len(node.value) else None
        elif isinstance(key, str) and isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == key), None)
        else:
            return None
    return node


def _build(data: dict[str, Any], root: yaml.Node | None, r: _Reader, builtin: bool) -> Deck:
    name = data.get("deck") or "?"
    sections = tuple(
        Section(s["key"], s["title"])
        for s in data.get("sections") or ()
        if s and s.get("key") and s.get("title")
    )
    tiers = tuple(
        Tier(t["first"], t["last"], t["verdict"])
        for t in data.get("tiers") or ()
        if t and None not in (t.get("first"), t.get("last"), t.get("verdict"))
    )
    _check_deck_numbers(data, root, r)
    section_keys = {s.key for s in sections}
    cards = tuple(
        card
        for i, raw in enumerate(data.get("cards") or ())
        if raw and (card := _card(raw, name, _node_at(root, "cards", i), section_keys, r))
    )
    _check_unique(cards, "id", root, r)
    _check_unique(cards, "n", root, r)
    cards = _seen(cards, root, r)
    cases = tuple(
        case
        for i, raw in enumerate(data.get("cases") or ())
        if raw and (case := _case(raw, name, _node_at(root, "cases", i), r))
    )
    if not cards and not cases and not r.issues:
        r.fail(root, "the deck has no cards and no cases")
    return Deck(
        name=name,
        title=data.get("title") or "",
        path=r.path,
        cards=CardList(cards),
        cases=cases,
        sections=sections,
        tiers=tiers,
        target=data.get("target"),
        floor=data.get("floor"),
        description=data.get("description") or "",
        builtin=builtin,
    )


def _check_deck_numbers(data: dict[str, Any], root: yaml.Node | None, r: _Reader) -> None:
    target, floor = data.get("target"), data.get("floor")
    if target is not None and floor is not None and floor > target:
        r.fail(_node_at(root, "floor"), f"'floor' ({floor}) is above 'target' ({target})")
    for i, tier in enumerate(data.get("tiers") or ()):
        if (
            tier
            and None not in (tier.get("first"), tier.get("last"))
            and tier["first"] > tier["last"]
        ):
            r.fail(_node_at(root, "tiers", i), f"tier {tier['first']}-{tier['last']} is backwards")


def _point(raw: dict[str, Any]) -> Point:
    match = tuple(x for x in raw["match"] if x)
    vague = tuple(x for x in raw.get("vague") or () if x)
    return Point(
        raw["id"],
        raw["says"],
        match,
        vague,
        tuple(x for x in raw.get("alone") or () if x),
        tuple(x for x in raw.get("unless") or () if x),
        tuple(x for x in raw.get("needs") or () if x),
    )


def _points(raws: Iterable[Any]) -> tuple[Point, ...]:
    """Points that passed the schema; invalid ones are already reported."""
    return tuple(_point(p) for p in raws if p and p.get("id") and p.get("says") and p.get("match"))


def _card(
    raw: dict[str, Any],
    deck: str,
    node: yaml.Node | None,
    sections: set[str],
    r: _Reader,
) -> Card | None:
    r.card = raw.get("id") or "?"
    try:
        if sections and raw.get("section") and raw["section"] not in sections:
            known = ", ".join(sorted(sections))
            message = f"unknown section '{raw['section']}' (known: {known})"
            r.fail(_node_at(node, "section"), message)
        rubric = _rubric(raw.get("rubric"), _node_at(node, "rubric"), r)
        required = ("id", "n", "section", "question", "answer")
        if rubric is None or any(raw.get(k) is None for k in required):
            return None
        return Card(
            id=raw["id"],
            n=raw["n"],
            section=raw["section"],
            question=raw["question"],
            answer=raw["answer"],
            explanation=raw.get("explanation"),
            rubric=rubric,
            deck=deck,
            line=node.start_mark.line + 1 if node else 0,
            see=raw.get("see"),
        )
    finally:
        r.card = None


def _rubric(raw: dict[str, Any] | None, node: yaml.Node | None, r: _Reader) -> Rubric | None:
    if not raw or not raw.get("points"):
        return None
    points = _points(raw["points"])
    wrong = _points(raw.get("wrong") or ())
    ids = [p.id for p in points]
    _check_ids(ids + [w.id for w in wrong], _node_at(node, "points"), r, "rubric point")
    for key in ("requires", "order"):
        for i, ref in enumerate(raw.get(key) or ()):
            if ref is not None and ref not in ids:
                r.fail(_node_at(node, key, i), f"'{key}' names '{ref}', which is not a point id")
    for key in ("correct", "partial"):
        if (value := raw.get(key)) is not None and value > len(points):
            message = f"'{key}' is {value} but the rubric has {len(points)} point(s)"
            r.fail(_node_at(node, key), message)
    return Rubric(
        points=points,
        correct=raw.get("correct"),
        partial=raw.get("partial"),
        requires=tuple(x for x in raw.get("requires") or () if x),
        order=tuple(x for x in raw.get("order") or () if x),
        wrong=wrong,
        generated=bool(raw.get("generated")),
    )


def _check_ids(ids: list[str], node: yaml.Node | None, r: _Reader, what: str) -> None:
    seen: set[str] = set()
    for pid in ids:
        if pid in seen:
            r.fail(node, f"{what} id '{pid}' is used twice")
        seen.add(pid)


def _seen(cards: tuple[Card, ...], root: yaml.Node | None, r: _Reader) -> tuple[Card, ...]:
    """Each card's `see` resolved to the text the grader reads for it: the answer and
    explanation of the card it names, which must be another card of the deck with an
    explanation."""
    by_id = {c.id: c for c in cards}
    out = []
    for i, card in enumerate(cards):
        other = by_id.get(card.see) if card.see is not None else None
        if other is not None and other is not card and other.explanation:
            card = replace(card, context=seen_text(other.answer, other.explanation))
        elif card.see is not None:
            own = other is not None and other is not card
            why = "has no explanation to read" if own else "is not another card of this deck"
            r.card = card.id
            r.fail(_node_at(root, "cards", i, "see"), f"'see' names '{card.see}', which {why}")
            r.card = None
        out.append(card)
    return tuple(out)


def _check_unique(cards: tuple[Card, ...], attr: str, root: yaml.Node | None, r: _Reader) -> None:
    first: dict[object, Card] = {}
    for i, card in enumerate(cards):
        value = getattr(card, attr)
        if value in first:
            where = _node_at(root, "cards", i, attr)
            r.card = card.id
            prior = first[value]
            message = f"duplicate {attr} {value!r} (first used by '{prior.id}', line {prior.line})"
            r.fail(where, message)
            r.card = None
        first.setdefault(value, card)


def _case(raw: dict[str, Any], deck: str, node: yaml.Node | None, r: _Reader) -> Case | None:
    needed = ("id", "title", "question", "tests", "covers", "wrong_answers", "parts")
    if any(raw.get(k) is None for k in needed + ("follow_ups_text", "example", "source")):
        return None
    parts = tuple(
        CasePart(p["id"], p["says"], _points(p["items"]), p.get("need") or 1)
        for p in raw["parts"]
        if p and p.get("items") and p.get("id") and p.get("says")
    )
    for i, part in enumerate(parts):
        if part.need > len(part.items):
            message = f"part '{part.id}' needs {part.need} of {len(part.items)} items"
            r.fail(_node_at(node, "parts", i, "need"), message)
    red_flags = _points(raw.get("red_flags") or ())
    items = {i.id for part in parts for i in part.items}
    for i, flag in enumerate(red_flags):
        for unknown in (x for x in flag.alone if x not in items):
            message = f"red flag '{flag.id}' alone '{unknown}', which is no item of a part"
            r.fail(_node_at(node, "red_flags", i, "alone"), message)
    follow_ups = tuple(
        FollowUp(f["question"], _points(f["points"]))
        for f in raw.get("follow_ups") or ()
        if f and f.get("points")
    )
    return Case(
        id=raw["id"],
        title=raw["title"],
        question=raw["question"],
        tests=raw["tests"],
        covers=raw["covers"],
        wrong_answers=raw["wrong_answers"],
        parts=parts,
        red_flags=red_flags,
        follow_ups_text=raw["follow_ups_text"],
        follow_ups=follow_ups,
        example=raw["example"],
        source=raw["source"],
        deck=deck,
        line=node.start_mark.line + 1 if node else 0,
    )
