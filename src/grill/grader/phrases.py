"""The phrase language of docs/rubrics.md (`a b`, `a .. b`, `(a|b)`, `{2000-8000} steps`, `= a b`),
compiled to variants of slots and cached; `phrase_error` and `phrase_warnings` lint a phrase.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from grill.grader.lexicon import (
    _STOPWORDS,
    _SUFFIX_MAG,
)
from grill.grader.text import (
    _analyse_sentence,
    _fold,
    _Num,
    _sentences,
    _stems_of,
    _Tok,
)

__all__ = ["phrase_error", "phrase_warnings"]

# ---------------------------------------------------------------- phrases

# Metrics that move opposite to the loss: "train accuracy rises" is "train loss falls". A direction
# word in a clause about one of them (and no loss) does not match a phrase that names none.
_ACCURACY_STEMS = _stems_of("accuracy acc f1 score auc bleu top1 top5".split())
_LOSS_STEMS = _stems_of("loss error perplexity ppl nll entropy".split())
_DIRECTION_STEMS = _stems_of("increase decrease high low up down drop upward downward".split())


class _PhraseError(ValueError):
    pass


@dataclass(frozen=True)
class _Slot:
    """One place in a bag: any of these words, or a number in any of these ranges."""

    words: frozenset[str]
    nums: tuple[_Num, ...] = ()
    negator: bool = False

    def accepts(self, tok: _Tok) -> bool:
        if tok.word in self.words:
            return True
        return tok.num is not None and any(_in_range(tok.num, n) for n in self.nums)


_SHARE_FLOOR = 0.005
"""A plain number below this is a value in its own right (a learning rate of 3e-5), never a
share of a whole said as a fraction (0.1 of the peak is 10%; nobody says 0.003 of it)."""


def _in_range(value: _Num, spec: _Num) -> bool:
    eps = 1e-9
    lo, hi = value.lo, value.hi
    if value.kind != spec.kind:
        if spec.kind == "%" and value.kind in ("", "x") and value.hi <= 1:
            if 0 < value.lo < _SHARE_FLOOR:
                return False  # "down to 3e-5 from a 3e-4 peak": a value, not a share
            lo, hi = lo * 100, hi * 100  # 0.1 of peak = 10%
        elif spec.kind == "%" and value.kind == "" and 1 < value.lo < value.hi <= 100:
            pass  # "5-15 old / 85-95 new": a range of shares with its sign left off
        elif spec.kind == "x" and value.kind == "%" and value.lo >= 20:
            lo, hi = 1 + lo / 100, 1 + hi / 100  # 50-100% faster = 1.5-2x
        else:
            return False
    return spec.lo - eps <= lo and hi <= spec.hi + eps


_Segment = tuple[_Slot, ...]
_Expansion = tuple[_Segment, ...]


@dataclass(frozen=True)
class _Variant:
    """One way a phrase can match: bags in order, whether it negates, extra window width."""

    segments: _Expansion
    negated: bool
    slack: int
    bare_negation: bool = False  # `(no|nothing)`: matches only an answer that is just a negation
    tight: bool = False  # `= a b`: each bag's words stand next to each other (filler skipped)
    accuracy: bool = False  # names an accuracy-like metric: its directions are that metric's


@dataclass(frozen=True)
class _Phrase:
    variants: tuple[_Variant, ...]
    words: frozenset[str]


_SYNTAX = re.compile(r"(\.\.|\{[^{}]*\}|[(|)])")
_NUMSPEC = re.compile(
    r"^\s*(?P<lo>\d+(?:\.\d+)?)\s*(?P<lm>k|m|b)?\s*(?:-\s*(?P<hi>\d+(?:\.\d+)?)\s*(?P<hm>k|m|b)?)?"
    r"\s*(?P<kind>%|x|×)?\s*$"
)
_MAX_VARIANTS = 256


def _num_spec(body: str) -> _Num:
    m = _NUMSPEC.match(body.lower())
    if not m:
        raise _PhraseError(
            f"bad number range {{{body}}}: write {{2000-8000}}, {{5-15%}} or {{10x}}"
        )
    lo = float(m.group("lo")) * _SUFFIX_MAG.get(m.group("lm") or "", 1.0)
    hi_text = m.group("hi")
    hi = lo if hi_text is None else float(hi_text) * _SUFFIX_MAG.get(m.group("hm") or "", 1.0)
    if hi_text is not None and m.group("hm") and not m.group("lm"):
        lo *= _SUFFIX_MAG[m.group("hm")]
    if lo > hi:
        raise _PhraseError(f"number range {{{body}}} runs backwards")
    kind = {"×": "x"}.get(m.group("kind") or "", m.group("kind") or "")
    return _Num(lo, hi, kind)


def _text_slots(text: str) -> list[_Slot]:
    """Plain phrase text -> one slot per word, via the answer's normalisation."""
    out: list[_Slot] = []
    for _, piece in _sentences(_fold(text)):
        for tok in _analyse_sentence(piece, 0):
            if tok.word == "#" and tok.num is not None:
                out.append(_Slot(frozenset(), (tok.num,)))
            else:
                nums = (tok.num,) if tok.num is not None else ()
                out.append(_Slot(frozenset({tok.word}), nums, tok.neg == 1))
    return out


# While compiling: a variant is (segments as lists of slots, negated, slack).
_Draft = tuple[list[list[_Slot]], bool, int]


def _parse(phrase: str) -> list[_Draft]:
    parts = [p for p in _SYNTAX.split(phrase) if p and p.strip()]
    pos = 0

    def sequence(depth: int) -> list[_Draft]:
        nonlocal pos
        acc: list[_Draft] = [([[]], False, 0)]
        while pos < len(parts):
            part = parts[pos]
            if part in (")", "|"):
                if depth == 0:
                    raise _PhraseError(
                        "')' without a matching '('"
                        if part == ")"
                        else "'|' outside brackets: write (a|b)"
                    )
                break
            pos += 1
            if part == "(":
                acc = _join(acc, group(depth))
            elif part == "..":
                acc = [([*segs, []], neg, slack) for segs, neg, slack in acc]
            elif part.startswith("{"):
                acc = _join(acc, [([[_Slot(frozenset(), (_num_spec(part[1:-1]),))]], False, 0)])
            else:
                if "{" in part or "}" in part:
                    raise _PhraseError(f"unbalanced braces in {part.strip()!r}")
                slots = _text_slots(part)
                acc = _join(acc, [([slots], any(sl.negator for sl in slots), 0)])
        return acc

    def group(depth: int) -> list[_Draft]:
        nonlocal pos
        options: list[tuple[_Draft, bool]] = []
        while True:
            literal_empty = pos < len(parts) and parts[pos] in ("|", ")")
            options.extend((draft, literal_empty) for draft in sequence(depth + 1))
            if pos >= len(parts):
                raise _PhraseError("'(' is never closed")
            pos += 1
            if parts[pos - 1] == ")":
                break
        if all(empty for _, empty in options):
            raise _PhraseError("empty brackets '()'")
        return _collapse(options)

    result = sequence(0)
    if pos < len(parts):
        raise _PhraseError(f"unexpected '{parts[pos]}'")
    return result


def _collapse(options: list[tuple[_Draft, bool]]) -> list[_Draft]:
    """A group's alternatives: single words merge into one slot; an optional group is dropped.

    Dropping `(x|)` loses nothing: a bag without x matches wherever the bag with x does (the
    window keeps room for it). An optional part with a negator is kept, since it changes meaning.
    An alternative made only of filler words (`that's it`) cannot be checked and is left out;
    a group made only of them (`(the|a)`) is optional.
    """
    singles: set[str] = set()
    nums: list[_Num] = []
    others: list[_Draft] = []
    optional = all(not any(segs_ for segs_ in d[0]) for d, _ in options)
    for (segs, neg, slack), literal_empty in options:
        atoms = [sl for seg in segs for sl in seg]
        if not atoms and len(segs) == 1:
            optional = optional or literal_empty
        elif len(segs) == 1 and len(atoms) == 1 and not neg:
            singles |= atoms[0].words
            nums.extend(atoms[0].nums)
        else:
            others.append((segs, neg, slack))
    if optional and not any(neg for _, neg, _ in others):
        return [([[]], False, 1)]
    out = [([[_Slot(frozenset(singles), tuple(nums))]], False, 0)] if singles or nums else []
    out += others
    if optional:
        out.append(([[]], False, 1))
    return out


def _join(acc: list[_Draft], options: list[_Draft]) -> list[_Draft]:
    """Every variant so far followed by every option; `..` inside an option starts a new bag."""
    out: list[_Draft] = []
    for segs, neg, slack in acc:
        for osegs, oneg, oslack in options:
            merged = [list(seg) for seg in segs]
            merged[-1].extend(osegs[0])
            merged.extend(list(seg) for seg in osegs[1:])
            out.append((merged, neg or oneg, slack + oslack))
    if len(out) > _MAX_VARIANTS:
        raise _PhraseError(
            f"too many combinations of multi-word alternatives (more than {_MAX_VARIANTS})"
        )
    return out


@cache
def _compile(phrase: str) -> _Phrase:
    stripped = phrase.strip()
    tight = stripped.startswith("=")
    if tight:
        stripped = phrase = stripped[1:].strip()
    if not stripped:
        raise _PhraseError("empty phrase")
    if stripped.startswith("..") or stripped.endswith(".."):
        raise _PhraseError("'..' needs words on both sides")
    variants: list[_Variant] = []
    for segs, negated, slack in _parse(phrase):
        bags = tuple(tuple(seg) for seg in segs if seg)
        if not bags:
            raise _PhraseError(
                "the phrase can match with no words at all (only filler words or optional parts)"
            )
        bare = all(slot.words == {"not"} and not slot.nums for bag in bags for slot in bag)
        accuracy = any(slot.words & _ACCURACY_STEMS for bag in bags for slot in bag)
        variant = _Variant(bags, negated, slack, bare, tight, accuracy)
        if variant not in variants:
            variants.append(variant)
    words = frozenset(w for v in variants for seg in v.segments for sl in seg for w in sl.words)
    return _Phrase(tuple(variants), words)


_INNER_GROUP = re.compile(r"\(([^()]*)\)")


_UNIT_OUTSIDE = re.compile(r"(\{[^{}]*)\}(x|%|k|m|b)(?![\w{])")
"""A range with its unit after the braces, `{3-1000}x`: the unit is then no part of the number
(`{3-1000x}` is 3x to 1000x; `{3-1000}x` is a plain 3-1000 and then the word `x`)."""


def phrase_warnings(phrase: str) -> list[str]:
    """Parts of a valid phrase that cannot be checked: alternatives made only of filler words,
    and a number's unit written after its range's braces.

    In a required group, `(it|update)` silently reads as `update` (so "clip it" misses), and a
    group of filler words only, `(then|and)`, drops out of the phrase altogether; both are legal
    but rarely what the author meant. Optional groups (`(the|)`) lose nothing and pass.
    """
    out: list[str] = [
        f"{m.group(0)!r}: a number's unit goes inside the braces ({m.group(1)}{m.group(2)}}}); "
        f"after them {m.group(2)!r} is read as a word of its own, or dropped"
        for m in _UNIT_OUTSIDE.finditer(phrase)
    ]
    text = phrase
    while True:
        m = _INNER_GROUP.search(text)
        if m is None:
            break
        alts = m.group(1).split("|")
        optional = any(not a.strip() for a in alts)
        filler = [a.strip() for a in alts if a.strip() and _plain(a) and not _has_words(a.strip())]
        if optional or not filler:
            pass  # `(the|)`, `(very|way|)`: optional anyway, nothing is lost
        elif len(filler) == len(alts):
            out.append(f"group {m.group(0)!r} is only filler words: it drops out")
        else:
            shown = ", ".join(repr(a) for a in filler)
            out.append(
                f"alternative {shown} of {m.group(0)!r} is only filler words: it is left out,"
                " so one of the others is required"
            )
        out += _shrunk(phrase, [a.strip() for a in alts])
        text = text[: m.start()] + " \x00 " + text[m.end() :]
    return out


def _shrunk(phrase: str, alts: list[str]) -> list[str]:
    """Alternatives of several words that read as one once filler words drop out, where that
    one word is all the phrase asks: `(just works|drop in)` alone matches "drop the LR"."""
    out: list[str] = []
    single = [
        v for v in _compile(phrase).variants if sum(map(len, v.segments)) == 1 and not v.negated
    ]
    for alt in alts:
        if len(alt.split()) < 2 or not _plain(alt):
            continue
        slots = _text_slots(alt)
        if len(slots) != 1 or slots[0].nums:
            continue
        if sum(w.lower() not in _STOPWORDS for w in re.findall(r"[\w']+", alt)) != 1:
            continue  # "blow up" is one word of the lexicon, not a word lost to filler
        if any(slots[0].words <= s.words for v in single for seg in v.segments for s in seg):
            word = "|".join(sorted(slots[0].words))
            out.append(
                f"alternative {alt!r} reads as the one word {word!r} (filler words drop out),"
                " so any answer using that word matches"
            )
    return out


def _plain(alt: str) -> bool:
    return not any(c in alt for c in "{}.\x00")


def _has_words(text: str) -> bool:
    return bool(_text_slots(text))


def phrase_error(phrase: str) -> str | None:
    """Why a phrase is not valid in the phrase language, or None when it is."""
    try:
        _compile(phrase)
    except _PhraseError as exc:
        return str(exc)
    return None
