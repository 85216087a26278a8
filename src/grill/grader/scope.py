"""The one scope algorithm of the context rules, in the manner of NegEx/ConText: the trigger
cues on a sentence's tokens -> typed spans (category, trigger id, start, end) over its tokens.

Every step reads the trigger table (`grill.grader.context`); `docs/grader-rules.md` has them with
an example each. `Scope` is what the matcher reads: the spans and the words' context derived
from them (in a condition, under a check, taken back).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from grill.grader.context import (
    CLAUSE,
    SENTENCE,
    TRIGGERS,
    Category,
    Direction,
    Trigger,
    disabled,
)

__all__ = ["Cued", "Scope", "Span", "carried", "denies", "spans"]


class Cued(Protocol):
    """A token as the scope algorithm sees it."""

    @property
    def word(self) -> str: ...
    @property
    def clause(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def cues(self) -> tuple[str, ...]: ...  # the triggers the token is
    @property
    def leads(self) -> tuple[str, ...]: ...  # triggers standing right before it (no token)
    @property
    def silent(self) -> bool: ...  # a pseudo trigger's word: it holds a cue, takes no room


@dataclass(frozen=True)
class Span:
    """The scope of one trigger over a sentence's tokens: positions start..end-1."""

    category: Category
    trigger: str
    at: int  # the trigger's token; -1 for one that stands between tokens
    start: int
    end: int
    backward: bool  # it reaches back: it modifies a claim that ends inside it


_OFF = disabled()
_TABLE = {t.id: t for t in TRIGGERS if t.id not in _OFF}


def _on(id: str) -> Trigger | None:
    return _TABLE.get(id)


def spans(tokens: Sequence[Cued], wide: bool = False) -> tuple[Span, ...]:
    """The spans of a sentence's triggers, over its tokens without the silent ones.

    `wide` reads each trigger's window for misconceptions and red flags.
    """
    live = [t for t in tokens if not t.silent]
    clauses = _clause_bounds(live)
    out: list[Span] = []
    q = 0  # position among the live tokens
    for k, tok in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        for id in tok.leads:
            out.extend(_scope(id, -1, q, live, clauses, wide))
        if not _pseudo_follows(nxt, tok):
            at = -1 if tok.silent else q  # a silent word stands between tokens
            for id in tok.cues:
                out.extend(_scope(id, at, q, live, clauses, wide))
        q += not tok.silent
    out.extend(_alone(live, clauses))
    return tuple(out)


def _pseudo_follows(nxt: Cued | None, tok: Cued) -> bool:
    """A trigger right before a pseudo trigger in its clause opens no scope ("not only X")."""
    if nxt is None or nxt.clause != tok.clause or not tok.cues:
        return False
    return any((t := _on(id)) is not None and t.category is Category.PSEUDO for id in nxt.cues)


def _clause_bounds(live: Sequence[Cued]) -> list[tuple[int, int]]:
    """(first, one past the last) position of each position's clause."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for q in range(1, len(live) + 1):
        if q == len(live) or live[q].clause != live[start].clause:
            bounds.extend([(start, q)] * (q - start))
            start = q
    return bounds


def _scope(
    id: str, at: int, q: int, live: Sequence[Cued], clauses: list[tuple[int, int]], wide: bool
) -> list[Span]:
    """The spans of one cue: at a token (`at` = q) or before the token at q (`at` = -1)."""
    trig = _on(id)
    if trig is None or trig.alone or trig.joins or q >= len(live) or trig.category in _NO_SCOPE:
        return []  # an alone trigger's scope is its clause's (`_alone`); a joiner has none
    window = trig.wide if wide else trig.window
    first, last = clauses[q]
    out: list[Span] = []
    if trig.direction is not Direction.BACKWARD:
        start = q + 1 if at >= 0 else q
        end = _forward_end(trig, live, clauses, q, start, window, last)
        if end > start:
            out.append(Span(trig.category, id, at, start, end, False))
    if trig.direction is not Direction.FORWARD and at >= 0:
        start = first if window == CLAUSE else max(first, q - window)
        if q > start:
            out.append(Span(trig.category, id, at, start, q, True))
    return out


_NO_SCOPE = (Category.PSEUDO, Category.TERMINATION, Category.CONTINUATION)


def _forward_end(
    trig: Trigger,
    live: Sequence[Cued],
    clauses: list[tuple[int, int]],
    q: int,
    start: int,
    window: int,
    last: int,
) -> int:
    if window == SENTENCE:
        end = start
        while end < len(live) and live[end].side == live[q].side:
            end += 1
        return end
    if window != CLAUSE:
        # an infinitive's "to" is no word of the window: "no need to touch clipping" denies
        # the clipping as "no clipping" does
        end = start
        taken = 0
        while end < last and taken < window:
            taken += live[end].word != "to"
            end += 1
        return end
    while trig.category is Category.SUSPECT and last < len(live) and _goes_on(live[last]):
        last = clauses[last][1]  # "check the lr isn't tiny, that nothing is frozen"
    return last


def _goes_on(tok: Cued) -> bool:
    """Does a clause open with a continuation of a check's list?"""
    return any((t := _on(id)) is not None and t.joins == "suspect.check" for id in tok.leads)


def _alone(live: Sequence[Cued], clauses: list[tuple[int, int]]) -> list[Span]:
    """A clause of its own made of an alone trigger's words (and words that join it) reaches
    back over the clause before it (window CLAUSE) or the sentence before it (SENTENCE)."""
    out: list[Span] = []
    for first, end in sorted(set(clauses)):
        trig = _alone_trigger(live[first:end])
        if trig is None or first == 0:
            continue
        start = clauses[first - 1][0] if trig.window == CLAUSE else 0
        out.append(Span(trig.category, trig.id, first, start, first, True))
    return out


_NOT_ALONE = frozenset({"or", "not"})
"""Words that join a retraction ("cosine, or rather linear"; "no, not cosine") but make none
in a clause of their own."""


def _alone_trigger(clause: Sequence[Cued]) -> Trigger | None:
    """The alone trigger a clause is made of: its words and words that join it ("no wait"),
    or only words that join it ("wait, no: ..." opens with a clause of "wait")."""
    ids = dict.fromkeys(id for tok in clause for id in tok.cues)
    joined = dict.fromkeys(t.joins for id in ids if (t := _on(id)) is not None and t.joins)
    if any(tok.word in _NOT_ALONE for tok in clause):
        joined = {}  # ", or, ..." goes on with a list; "I'm not sure" doubts, takes nothing back
    for id in (*ids, *joined):
        trig = _on(id)
        if trig is None or not trig.alone:
            continue
        if not all(any(c == id or _joins(c, id) for c in tok.cues) for tok in clause):
            continue
        # "wait, no: ..." retracts on its joiner alone; "glad we did" refuses nothing
        if trig.category is Category.RETRACTION or any(id in tok.cues for tok in clause):
            return trig
    return None


def _joins(cue: str, id: str) -> bool:
    trig = _on(cue)
    return trig is not None and trig.joins == id


def carried(before: Sequence[Cued], opening: Sequence[Cued], question: bool) -> Span | None:
    """A question answered with a negator ("would I just lower the LR? not on its own") is
    taken back. A sentence that opens with a retraction clause takes back the sentence before
    when that one is a question ("cosine? no - inverse sqrt") or the retraction goes on to
    replace it,
    else that sentence's last clause; one that
    opens with a refusal clause refuses it the same way ("blame the hardware; there was no
    evidence for it"). Misconceptions and red flags read it over the whole sentence before
    (grill.grader.text): "bit-flips, certainly, and the moon too; no, ..." takes back both."""
    live = [t for t in opening if not t.silent]
    if not live or not before:
        return None
    first = [t for t in live if t.clause == live[0].clause]
    trig = _alone_trigger(first)
    if trig is None or trig.category not in (Category.RETRACTION, Category.SOFT_NEGATION):
        return _turned_down(before, live) if question else None
    last = before[-1].clause
    # a retraction followed by what replaces it takes back the whole sentence before: "it comes
    # down steadily and smoothly. hmm, no, on reflection it stays flat" says only the second;
    # not a "no" that goes on to deny ("..., per-layer logging. and no, we are not blaming the
    # hardware"): that one stresses a denial and takes back nothing more than before
    rest = live[len(first) :]
    replaced = (
        trig.category is Category.RETRACTION
        and bool(rest)
        and not any(denies(c) for t in rest for c in t.cues)
    )
    start = 0 if question or replaced else next(p for p, t in enumerate(before) if t.clause == last)
    return Span(trig.category, trig.id, -1, start, len(before), True)


_SHORT_REPLY = 4
"""The words of a reply's first clause that can turn a question down by a dismissal in it
("restart from scratch? overkill", "bit flips? rarely the culprit")."""


def _turned_down(before: Sequence[Cued], live: Sequence[Cued]) -> Span | None:
    """A question whose answer opens with a negator ("would I just lower the LR? not on its
    own"), ends on one ("X? without evidence, no"), or answers in a short clause that dismisses
    it ("restart? overkill"), is turned down as a whole."""
    turned = Span(Category.RETRACTION, "retraction", -1, 0, len(before), True)
    if len(live) <= _SHORT_REPLY and any(denies(c) for c in live[-1].cues):
        return turned
    if any(denies(c) or _category(c) is Category.RETRACTION for c in live[0].cues):
        return turned
    first = [t for t in live if t.clause == live[0].clause]
    dismissed = any(_category(c) is Category.DISMISSAL for t in first for c in t.cues)
    return turned if dismissed and len(first) <= _SHORT_REPLY else None


def _category(cue: str) -> Category | None:
    trig = _on(cue)
    return None if trig is None else trig.category


@dataclass(frozen=True)
class Scope:
    """One sentence's spans as the matcher reads them: per position, the spans covering it, for
    key points (`key`) and for misconceptions and red flags (`wide`), and the words' context."""

    key: tuple[tuple[Span, ...], ...]
    wide: tuple[tuple[Span, ...], ...]
    sub: tuple[bool, ...]  # in a condition or purpose clause: never a contradiction
    cond: tuple[bool, ...]  # in a condition (`if ...`): its negation is part of the condition
    suspect: tuple[bool, ...]  # under a check: a negator here does not deny a key point
    carried: tuple[Span, ...]  # clause-shaped spans (retraction, refusal): read on a whole hit
    carried_wide: tuple[Span, ...] = ()  # the same, for misconceptions and red flags
    counterfactual: bool = False  # opens with "without X", "if you skip X": nothing contradicted

    @classmethod
    def of(cls, n: int, key: Sequence[Span], wide: Sequence[Span]) -> Scope:
        """The scope of a sentence of n tokens from its spans in both readings."""
        return cls(
            _cover(n, [s for s in key if not _is_alone(s)]),
            _cover(n, [s for s in wide if not _is_alone(s)]),
            _marked(n, key, lambda s: s.category is Category.CONDITION),
            _marked(n, key, lambda s: s.trigger == "condition"),
            _marked(n, key, lambda s: s.category is Category.SUSPECT),
            tuple(s for s in key if _is_alone(s)),
            tuple(s for s in wide if _is_alone(s)),
        )


def denies(cue: str) -> bool:
    """Is this cue a negation (not a softer context: a dismissal, a condition, ...)?"""
    trig = _on(cue)
    return trig is not None and trig.category is Category.NEGATION


def dismisses(cue: str) -> bool:
    """Is this cue a dismissal ("overkill", "a red herring", "rarely the culprit")?"""
    trig = _on(cue)
    return trig is not None and trig.category is Category.DISMISSAL


def _is_alone(span: Span) -> bool:
    trig = _on(span.trigger)
    return trig is not None and trig.alone


def _cover(n: int, found: Sequence[Span]) -> tuple[tuple[Span, ...], ...]:
    cover: list[list[Span]] = [[] for _ in range(n)]
    for span in found:
        for p in range(span.start, min(span.end, n)):
            cover[p].append(span)
    return tuple(tuple(c) for c in cover)


def _marked(n: int, found: Sequence[Span], which: Callable[[Span], bool]) -> tuple[bool, ...]:
    marks = [False] * n
    for span in found:
        if which(span):
            for p in range(span.start, min(span.end, n)):
                marks[p] = True
    return tuple(marks)
