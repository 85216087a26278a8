"""Plain data shared by every layer: decks, cards, rubrics, cases, ratings and verdicts.

Frozen dataclasses and fixed-value IntEnums, plus `CardList`, the read-only sequence a deck keeps
its cards in (built one by one when they come from the deck cache); no I/O and no behaviour
beyond small derived properties. Cards are identified by their explicit `id`, never by position
or text, so an edited card keeps its history; `content_hash` only tells that a card's text changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from enum import IntEnum, StrEnum
from itertools import repeat
from typing import overload

from grill.errors import NotFoundError

__all__ = [
    "BUILTIN_DECK",
    "Card",
    "seen_text",
    "CardList",
    "CardState",
    "Case",
    "CaseGrade",
    "CasePart",
    "Deck",
    "Flag",
    "FollowUp",
    "Grade",
    "Library",
    "MAX_CARD_NUMBER",
    "Mode",
    "Orphan",
    "PartGrade",
    "Phase",
    "Point",
    "RATING_KEYS",
    "Rating",
    "Review",
    "Rubric",
    "Section",
    "SessionRecord",
    "SessionStatus",
    "Tier",
    "Verdict",
    "card_number",
]


class Rating(IntEnum):
    """How well a card was recalled; the values are FSRS's and are stored as ints."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def key(self) -> str:
        """The key that gives this rating in the drill (its number)."""
        return next(k for k, r in RATING_KEYS.items() if r is self)

    @classmethod
    def parse(cls, text: str) -> Rating:
        """Accept `again|hard|good|easy` or a key of `RATING_KEYS` (`1`-`4`, first letters)."""
        key = text.strip().lower()
        for rating in cls:
            if key == rating.label or RATING_KEYS.get(key) is rating:
                return rating
        raise ValueError(f"unknown rating {text!r}: use again, hard, good or easy (or 1-4)")


RATING_KEYS: dict[str, Rating] = {
    "1": Rating.AGAIN,
    "2": Rating.HARD,
    "3": Rating.GOOD,
    "4": Rating.EASY,
    "a": Rating.AGAIN,
    "h": Rating.HARD,
    "g": Rating.GOOD,
    "e": Rating.EASY,
}
"""The keys that rate a card, each rating's number first: the drill binds them and shows the
numbers, typed input and `grill review --rating` accept them (and the ratings' words)."""


class Verdict(IntEnum):
    """The grader's judgement of a typed answer, ordered from worst to best."""

    WRONG = 0
    PARTIAL = 1
    CORRECT = 2

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Point:
    """One key point of an answer (or one misconception, or one case item).

    `match` holds phrases in the grader's phrase language (docs/rubrics.md); any one matching
    means the point is present. `vague` phrases show the idea too vaguely to credit cold: they
    earn partial credit at most. `alone` (case red flags only): item ids; the flag is also
    raised when the first of them is matched and every item the answer matches is among them.
    `unless` (case red flags only): phrases that, said in the sentence the flag is found in, make
    it none (the evidence a flag "without evidence" lacks: "bit flips, unless the ECC log shows
    errors"). `needs` (case red flags only): phrases; a match of the flag's own phrases counts
    only in an answer that says one of them somewhere ("no need to touch clipping" is no
    only-the-LR red flag in an answer that never speaks of the LR).
    """

    id: str
    says: str
    match: tuple[str, ...]
    vague: tuple[str, ...] = ()
    alone: tuple[str, ...] = ()  # red flags only: raised when these are all an answer names
    unless: tuple[str, ...] = ()  # red flags only: said beside it, no red flag
    needs: tuple[str, ...] = ()  # red flags only: its phrases count when one of these is said


@dataclass(frozen=True)
class Rubric:
    """What a cold answer must contain, and what makes it wrong despite the right words.

    `correct` / `partial`: how many points make the verdict (None: the grader applies the
    standard's list rule). `requires`: points without which an answer is never correct.
    `order`: point ids that, when present, must appear in this order. `wrong`: misconceptions;
    any match makes the answer wrong. `generated`: derived from the card's own text by
    `grill decks new` and not yet reviewed by a person.
    """

    points: tuple[Point, ...]
    correct: int | None = None
    partial: int | None = None
    requires: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    wrong: tuple[Point, ...] = ()
    generated: bool = False


@dataclass(frozen=True)
class Card:
    """One question of a deck. `n` is its number in the source (1-45 in the built-in deck)."""

    id: str
    n: int
    section: str
    question: str
    answer: str
    rubric: Rubric
    deck: str
    explanation: str | None = None
    line: int = 0
    see: str | None = None
    """The id of a card of the same deck that says more about the same thing ("FP16 needs?" sees
    "Loss scaling in FP16?"): a card with no explanation of its own is checked against that
    card's answer and explanation (`context`, made by `seen_text`)."""
    context: str | None = None

    @property
    def content_hash(self) -> str:
        """A short hash of the card's text and rubric: changes when the card is edited."""
        payload = json.dumps(
            {
                "q": self.question,
                "a": self.answer,
                "e": self.explanation,
                "r": asdict(self.rubric),
                **({"c": self.context} if self.context else {}),
            },
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


def seen_text(answer: str, explanation: str | None) -> str:
    """What the grader reads of a card another card `see`s: its answer, a line break, its
    explanation. One home for the deck loader and for `grill decks new --from-csv`."""
    return f"{answer}\n{explanation or ''}"


class CardList(Sequence[Card]):
    """A deck's cards in source order: an immutable sequence that compares equal to a tuple of
    the same cards.

    A list read from the deck cache (`CardList.deferred`) knows each card's id, number and
    section up front and builds a `Card` only when that card is read, so choosing today's cards
    among 20,000 builds the few that are due. `ids`, `sections`, `numbers` and `find` never
    build a card.
    """

    __slots__ = ("_built", "_by_id", "_make", "ids", "numbers", "sections")

    ids: tuple[str, ...]
    numbers: tuple[int, ...]
    sections: tuple[str, ...]
    _built: list[Card | None]
    _make: Callable[[int], Card] | None
    _by_id: dict[str, int] | None

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        built = list(cards)
        self._fill(
            tuple(c.id for c in built),
            tuple(c.n for c in built),
            tuple(c.section for c in built),
            list[Card | None](built),
            None,
        )

    @classmethod
    def deferred(
        cls,
        ids: tuple[str, ...],
        numbers: tuple[int, ...],
        sections: tuple[str, ...],
        make: Callable[[int], Card],
    ) -> CardList:
        """Cards whose i-th is `make(i)`, called once, when that card is first read."""
        cards = cls.__new__(cls)
        cards._fill(ids, numbers, sections, [None] * len(ids), make)
        return cards

    def _fill(
        self,
        ids: tuple[str, ...],
        numbers: tuple[int, ...],
        sections: tuple[str, ...],
        built: list[Card | None],
        make: Callable[[int], Card] | None,
    ) -> None:
        self.ids, self.numbers, self.sections = ids, numbers, sections
        self._built, self._make, self._by_id = built, make, None

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> Card: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Card, ...]: ...
    def __getitem__(self, i: int | slice) -> Card | tuple[Card, ...]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        card = self._built[i]
        if card is not None:
            return card
        assert self._make is not None  # only a deferred list has unbuilt cards
        made = self._make(i % len(self))
        self._built[i] = made
        return made

    def __iter__(self) -> Iterator[Card]:
        return (self[i] for i in range(len(self)))

    def find(self, card_id: str) -> Card | None:
        """The card with this id, if any."""
        if self._by_id is None:
            # built backwards so that, were an id repeated, its first card would win
            count = len(self.ids)
            self._by_id = dict(zip(reversed(self.ids), range(count - 1, -1, -1), strict=True))
        at = self._by_id.get(card_id)
        return None if at is None else self[at]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardList | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.ids)

    def __repr__(self) -> str:
        return f"CardList({len(self)} cards)"

    def __reduce__(self) -> tuple[type[CardList], tuple[tuple[Card, ...]]]:
        return (CardList, (tuple(self),))


@dataclass(frozen=True)
class Section:
    key: str
    title: str


@dataclass(frozen=True)
class Tier:
    """A self-grading band of card numbers, with the source's verdict for not knowing it."""

    first: int
    last: int
    verdict: str

    @property
    def name(self) -> str:
        return f"{self.first}-{self.last}"

    def contains(self, n: int) -> bool:
        return self.first <= n <= self.last


@dataclass(frozen=True)
class CasePart:
    """One graded part of an open-ended case (e.g. culprits); covered when `need` items match."""

    id: str
    says: str
    items: tuple[Point, ...]
    need: int = 1


@dataclass(frozen=True)
class FollowUp:
    """A likely follow-up question, self-checked against its key points."""

    question: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Case:
    """An open-ended interview case graded in parts, with named red flags."""

    id: str
    title: str
    question: str
    tests: str
    covers: str
    wrong_answers: str
    parts: tuple[CasePart, ...]
    red_flags: tuple[Point, ...]
    follow_ups_text: str
    follow_ups: tuple[FollowUp, ...]
    example: str
    source: str
    deck: str
    line: int = 0


MAX_CARD_NUMBER = 999_999_999
"""The largest card number `n` a deck may give (SQLite and every report take it as an int)."""


def _is_number(ref: str) -> bool:
    """Whether a card ref is a number: ASCII digits only (`²` and `٣` are digits to Python,
    and not to int())."""
    return ref.isascii() and ref.isdigit()


def card_number(ref: str) -> int | None:
    """The card number a ref names, or None when it is not a number a card can have."""
    if not _is_number(ref) or len(ref) > len(str(MAX_CARD_NUMBER)):
        return None
    return int(ref)


@dataclass(frozen=True)
class Deck:
    """A validated deck file: metadata, cards in source order, and any cases."""

    name: str
    title: str
    path: str
    cards: CardList = field(default_factory=CardList)
    cases: tuple[Case, ...] = ()
    sections: tuple[Section, ...] = ()
    tiers: tuple[Tier, ...] = ()
    target: int | None = None
    floor: int | None = None
    description: str = ""
    builtin: bool = False

    def __post_init__(self) -> None:
        given: object = self.cards
        if not isinstance(given, CardList):  # a plain tuple of cards is taken too
            object.__setattr__(self, "cards", CardList(self.cards))

    def card(self, ref: str) -> Card | None:
        """A card by id, or by its number `n`."""
        if (found := self.cards.find(ref)) is not None:
            return found
        number = card_number(ref)
        if number is not None and number in self.cards.numbers:
            return self.cards[self.cards.numbers.index(number)]
        return None

    def section_title(self, key: str) -> str:
        for section in self.sections:
            if section.key == key:
                return section.title
        return key

    def tier_of(self, n: int) -> Tier | None:
        for tier in self.tiers:
            if tier.contains(n):
                return tier
        return None


BUILTIN_DECK = "training-behaviors"
"""The deck whose card numbers (1-45) can stand for card ids on the command line."""


@dataclass(frozen=True)
class Library:
    """Every loaded deck, with lookups by reference as typed on the command line."""

    decks: tuple[Deck, ...]

    def deck(self, name: str) -> Deck:
        for deck in self.decks:
            if deck.name == name:
                return deck
        known = ", ".join(d.name for d in self.decks) or "none"
        raise NotFoundError(f"no deck named '{name}' (decks: {known})")

    def cards(self, deck: str | None = None) -> tuple[Card, ...]:
        """All cards, or one deck's, in deck then source order."""
        decks = self._chosen(deck)
        return tuple(card for d in decks for card in d.cards)

    def keys(self, deck: str | None = None) -> list[tuple[str, str]]:
        """(deck, card id) of every card, or of one deck's, in the order of `cards`, without
        building a card."""
        decks = self._chosen(deck)
        return [key for d in decks for key in zip(repeat(d.name), d.cards.ids)]

    def sections(self, deck: str | None = None) -> dict[tuple[str, str], str]:
        """The section of every card, or of one deck's, by (deck, card id)."""
        decks = self._chosen(deck)
        return {
            (d.name, card_id): section
            for d in decks
            for card_id, section in zip(d.cards.ids, d.cards.sections, strict=True)
        }

    def card_at(self, key: tuple[str, str]) -> Card:
        """The card with this (deck, card id), as `keys` gives them."""
        found = self.deck(key[0]).cards.find(key[1])
        if found is None:
            raise NotFoundError(f"no card '{key[1]}' in deck '{key[0]}'")
        return found

    def defined(self) -> set[tuple[str, str]]:
        """(deck, id) of every card and case the decks define: what is not orphaned."""
        return {*self.keys(), *((c.deck, c.id) for c in self.cases())}

    def _chosen(self, deck: str | None) -> tuple[Deck, ...]:
        return (self.deck(deck),) if deck else self.decks

    def cases(self) -> tuple[Case, ...]:
        return tuple(case for d in self.decks for case in d.cases)

    def main_deck(self) -> Deck | None:
        """The built-in training-behaviors deck when loaded, else the first deck with cards."""
        with_cards = [d for d in self.decks if d.cards]
        named = [d for d in with_cards if d.name == BUILTIN_DECK]
        candidates = named or with_cards
        return candidates[0] if candidates else None

    def card(self, ref: str, deck: str | None = None) -> Card:
        """A card by `id`, `deck/id`, or number (in `deck`, default the main deck)."""
        ref = ref.strip()
        if "/" in ref:
            deck, ref = ref.split("/", 1)
        if _is_number(ref):
            home = self.deck(deck) if deck else self.main_deck()
            found = home.card(ref) if home else None
            if found is None:
                raise NotFoundError(f"no card number {ref} in deck '{home.name if home else '-'}'")
            return found
        decks = self._chosen(deck)
        matches = [c for d in decks if (c := d.cards.find(ref)) is not None]
        if len(matches) > 1:
            names = ", ".join(f"{c.deck}/{c.id}" for c in matches)
            raise NotFoundError(f"'{ref}' is in several decks; say which: {names}")
        if not matches:
            raise NotFoundError(f"no card '{ref}' (try `grill decks show` to list cards)")
        return matches[0]

    def case(self, ref: str) -> Case:
        for case in self.cases():
            if case.id == ref:
                return case
        known = ", ".join(c.id for c in self.cases()) or "none"
        raise NotFoundError(f"no case '{ref}' (cases: {known})")


@dataclass(frozen=True)
class Flag:
    """A misconception or contradiction the grader found, with the answer text that triggered it.

    `rule`: the grader's rule that fired (a context trigger id such as `negation.hard`, a swap
    pair `swap:fp16|bf16`, `number`, `contrast`, `verdict`, `order`), or `rubric` for the
    card's own misconception or red flag.
    """

    id: str
    says: str
    text: str
    rule: str = "rubric"


@dataclass(frozen=True)
class Grade:
    """The grader's judgement of one typed answer to a card."""

    card: str
    verdict: Verdict
    score: float
    matched: tuple[Point, ...]
    missed: tuple[Point, ...]
    flags: tuple[Flag, ...]
    answer: str
    short_answer: str

    def to_dict(self) -> dict[str, object]:
        return {
            "card": self.card,
            "verdict": self.verdict.label,
            "score": round(self.score, 3),
            "matched": [p.id for p in self.matched],
            "missed": [p.id for p in self.missed],
            "flags": [
                {"id": f.id, "says": f.says, "text": f.text, "rule": f.rule} for f in self.flags
            ],
            "short_answer": self.short_answer,
        }


@dataclass(frozen=True)
class PartGrade:
    """One part of a case answer: covered or not, and which of its items were hit."""

    part: str
    covered: bool
    items: tuple[Point, ...]
    missed: tuple[Point, ...]


@dataclass(frozen=True)
class CaseGrade:
    """The grader's judgement of an open-ended case answer."""

    case: str
    verdict: Verdict
    score: float
    parts: tuple[PartGrade, ...]
    red_flags: tuple[Flag, ...]
    answer: str

    def to_dict(self) -> dict[str, object]:
        return {
            "card": self.case,
            "verdict": self.verdict.label,
            "score": round(self.score, 3),
            "parts": {
                p.part: {"covered": p.covered, "items": [i.id for i in p.items]} for p in self.parts
            },
            "red_flags": [f.id for f in self.red_flags],
            "flags": [{"id": f.id, "says": f.says, "text": f.text} for f in self.red_flags],
        }


# ---------------------------------------------------------------- study state and the review log


class Phase(IntEnum):
    """Where a card is in FSRS's cycle; the values are FSRS's `State` and are stored as ints."""

    LEARNING = 1
    REVIEW = 2
    RELEARNING = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Mode(StrEnum):
    """What kind of study produced a review; stored as text."""

    DRILL = "drill"
    MOCK = "mock"
    CASE = "case"


class SessionStatus(StrEnum):
    OPEN = "open"
    DONE = "done"
    INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class CardState:
    """The scheduling state of one card, known by (deck, card_id). Times are UTC.

    A card never studied has no stored state; `grill.scheduler.Scheduler.new_state` makes the
    state FSRS starts from (learning step 0, due now, no stability yet).
    """

    deck: str
    card_id: str
    phase: Phase
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None
    content_hash: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.deck, self.card_id)

    @property
    def is_new(self) -> bool:
        """True until the first review."""
        return self.last_review is None


@dataclass(frozen=True)
class Review:
    """One row of the append-only review log.

    `before` is the card's state just before this review (None: the card had never been
    studied), so undo can restore it exactly; `after` is the state it produced (None: the answer
    was logged without scheduling, e.g. a case). `content_hash` tells which text was answered.
    """

    id: int
    deck: str
    card_id: str
    reviewed_at: datetime
    rating: Rating
    verdict: Verdict | None
    answer: str | None
    response_ms: int | None
    mode: Mode
    session_id: int | None
    content_hash: str
    before: CardState | None
    after: CardState | None

    @property
    def key(self) -> tuple[str, str]:
        return (self.deck, self.card_id)

    @property
    def first(self) -> bool:
        """True when this review introduced the card (it had no state before)."""
        return self.before is None and self.after is not None

    def to_dict(self) -> dict[str, object]:
        after = self.after
        return {
            "id": self.id,
            "deck": self.deck,
            "card": self.card_id,
            "reviewed_at": self.reviewed_at.isoformat(),
            "mode": str(self.mode),
            "rating": self.rating.label,
            "verdict": None if self.verdict is None else self.verdict.label,
            "answer": self.answer,
            "response_ms": self.response_ms,
            "session": self.session_id,
            "content_hash": self.content_hash,
            "due": None if after is None else after.due.isoformat(),
            "phase": None if after is None else after.phase.label,
            "stability": None if after is None else after.stability,
            "difficulty": None if after is None else after.difficulty,
        }


@dataclass(frozen=True)
class SessionRecord:
    """A drill or mock-interview session: when, how it ended, and its summary (JSON data)."""

    id: int
    mode: Mode
    started_at: datetime
    ended_at: datetime | None
    status: SessionStatus
    summary: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Orphan:
    """A card id with stored state or history that no loaded deck defines any more."""

    deck: str
    card_id: str
    reviews: int
    last_review: datetime | None
    state: CardState | None
