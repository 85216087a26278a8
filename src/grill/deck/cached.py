"""The parsed-deck cache: a deck file read before is not parsed again, and a big one is not even
read again. Composing YAML costs about 0.25 ms a card: 20,000 cards would add seconds to every
command. A cache that cannot be read or written is simply skipped.

A valid deck is stored under the hash of its file's bytes (with the built-in flag, grill's
version and `FORMAT`: the layout's number and a digest of the model's fields, so a new deck
field never serves a stale card), not under its path: a path is shown relative to the working
folder, and neither running grill elsewhere nor moving a folder should cost a parse. An edit
gives the deck a new entry, and the old one is pruned once unused for `KEEP_DAYS`.

Beside it, a small note per deck file records the file's identity as `os.stat` gives it
(device, inode, size, modification and change times) and the entry its bytes hashed to: while
the file's identity is unchanged, its bytes are neither read nor hashed (20 MB of decks cost
about 20 ms). As in git's index, a note is written only for a file last changed more than
`SETTLED_SECONDS` ago, so two edits within one tick of the filesystem's clock cannot share a
note; and any write to a file moves its change time, which no program can set back.

An entry holds 8 bytes, the length of its index; the index, a pickle of (the deck without
its cards, the cards' ids, numbers, sections, offsets); then each card pickled on its own,
back to back. Reading the index costs little; a card is read from the file and unpickled when
it is first read (`CardList.deferred`), so `grill due` over 20,000 cards reads the few it
shows. Only grill.model's deck classes may be unpickled, so a tampered entry cannot run code:
an entry that fails to load is parsed afresh, and a card that fails later removes its entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import struct
import time
from collections.abc import Iterable
from dataclasses import fields, is_dataclass, replace
from functools import partial
from itertools import accumulate
from pathlib import Path
from typing import Any

from grill import model
from grill.errors import DeckError, DeckIssue
from grill.model import Card, CardList, Deck
from grill.paths import grill_home

__all__ = [
    "CACHED_CLASSES",
    "FORMAT",
    "KEEP_DAYS",
    "LAYOUT",
    "model_shape",
    "SETTLED_SECONDS",
    "entry_for",
    "get",
    "known",
    "put",
    "remember",
]

KEEP_DAYS = 30
"""An entry unused this long, or a note written this long ago, is removed when another entry is
written: every edit of a deck gives it a new key, and the old entry would otherwise stay."""
SETTLED_SECONDS = 2.0
"""How long ago a file must have last changed for its identity to be trusted (see above)."""

_LENGTH = struct.Struct(">Q")
CACHED_CLASSES: tuple[type, ...] = (
    model.Card,
    model.CardList,
    model.Case,
    model.CasePart,
    model.Deck,
    model.FollowUp,
    model.Point,
    model.Rubric,
    model.Section,
    model.Tier,
)
"""The only classes an entry holds and may unpickle: grill.model's deck classes."""
_CACHEABLE = {cls.__name__ for cls in CACHED_CLASSES}


LAYOUT = "4"
"""The entry's own layout (length, index, cards); bumped by hand when `put` changes."""


def model_shape(classes: Iterable[type]) -> str:
    """A digest of the fields (names and annotated types) of the classes a cache entry pickles:
    a field added, removed, renamed or retyped in grill.model gives a new digest, so no one has
    to remember to bump a version when a deck dataclass changes."""
    digest = hashlib.sha256()
    for cls in sorted(classes, key=lambda c: c.__qualname__):
        for name, kind in _fields(cls):
            digest.update(f"{cls.__qualname__}.{name}:{kind}\0".encode())
    return digest.hexdigest()[:16]


def _fields(cls: type) -> list[tuple[str, str]]:
    """A dataclass's fields with their types as written; another class's slots."""
    if is_dataclass(cls):
        return [(f.name, str(f.type)) for f in fields(cls)]
    return [(name, "") for name in getattr(cls, "__slots__", ())]


FORMAT = f"{LAYOUT}-{model_shape(CACHED_CLASSES)}"
"""Part of every key, so an entry of an older layout or an older model is never read."""


class _ModelUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "grill.model" and name in _CACHEABLE:
            return getattr(model, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the deck cache")


def _folder() -> Path:
    return grill_home() / "cache" / "decks"


def entry_for(raw: bytes, builtin: bool) -> Path:
    """Where the deck parsed from `raw` is (or would be) stored."""
    from grill import __version__

    digest = hashlib.sha256(raw)  # fed in two parts: joining them would copy the whole deck
    digest.update(f"\0{builtin}\0{__version__}\0{FORMAT}".encode())
    return _folder() / f"{digest.hexdigest()[:40]}.pickle"


# ---------------------------------------------------------------- notes: a file's identity


def _note_for(path: Path, builtin: bool) -> Path:
    name = hashlib.sha256(f"{path.resolve()}\0{builtin}\0{FORMAT}".encode()).hexdigest()
    return _folder() / f"{name[:40]}.stat"


def _identity(st: os.stat_result) -> str:
    return f"{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}"


def known(path: Path, st: os.stat_result, builtin: bool, shown: str) -> Deck | None:
    """The cached deck of the file at `path` when its identity `st` is the one noted for it,
    without reading the file; None otherwise."""
    try:
        identity, entry = _note_for(path, builtin).read_text(encoding="ascii").split("\n")[:2]
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if identity != _identity(st) or not (entry.endswith(".pickle") and len(entry) == 47):
        return None
    return get(_folder() / entry, shown)


def remember(path: Path, st: os.stat_result, builtin: bool, entry: Path) -> None:
    """Note that the file at `path`, while its identity is `st`, holds the deck in `entry`."""
    if time.time() - max(st.st_mtime, st.st_ctime) < SETTLED_SECONDS:
        return  # changed moments ago: another change could keep this identity
    note = _note_for(path, builtin)
    _write(note, f"{_identity(st)}\n{entry.name}\n".encode("ascii"))


# ---------------------------------------------------------------- entries: parsed decks


def get(entry: Path, shown: str) -> Deck | None:
    """The deck stored in `entry`, shown as `shown`; None when it is missing or unreadable."""
    try:
        fd = os.open(entry, os.O_RDONLY)
    except OSError:
        return None
    try:
        (size,) = _LENGTH.unpack(os.pread(fd, _LENGTH.size, 0))
        if size > os.fstat(fd).st_size - _LENGTH.size:  # never trust a length to allocate
            raise ValueError("not a deck index")
        index = os.pread(fd, size, _LENGTH.size)
        head, ids, numbers, sections, offsets = _ModelUnpickler(io.BytesIO(index)).load()
        if not isinstance(head, Deck) or not len(ids) == len(numbers) == len(offsets) - 1:
            raise ValueError("not a deck index")
        _mark_used(fd)
    except (
        OSError,
        pickle.UnpicklingError,
        EOFError,
        AttributeError,
        ValueError,
        TypeError,
        struct.error,
    ):
        os.close(fd)
        return None
    base = _LENGTH.size + size
    opened = _Open(fd)  # closed with the last card list that may still read from it

    def make(i: int) -> Card:
        try:
            blob = os.pread(opened.fd, offsets[i + 1] - offsets[i], base + offsets[i])
        except OSError:
            blob = b""
        return _card(blob, entry)

    return replace(head, path=shown, cards=CardList.deferred(ids, numbers, sections, make))


class _Open:
    """An entry's file descriptor, closed when nothing can read from it any more."""

    __slots__ = ("fd",)

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __del__(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def _card(blob: bytes, entry: Path) -> Card:
    """One card of a cached deck, unpickled when it is first read."""
    try:
        card = _ModelUnpickler(io.BytesIO(blob)).load()
    except (pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError):
        card = None
    if not isinstance(card, Card):
        # its index was read from the same file moments ago, so this is tampering or a disk
        # fault: drop the entry so that the next command parses the deck again
        entry.unlink(missing_ok=True)
        message = "the parsed-deck cache was damaged and has been removed: run the command again"
        raise DeckError([DeckIssue(str(entry), 1, 1, message)])
    return card


def put(entry: Path, deck: Deck) -> None:
    """Store `deck` in `entry` (quietly skipped when the cache cannot be written)."""
    dump = partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)
    blobs = [dump(card) for card in deck.cards]
    offsets = tuple(accumulate(map(len, blobs), initial=0))
    cards = deck.cards
    index = dump(
        (replace(deck, cards=CardList()), cards.ids, cards.numbers, cards.sections, offsets)
    )
    _write(entry, _LENGTH.pack(len(index)) + index + b"".join(blobs))
    _prune(entry.parent)


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        # on a full disk, a half-written file would take the room the review needs
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def _mark_used(fd: int) -> None:
    """Bring an entry's mtime to now when it is a day old, so that pruning sees it used (once a
    day: a hit costs no write)."""
    with contextlib.suppress(OSError):
        if time.time() - os.fstat(fd).st_mtime > 86_400:
            os.utime(fd)


def _prune(folder: Path) -> None:
    cutoff = time.time() - KEEP_DAYS * 86_400
    with contextlib.suppress(OSError):
        for item in os.scandir(folder):
            if item.name.endswith((".pickle", ".stat", ".tmp")) and item.stat().st_mtime < cutoff:
                with contextlib.suppress(OSError):
                    os.unlink(item.path)
