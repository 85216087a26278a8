"""Matching compiled phrases against an analysed answer: key points (in any order, negation
read), misconceptions (in order, in one clause), swapped facts (`_SWAP_TEXT`) and wrong numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as _field
from functools import lru_cache

from rapidfuzz.distance import OSA, Levenshtein

from grill.grader.context import Category, disabled
from grill.grader.lexicon import (
    _IDK,
    _KNOWN,
    _PROTECTED_STEMS,
    _WORD_SPLIT,
    _english,
    _stem,
)
from grill.grader.phrases import (
    _ACCURACY_STEMS,
    _DIRECTION_STEMS,
    _LOSS_STEMS,
    _compile,
    _PhraseError,
    _Segment,
    _Slot,
    _Variant,
)
from grill.grader.scope import Scope, Span
from grill.grader.text import (
    COUNTERFACTUAL,
    _analyse_sentence,
    _Answer,
    _fold,
    _Num,
    _Tok,
)

__all__ = ["COUNTERFACTUAL", "MATCH_RULES", "negation_rule", "partners", "swap_ids", "swap_rule"]

# ---------------------------------------------------------------- matching


@dataclass(frozen=True)
class _Prepared:
    vocab: frozenset[str]
    typos: dict[str, str | None]
    raw: tuple[tuple[str, str], ...] = ()  # (a rubric word as written, its stem in vocab)
    raw_typos: dict[str, str | None] = _field(default_factory=dict)


@lru_cache(maxsize=1024)
def _prepare(phrases: tuple[str, ...]) -> _Prepared:
    vocab: set[str] = set()
    for phrase in phrases:
        try:
            vocab |= _compile(phrase).words
        except _PhraseError:
            continue
    raw: dict[str, str] = {}
    for phrase in phrases:
        for word in _WORD_SPLIT.findall(phrase.lower()):
            stem = _stem(word)
            if len(word) >= 6 and word.isalpha() and stem in vocab and stem not in _PROTECTED_STEMS:
                raw.setdefault(word, stem)
    return _Prepared(frozenset(vocab), {}, tuple(sorted(raw.items())), {})


_GAP = 6  # misconceptions: at most this many words from one side of `..` to the next


@dataclass(frozen=True)
class _Hit:
    sentence: int
    positions: tuple[int, ...]
    negated: bool
    contradiction: bool  # negated inside one main clause: states the opposite of the phrase
    rule: str = ""  # the context trigger that negated it


def _accuracy_positions(sentence: Sequence[_Tok]) -> frozenset[int]:
    """Positions of a sentence whose clause is about an accuracy-like metric, not a loss."""
    words = [
        "top1" if t.word == "top" and q + 1 < len(sentence) and sentence[q + 1].num else t.word
        for q, t in enumerate(sentence)
    ]  # "top-1", "top 5"
    if not _ACCURACY_STEMS.intersection(words):
        return frozenset()
    if not _LOSS_STEMS.intersection(words):
        return frozenset(range(len(sentence)))
    about: set[int] = set()
    for c in {t.clause for t in sentence}:
        where = [p for p, t in enumerate(sentence) if t.clause == c]
        clause = {words[p] for p in where}
        if clause & _ACCURACY_STEMS and not clause & _LOSS_STEMS:
            about.update(where)
    return frozenset(about)


class _View:
    """One answer seen through one rubric: tokens, typo-resolved words and where they occur."""

    def __init__(self, answer: _Answer, prepared: _Prepared):
        self.answer = answer
        self.index: list[dict[str, list[int]]] = []
        self.numbers: list[list[int]] = []
        self.accuracy = [_accuracy_positions(sentence) for sentence in answer.sentences]
        vocab, typos = prepared.vocab, prepared.typos
        folded = _fold(answer.text) if any(answer.sentences) else ""
        self.folded = folded
        self.vocab = prepared.vocab
        for sentence in answer.sentences:
            idx: dict[str, list[int]] = {}
            nums: list[int] = []
            for p, tok in enumerate(sentence):
                idx.setdefault(tok.word, []).append(p)
                if tok.word not in vocab:
                    alias = _typo_in(tok.word, vocab, typos)
                    if alias is None and tok.num is None:
                        alias = _typo_raw(folded[tok.start : tok.end], prepared)
                    if alias is not None:
                        idx.setdefault(alias, []).append(p)
                if tok.num is not None:
                    nums.append(p)
            self.index.append(idx)
            self.numbers.append(nums)

    def candidates(self, s: int, slot: _Slot) -> list[int]:
        index = self.index[s]
        found: list[int] = []
        for word in slot.words:
            found.extend(index.get(word, ()))
        if slot.nums:
            sentence = self.answer.sentences[s]
            found.extend(p for p in self.numbers[s] if slot.accepts(sentence[p]))
        return sorted(set(found)) if len(slot.words) > 1 or slot.nums else found


def _typo_in(word: str, vocab: frozenset[str], memo: dict[str, str | None]) -> str | None:
    if word in memo:
        return memo[word]
    found = None
    if len(word) >= 6 and word.isalpha() and word not in _KNOWN and word not in _english():
        found = next(
            (
                v
                for v in sorted(vocab)
                if len(v) >= 6 and v not in _PROTECTED_STEMS and _one_typo_from(word, v)
            ),
            None,
        )
    memo[word] = found
    return found


def _typo_raw(surface: str, prepared: _Prepared) -> str | None:
    """The typed word before stemming one typo from a rubric word before stemming.

    Stems hide typos (`saturaton` stays whole while `saturation` stems to `satur`), so a word that
    is unknown as a stem is also compared as typed with the rubric's words as written.
    """
    memo = prepared.raw_typos
    if surface in memo:
        return memo[surface]
    found = None
    if (
        len(surface) >= 6
        and surface.isalpha()
        and _stem(surface) not in _KNOWN
        and surface not in _english()
    ):
        found = next((stem for v, stem in prepared.raw if _one_typo_from(surface, v)), None)
        if found is None:
            found = _typo_of_english(surface, prepared.vocab)
    memo[surface] = found
    return found


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _typo_of_english(surface: str, vocab: frozenset[str]) -> str | None:
    """The rubric stem of an English word one edit from `surface` (the same first letter), when
    there is exactly one: a rubric written with a short stem ("scal") has no long word for
    `_typo_raw` to compare a typo with, but "scalng" is one letter from "scaling"."""
    english = _english()
    head, splits = surface[0], [(surface[:i], surface[i:]) for i in range(1, len(surface) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    edits |= {a + c + b for a, b in splits for c in _LETTERS}
    stems = {
        _stem(w)
        for w in edits
        if w[:1] == head and w in english and _stem(w) in vocab and _stem(w) not in _PROTECTED_STEMS
    }
    return stems.pop() if len(stems) == 1 else None


def _one_typo_from(word: str, v: str) -> bool:
    """`word` is a typo of `v`: the same first letter and at most one edit away (two for words
    of nine letters or more)."""
    limit = 2 if len(word) >= 9 else 1
    return (
        v[0] == word[0]
        and abs(len(v) - len(word)) <= limit
        and OSA.distance(word, v, score_cutoff=limit) <= limit
    )


def _window(n: int) -> int:
    return n + max(4, n)


def _negated(view: _View, s: int, chosen: Iterable[int], strict: bool) -> str:
    """The trigger whose scope negates this placement, or "". Key points heed negations;
    misconceptions and red flags (`strict`) also soft negations and dismissals, in the wider
    windows. A span's own trigger word in the placement does not negate it ("avoid restarts")."""
    picked = set(chosen)
    last = max(picked)
    scope = view.answer.scopes[s]
    cover = scope.wide if strict else scope.key
    for p in sorted(picked):
        for span in cover[p]:
            if span.at in picked or (span.backward and p != last):
                continue
            if _applies(view.answer.sentences[s], scope, span, last, strict):
                return span.trigger
    return ""


_KEY_CATEGORIES = frozenset({Category.NEGATION})
_STRICT_CATEGORIES = frozenset({Category.NEGATION, Category.SOFT_NEGATION, Category.DISMISSAL})


def _applies(sentence: Sequence[_Tok], scope: Scope, span: Span, last: int, strict: bool) -> bool:
    """Does a span cover a claim ending at `last`? A negator under a check does not deny a key
    point; one in a condition does not negate a misconception that goes on past the condition."""
    if span.category not in (_STRICT_CATEGORIES if strict else _KEY_CATEGORIES):
        return False
    if span.at < 0:
        return True
    if not strict:
        return not scope.suspect[span.at]
    return not (scope.cond[span.at] and sentence[span.at].clause != sentence[last].clause)


def _carried(view: _View, s: int, positions: Sequence[int], strict: bool) -> tuple[str, str]:
    """(a refusal, a retraction) of a claim: clause-shaped spans, read on a whole hit. A
    retraction takes back a claim any of whose words it covers; a refusal ("..., so I
    wouldn't") a misconception that ends before it."""
    refused = retracted = ""
    scope = view.answer.scopes[s]
    for span in scope.carried_wide if strict else scope.carried:
        if span.category is Category.RETRACTION:
            if not retracted and any(span.start <= p < span.end for p in positions):
                retracted = span.trigger
        elif strict and not refused and span.start <= max(positions) < span.end:
            refused = span.trigger
    return refused, retracted


def _bag_matches(
    view: _View, s: int, bag: _Segment, after: int, variant: _Variant, strict: bool
) -> Iterator[tuple[tuple[int, ...], str]]:
    """Every placement of a bag in sentence s after position `after`: (positions, the trigger
    that negates it or "").

    Key points: any order within the window. Misconceptions (`strict`): in the phrase's order
    and inside one clause.
    """
    sentence = view.answer.sentences[s]
    cands = [[p for p in view.candidates(s, slot) if p > after] for slot in bag]
    if any(not c for c in cands):
        return
    width = (len(bag) if variant.tight else _window(len(bag))) + variant.slack
    anchors = cands[0] if strict else sorted({p for c in cands for p in c})
    seen: set[tuple[int, ...]] = set()
    accuracy = view.accuracy[s] if not variant.accuracy else frozenset()
    for anchor in anchors:
        chosen = (
            _in_order(sentence, cands, anchor, width)
            if strict
            else _any_order(view, s, cands, anchor, width, variant.negated)
        )
        if chosen is None:
            continue
        if accuracy and any(
            p in accuracy and slot.words & _DIRECTION_STEMS
            for slot, p in zip(bag, chosen, strict=True)
        ):
            continue  # "val accuracy drops" is not "val (loss) drops"
        key = tuple(sorted(chosen))
        if key in seen or (strict and after >= 0 and _passive(sentence, after, key[0])):
            continue
        seen.add(key)
        if variant.negated:
            if len({sentence[p].side for p in key}) == 1 and not _excepted(sentence, key):
                yield key, ""
        else:
            yield key, _negated(view, s, key, strict)


def _excepted(sentence: Sequence[_Tok], key: tuple[int, ...]) -> bool:
    """Rule phrase.excepted: a negation its sentence goes on to except ("nothing extra, except
    loss scaling past a few billion params") does not state the negated phrase: the exception
    names what is needed after all."""
    if _EXCEPTED in disabled():
        return False
    side = sentence[key[-1]].side
    return any("termination.except" in t.leads and t.side > side for t in sentence[key[-1] + 1 :])


def _any_order(
    view: _View, s: int, cands: list[list[int]], anchor: int, width: int, negated: bool
) -> list[int] | None:
    used: set[int] = set()
    chosen: list[int] = []
    for c in cands:
        inside = [p for p in c if anchor <= p < anchor + width and p not in used]
        if not inside:
            return None
        if not negated:
            inside.sort(key=lambda p: _negated(view, s, (p,), False) != "")
        used.add(inside[0])
        chosen.append(inside[0])
    return chosen


def _passive(sentence: Sequence[_Tok], a: int, b: int) -> bool:
    """A passive `by` between two words of a misconception: "old skills wiped out by the new task"
    turns "old .. wipe out .. new" around, so the in-order reading does not hold; nor does a word
    after a passive verb of losing ("old skills are forgotten after ... new")."""
    return sentence[a].pverb or any(sentence[q].passive for q in range(a + 1, b))


def _in_order(
    sentence: Sequence[_Tok], cands: list[list[int]], anchor: int, width: int
) -> list[int] | None:
    clause = sentence[anchor].clause
    chosen = [anchor]
    for c in cands[1:]:
        nxt = next((p for p in c if p > chosen[-1]), None)
        if nxt is None or nxt >= anchor + width or sentence[nxt].clause != clause:
            return None
        if _passive(sentence, chosen[-1], nxt):
            return None
        turn = _TURNED.get(sentence[chosen[-1]].word, frozenset())
        if any(t.word in turn for t in sentence[chosen[-1] + 1 : nxt]):
            return None  # "more data or fewer parameters": "more" is not said of the parameters
        chosen.append(nxt)
    return chosen


_UP, _DOWN = frozenset({"mor", "increas", "high"}), frozenset({"decreas", "low"})
_TURNED = {**dict.fromkeys(_UP, _DOWN), **dict.fromkeys(_DOWN, _UP)}
"""A direction word and its opposites (stems): an opposite between two items of a phrase turns
the direction away from the second."""


def _match_variant(view: _View, variant: _Variant, strict: bool) -> _Hit | None:
    """The first hit of a variant in the answer not negated, else the first negated one."""
    fallback: _Hit | None = None
    if variant.bare_negation:
        return _bare_negation(view)
    for s in range(len(view.answer.sentences)):
        after = -1
        while (hit := _match_segments(view, s, variant, 0, after, strict, ())) is not None:
            positions, rule = hit
            scope = view.answer.scopes[s]
            if rule and strict and any(scope.cond[p] for p in positions):
                rule = _negated(view, s, positions, strict)  # the condition's own negation
            elif rule:
                rule = _negated(view, s, positions, strict) or rule  # named over the whole hit
            one_clause = len({view.answer.sentences[s][p].clause for p in positions}) == 1
            main = not any(scope.sub[p] for p in positions)
            refused, retracted = _carried(view, s, positions, strict)
            rule = rule or refused
            contradiction = one_clause and main and not retracted and not scope.counterfactual
            result = _Hit(s, positions, bool(rule or retracted), contradiction, rule or retracted)
            if not result.negated:
                return result  # a hit taken back by a retraction gives way to a later one,
            fallback = fallback or result
            if not retracted:
                break
            after = min(positions)  # in its sentence too: "a tenth - no, ten percent"
    return fallback


# "not much", "not a lot": a hedge on an amount, not a bare negation.
_HEDGED_AMOUNT = re.compile(r"\s*(?:much|many|a bit|a little)\b")


def _bare_negation(view: _View) -> _Hit | None:
    """A sentence that is only a negation, with at most one more word: "nothing", "none extra";
    or one that opens with such a clause of "nothing", "none", "nada", "zilch" and goes on on
    the same side ("nothing: it just works", "none, no scaler"; rule phrase.nothing-clause).

    A negated amount ("not much", "not a lot") is a hedge, not a negation: it does not count.
    """
    folded = view.folded
    for s, whole in enumerate(view.answer.sentences):
        k = _framed(view, whole) if s == 0 else 0
        sentence = whole[k:]
        if len(sentence) <= 2 and sentence[0].neg == 1:
            if _HEDGED_AMOUNT.match(folded, sentence[0].end):
                continue
            # (from a little before the negator: "don't" is read at its "n't"; "skip" and "pass"
            # say "idk" only as a whole answer)
            unknown = _IDK.search(folded[max(0, sentence[0].start - 4) : sentence[-1].end])
            if unknown and unknown.group(0) not in ("skip", "pass", "n/a", "na"):
                continue  # "Don't know.", "Not my area." say nothing is known, not needed
            return _Hit(s, (k,), False, False)
        first = [t for t in sentence if t.clause == sentence[0].clause]
        same_side = all(t.side == sentence[0].side for t in sentence)  # not "nothing X, but Y"
        if len(first) <= 2 and sentence[0].neg == 1 and same_side and _NOTHING not in disabled():
            if folded[sentence[0].start : sentence[0].end] in _NOTHING_WORDS:
                return _Hit(s, (k,), False, False)  # "nothing: it just works", "none, no scaler"
    return None


_FRAME_WORDS = 5


def _framed(view: _View, sentence: Sequence[_Tok]) -> int:
    """Rule phrase.framed: the tokens of a lead-in that frames the answer before a colon ("Off
    the top of my head: nothing", "Honestly: none"): at most five words, none of them the
    rubric's or a negator. 0 when there is none."""
    if _FRAMED in disabled():
        return 0
    for k in range(1, min(_FRAME_WORDS, len(sentence) - 1) + 1):
        gap = view.folded[sentence[k - 1].end : sentence[k].start]
        if ":" in gap:
            lead = sentence[:k]
            if any(t.neg or t.word in view.vocab or t.num is not None for t in lead):
                return 0
            return k
        if re.search(r"[^\w\s']", gap):
            return 0  # a comma or a stop before any colon: no lead-in
    return 0


_NOTHING = "phrase.nothing-clause"
_EXCEPTED = "phrase.excepted"
_LISTED = "phrase.listed"
_FRAMED = "phrase.framed"
MATCH_RULES = (_NOTHING, _EXCEPTED, _LISTED, _FRAMED, COUNTERFACTUAL)
"""The phrase language's own rules with an id, for ablation (`GRILL_GRADER_WITHOUT`)."""
_NOTHING_WORDS = frozenset({"nothing", "none", "nada", "zilch", "nothin"})


def _match_segments(
    view: _View,
    s: int,
    variant: _Variant,
    k: int,
    after: int,
    strict: bool,
    acc: tuple[int, ...],
) -> tuple[tuple[int, ...], str] | None:
    """The first non-negated placement of the bags from k on after `after` (else a negated one,
    with the trigger that negates it)."""
    if k == len(variant.segments):
        return acc, ""
    fallback = None
    for positions, negated in _bag_matches(view, s, variant.segments[k], after, variant, strict):
        if strict and k > 0 and min(positions) - after > _GAP:
            break
        if strict and k > 0 and _antonym_between(view.answer.sentences[s], acc, after, positions):
            continue  # "important ones stay anchored while unimportant ones move freely"
        rest = _match_segments(view, s, variant, k + 1, max(positions), strict, acc + positions)
        if rest is None:
            continue
        total, rest_negated = rest
        if not (negated or rest_negated):
            return total, ""
        fallback = fallback or (total, negated or rest_negated)
    return fallback


_COORDINATOR = re.compile(r"[\s,]*(?:and|or|&|\+|plus|as well as)\s+(?:(?:the|a|an)\s+)?")


def listed(view: _View, hit: _Hit, points: Sequence[_Hit | None]) -> bool:
    """Rule phrase.listed: a misconception whose first and last words are two different key
    points of the card, joined by a bare `and` / `or`, names the two side by side in a list
    ("dropout and weight decay"); it does not say one is the other."""
    if _LISTED in disabled() or len(hit.positions) < 2:
        return False
    sentence = view.answer.sentences[hit.sentence]
    first, last = hit.positions[0], hit.positions[-1]
    before = max(p for p in hit.positions if p < last)
    gap = view.folded[sentence[before].end : sentence[last].start]
    if _COORDINATOR.fullmatch(gap) is None:
        return False
    owners = [
        {
            i
            for i, h in enumerate(points)
            if h and not h.negated and h.sentence == hit.sentence and p in h.positions
        }
        for p in (first, last)
    ]
    return bool(owners[0]) and bool(owners[1]) and not owners[0] & owners[1]


_PLACE_OPPOSITES: dict[str, frozenset[str]] = {}
for _x, _ys in (
    ("above", "below"),
    ("before", "after"),
    ("first", "last"),
    ("hold", "break breaks broke fail fails"),  # "holds over a range and breaks down past ..."
    ("holds", "break breaks broke fail fails"),
):
    for _y in _ys.split():
        for _a, _b in ((_stem(_x), _stem(_y)), (_stem(_y), _stem(_x))):
            _PLACE_OPPOSITES[_a] = _PLACE_OPPOSITES.get(_a, frozenset()) | {_b}


def _antonym_between(
    sentence: Sequence[_Tok], acc: tuple[int, ...], after: int, positions: tuple[int, ...]
) -> bool:
    """Between two sides of `..`, the `un-`, place or verb opposite of a word matched before, or
    a later clause about the rest: the second side is said of the other thing ("important ...
    while unimportant ones move freely", "below it X, above it Y", "important ... and the rest
    are free to move")."""
    said = {sentence[p].word for p in acc}
    other = {o for w in said for o in _PLACE_OPPOSITES.get(w, ())}
    return any(
        (t.word.startswith("un") and t.word[2:] in said) or t.word in other or _rest(sentence, q)
        for q, t in enumerate(sentence[after + 1 : min(positions)], after + 1)
    )


def _rest(sentence: Sequence[_Tok], q: int) -> bool:
    """Whether the token at q opens a clause about everything else ("and the rest are free",
    "others move freely", "everything else can drift"; not "unlike the rest, ...")."""
    if sentence[q].word not in _COMPLEMENT:
        return False
    opening = [t.word for t in sentence[:q] if t.clause == sentence[q].clause]
    return sentence[q].clause > 0 and all(w in _QUANTIFIERS for w in opening)


_COMPLEMENT = frozenset({_stem("rest"), _stem("others"), _stem("else")})
"""Words that open a clause about everything but the thing named before ("the important
weights stay anchored and the rest are free to move", "..., others move freely", "everything
else can drift"): what follows is said of them."""
_QUANTIFIERS = frozenset({_stem("all"), _stem("everything"), _stem("anything"), _stem("every")})
"""Words that may stand before them in that clause ("and all the others", "everything else")."""


def placements(view: _View, phrases: Sequence[str]) -> list[tuple[int, int]]:
    """Where a key point is said, not negated: the start (sentence, position) of each phrase's
    first placement in each sentence, sorted. The order check reads these, so a sequence is out
    of order only when no choice of its points' places runs in order ("it falls hard right
    away, then rolls down a long hill": "falls" is not the descent when the hill is)."""
    out: set[tuple[int, int]] = set()
    for phrase in phrases:
        for variant in _compile(phrase).variants:
            if variant.bare_negation:
                continue
            for s in range(len(view.answer.sentences)):
                hit = _match_segments(view, s, variant, 0, -1, False, ())
                if hit is not None and not hit[1] and not _negated(view, s, hit[0], False):
                    out.add((s, min(hit[0])))
    return sorted(out)


def _match_point_phrases(view: _View, phrases: Sequence[str], strict: bool) -> _Hit | None:
    """The earliest non-negated hit of any phrase, else a negated one (a contradiction first)."""
    return _point_hits(view, phrases, strict)[0]


def _point_hits(
    view: _View, phrases: Sequence[str], strict: bool
) -> tuple[_Hit | None, _Hit | None]:
    """(`_match_point_phrases`, the widest contradiction of any phrase, even if another matches)."""
    best: _Hit | None = None
    negated: _Hit | None = None
    widest: _Hit | None = None
    stated = 0  # the most words any phrase matches not negated
    for phrase in phrases:
        for variant in _compile(phrase).variants:
            hit = _match_variant(view, variant, strict)
            if hit is None:
                continue
            if not hit.negated:
                stated = max(stated, len(hit.positions))
            if hit.negated:
                if negated is None or (hit.contradiction and not negated.contradiction):
                    negated = hit
                if hit.contradiction and (
                    widest is None or len(hit.positions) > len(widest.positions)
                ):
                    widest = hit
            elif best is None or (hit.sentence, hit.positions[0]) < (
                best.sentence,
                best.positions[0],
            ):
                best = hit
    if widest is not None and len(widest.positions) <= stated:
        widest = None  # as strong a phrase is stated: the denial does not outweigh it
    return best or negated, widest


def _hit_text(view: _View, hit: _Hit) -> str:
    sentence = view.answer.sentences[hit.sentence]
    start = min(sentence[p].start for p in hit.positions)
    end = max(sentence[p].end for p in hit.positions)
    return _original_span(view.answer.text, start, end)


def _original_span(text: str, start: int, end: int) -> str:
    """The answer's own words at offsets into its folded text: folding keeps the length except
    where a reading rule rewrites ("it's X that" -> "X", "2 grand" -> "2k"), and there the
    folded text is aligned back to what was typed, so a quote is always the typed words."""
    folded = _fold(text)
    if len(folded) == len(text):
        return text[start:end].strip()
    back = _back_map(text)
    if back is None:
        return folded[start:end].strip()
    lo, hi = back[start][0], back[max(start, end - 1)][1]
    return text[lo:hi].strip() or folded[start:end].strip()


@lru_cache(maxsize=256)
def _back_map(text: str) -> tuple[tuple[int, int], ...] | None:
    """For each character of the folded text, the span of typed characters it stands for (a
    rewritten stretch stands for the whole stretch it replaced)."""
    lower = text.lower()
    if len(lower) != len(text):
        return None
    folded = _fold(text)
    out: list[tuple[int, int]] = []
    for op in Levenshtein.opcodes(lower, folded):
        n = op.dest_end - op.dest_start
        if op.tag == "equal" or (op.tag == "replace" and n == op.src_end - op.src_start):
            out.extend((op.src_start + i, op.src_start + i + 1) for i in range(n))
        else:
            out.extend((op.src_start, op.src_end) for _ in range(n))
    return tuple(out) if len(out) == len(folded) else None


# ---------------------------------------------------------------- swapped facts

# The standard's swap pairs, as the normaliser writes them: a key point that does not match but
# matches with one side of a pair exchanged for the other is a swapped fact or a reversed direction.
# Only phrases of two words or more are swapped: a one-word phrase (`underflow`) swapped is a bare
# mention of the other side ("backs off when it sees an overflow"), which states nothing false.
_SWAP_TEXT = """fp16 | bf16
mantissa | exponent
old | new
overflow | underflow
increase | decrease
more | decrease
high | low
up | down
before | after
above | below
global | per layer
vanishing | exploding
overfitting | underfitting"""


def swap_ids() -> list[str]:
    """The swap pairs as rule ids (`swap:fp16|bf16`), for ablation and the docs."""
    return [
        "swap:" + "|".join(side.strip() for side in line.split("|"))
        for line in _SWAP_TEXT.splitlines()
    ]


def _swap_table() -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    table: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    off = disabled()
    for rule, line in zip(swap_ids(), _SWAP_TEXT.splitlines(), strict=True):
        if rule in off:
            continue
        a, b = (tuple(t.word for t in _analyse_sentence(side, 0)) for side in line.split("|"))
        table.setdefault(a, []).append(b)
        table.setdefault(b, []).append(a)
    return {k: tuple(v) for k, v in table.items()}


_SWAPS = _swap_table()
_SWAP_WORDS = frozenset(k[0] for k in _SWAPS if len(k) == 1)


@lru_cache(maxsize=4096)
def _swapped_variants(phrase: str) -> tuple[_Variant, ...]:
    """Each variant of a phrase with one slot (or one `per layer` pair of slots) swapped."""
    out: list[_Variant] = []
    for variant in _compile(phrase).variants:
        if variant.bare_negation or sum(map(len, variant.segments)) < 2:
            continue  # a bare mention of the other side ("backs off on overflow") swaps nothing
        said = {w for bag in variant.segments for slot in bag for w in slot.words}
        for k, bag in enumerate(variant.segments):
            for i, slot in enumerate(bag):
                for span, replacement in _slot_swaps(bag, i, slot):
                    if span == 1 and any(r.words <= said for r in replacement):
                        continue  # "explodes or vanishes": both sides said, nothing to swap
                    new_bag = (*bag[:i], *replacement, *bag[i + span :])
                    segments = (*variant.segments[:k], new_bag, *variant.segments[k + 1 :])
                    swapped = replace(variant, segments=segments)
                    if swapped not in out:
                        out.append(swapped)
    return tuple(out)


def _slot_swaps(
    bag: Sequence[_Slot], i: int, slot: _Slot
) -> Iterator[tuple[int, tuple[_Slot, ...]]]:
    """(slots replaced, replacement) for each swap of the slot at i."""
    if slot.nums or slot.negator:
        return
    sides = slot.words & _SWAP_WORDS
    partners = {p for w in sides for p in _SWAPS[(w,)]}
    if sides and not any(p in slot.words for part in partners for p in part):
        singles = frozenset(p[0] for p in partners if len(p) == 1)
        if singles:
            yield 1, (_Slot(singles),)
        for p in partners:
            if len(p) > 1:
                yield 1, tuple(_Slot(frozenset({w})) for w in p)
    if i + 1 < len(bag) and not bag[i + 1].nums:
        for a in slot.words:
            for b in bag[i + 1].words:
                for p in _SWAPS.get((a, b), ()):
                    yield 2, tuple(_Slot(frozenset({w})) for w in p)


def _swap_hit(view: _View, phrases: Sequence[str], used: set[tuple[int, int]]) -> _Hit | None:
    """A hit of a phrase with one side of a swap pair exchanged, not negated, in one clause,
    in the phrase's order (a claim, read like a misconception).

    Words that all belong to another key point's match (`used`) state that point, not a swap.
    """
    for phrase in phrases:
        for variant in _swapped_variants(phrase):
            hit = _match_variant(view, variant, strict=True)
            if hit is not None and not hit.negated:
                if all((hit.sentence, q) in used for q in hit.positions):
                    continue
                sentence = view.answer.sentences[hit.sentence]
                if len({sentence[p].clause for p in hit.positions}) <= _SWAP_CLAUSES:
                    return hit
    return None


def negation_rule(view: _View, hit: _Hit) -> str:
    """The id of the context trigger whose span negated a hit (`negation` for none)."""
    return hit.rule or "negation"


def swap_rule(view: _View, hit: _Hit) -> str:
    """The swap pair a hit states the other side of (`swap:fp16|bf16`)."""
    sentence = view.answer.sentences[hit.sentence]
    said = {sentence[p].word for p in hit.positions}
    for rule, line in zip(swap_ids(), _SWAP_TEXT.splitlines(), strict=True):
        sides = [tuple(t.word for t in _analyse_sentence(s, 0)) for s in line.split("|")]
        if any(side and set(side) <= said for side in sides):
            return rule
    return "swap"


_SWAP_CLAUSES = 1

_ANY_NUMBER = tuple(_Num(-1e18, 1e18, kind) for kind in ("", "%", "x"))


@lru_cache(maxsize=4096)
def _number_variants(phrase: str) -> tuple[_Variant, ...]:
    """Each variant of a phrase with a number slot, that slot accepting any number of any kind."""
    out: list[_Variant] = []
    for variant in _compile(phrase).variants:
        if variant.bare_negation:
            continue
        if not any(sl.nums and not sl.words for seg in variant.segments for sl in seg):
            continue
        if sum(map(len, variant.segments)) < 2:
            continue  # a bare number is no statement about anything
        segments = tuple(
            tuple(_Slot(sl.words, _ANY_NUMBER) if sl.nums and not sl.words else sl for sl in seg)
            for seg in variant.segments
        )
        out.append(replace(variant, segments=segments))
    return tuple(out)


def _number_hit(view: _View, phrases: Sequence[str], used: set[tuple[int, int]]) -> _Hit | None:
    """A key point's phrase matching only with its number out of range or of another kind.

    "about 500 steps" against `{2000-8000} steps`: the answer states the point with a wrong
    number, which the standard counts as wrong, not as a missing point.
    """
    for phrase in phrases:
        for variant in _number_variants(phrase):
            hit = _match_variant(view, variant, strict=False)
            if hit is None or hit.negated:
                continue
            if all((hit.sentence, q) in used for q in hit.positions):
                continue
            sentence = view.answer.sentences[hit.sentence]
            if len({sentence[p].clause for p in hit.positions}) == 1:
                return hit
    return None


_DIRECTION_SWAPS = frozenset(
    {"mor", "increas", "up", "decreas", "down", "drop", "high", "low", "befor", "after", "abov"}
    | {"below"}
)
"""Swap-table words (stems, as the table holds them) that say a direction or an order."""


@lru_cache(maxsize=1)
def partners() -> dict[str, frozenset[str]]:
    """Partner words: two things a card can name where saying one for the other is false, from
    the swap table's single-word pairs that name things, not directions (fp16/bf16,
    mantissa/exponent, old/new, overflow/underflow); each word and the words it pairs with.
    Computed once (the grader asks on every answer); not to be changed by its callers."""
    out: dict[str, set[str]] = {}
    for a, bs in _SWAPS.items():
        for b in bs:
            if len(a) == 1 and len(b) == 1 and not {a[0], b[0]} & _DIRECTION_SWAPS:
                out.setdefault(a[0], set()).add(b[0])
                out.setdefault(b[0], set()).add(a[0])
    return {k: frozenset(v) for k, v in out.items()}
