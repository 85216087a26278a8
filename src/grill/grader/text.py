"""Text normalisation: Unicode folding, sentences, tokens and numbers ("2k", "two thousand",
"10x", ranges), clauses, and the trigger cues on the tokens, which `grill.grader.scope` turns
into typed spans (`_analyse`: an answer's tokens and scopes). `normalise` shows the words.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from grill.grader.context import LIST_LEAD, disabled, near
from grill.grader.context import words as context_words
from grill.grader.lexicon import (
    _AUX,
    _CLAUSE_WORDS,
    _FRACTIONS,
    _HARD_NEGATORS,
    _LEX,
    _MAGNITUDES,
    _NEGATED_PREDICATES,
    _NUMBER_WORDS,
    _PERCENT_WORDS,
    _SOFT_NEGATORS,
    _STOPWORDS,
    _STRONG_WORDS,
    _SUFFIX_MAG,
    _TIMES_WORDS,
    _VERBAL_NEGATORS,
    _WORD_NUMS,
    _stem,
    _typo_of_lexicon,
)
from grill.grader.scope import Scope, carried, dismisses, spans

__all__ = ["items_of", "normalise"]

# ---------------------------------------------------------------- tokens


@dataclass(frozen=True)
class _Num:
    lo: float
    hi: float
    kind: str  # "" plain, "%" percent, "x" multiplier


@dataclass(frozen=True)
class _Tok:
    word: str  # canonical stem; "#" for a number
    num: _Num | None
    start: int
    end: int
    neg: int = 0  # 0 none, 1 negator, 2 soft negator (misconceptions only)
    verbal: bool = False  # a negated verb ("isn't", "is not", "never")
    clause: int = 0  # clause index within the sentence (the scopes' bounds)
    side: int = 0  # strong-clause index (a negated phrase may not straddle `but`)
    passive: bool = False  # `by` after a past participle ("wiped out by"): the agent follows
    pverb: bool = False  # a passive verb of losing ("is forgotten"): what follows is no object
    cues: tuple[str, ...] = ()  # the context triggers this token is (grill.grader.context ids)
    leads: tuple[str, ...] = ()  # triggers right before it that are no token (`if`, `:`)
    silent: bool = False  # a pseudo trigger's word ("not only"): read for scope, then dropped


@dataclass
class _Raw:
    """A token while a sentence is being read: surface word or number, with its offsets."""

    text: str
    start: int
    end: int
    num: _Num | None = None
    sep: str = ""  # punctuation: "," (clause break), "-" (range dash) or "" for a word
    stop: bool = False  # a filler word: dropped after negation and clauses are read


_UNICODE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": " - ",
        "\u2015": " - ",
        "\u2212": "-",
        "\u2192": " > ",
        "\u27f6": " > ",
        "\u21d2": " > ",
        "\u2794": " > ",
        "\u279c": " > ",
        "\u00d7": " x ",
        "\u221d": " proportional to ",
        "\u03b7": " eta ",  # the learning rate's usual symbol
        "\u2191": " increase ",
        "\u2b06": " increase ",
        "\u21d1": " increase ",
        "\u2197": " increase ",
        "\u2193": " decrease ",
        "\u2b07": " decrease ",
        "\u21d3": " decrease ",
        "\u2198": " decrease ",
        "\u2248": "~",
        "\u2264": "<",
        "\u2260": " not ",
        "\u2265": ">",
        "\u00f7": " divided by ",
        "\u00b2": " squared ",  # "(B_new / B_old)²": NFKC would read it as a digit 2
        "\u00b3": " cubed ",
        "\u2207": " grad ",  # nabla: "∇L"
        "\u03b8": " theta ",  # the weights' usual symbol: "θ_old"
        "\u0394": " change ",  # "a tiny late Δ"
        "\u03b4": " change ",
    }
)
_Repl = str | Callable[[re.Match[str]], str]
_RATIO_LEAD = r"(?:(?:=|is|of|at|ratio|~|about|around|roughly|approximately|approx)\s*){0,3}"
_RATIO_SIDE = r"(?P<x>\d+(?:\.\d+)?)(?:\s*-\s*(?P<xh>\d+(?:\.\d+)?))?"
_SHARE_OF = r"(?<![\d.])(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?"
"""A number or a range of them, before a unit of shares other than percent."""


_POSITIVE = {
    **dict.fromkeys(("doesn't", "does not"), "does"),
    **dict.fromkeys(("don't", "do not"), "do"),
    **dict.fromkeys(("isn't", "is not"), "is"),
    **dict.fromkeys(("aren't", "are not"), "are"),
    **dict.fromkeys(("won't", "will not"), "will"),
    **dict.fromkeys(("can't", "cannot"), "can"),
    **dict.fromkeys(("needn't", "need not"), "need"),
}
"""A negator's positive form, once a double negation cancels it; the double negation's pattern
reads these negators and no others."""

_DICTATED = (
    (re.compile(r"\s*\b(?:comma)\b"), ","),
    (re.compile(r"\s*\b(?:period|full stop|dot dot dot)\b"), "."),
    (re.compile(r"\s*\bsemi-?colon\b"), ";"),
    (re.compile(r"\s*\bcolon\b"), ":"),
    (re.compile(r"\s*\bquestion mark\b"), "?"),
    (re.compile(r"\s*\bexclamation (?:mark|point)\b"), "!"),
    (re.compile(r"\s*\bnew (?:line|paragraph)\b"), "\n"),
)


def _dictated(text: str) -> str:
    for pattern, mark in _DICTATED:
        text = pattern.sub(mark, text)
    return text


def _table(m: re.Match[str]) -> str:
    """A block of `|` rows with as many cells as its first (the header): one sentence per cell,
    the row's first cell and the column's header before it. Anything else is left as it is."""
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in m.group(0).splitlines()
        if not re.fullmatch(r"[\s|:-]*", line)
    ]
    head = rows[0]
    if len(rows) < 2 or any(len(r) != len(head) for r in rows):
        return m.group(0)
    said = [f"{r[0]} {h} {c}." for r in rows[1:] for h, c in zip(head[1:], r[1:], strict=True)]
    return "\n".join(said)


def _share(m: re.Match[str], per_percent: int) -> str:
    """`10-20‰` is `1-2%`: each end divided by the unit's count per percent."""
    ends = [f"{float(g) / per_percent:g}" for g in m.groups() if g is not None]
    return f" {'-'.join(ends)}% "


_LIST_NEGATORS = (
    r"don't|do not|never|wouldn't|would not|won't|will not|shouldn't|should not|mustn't"
    r"|no need to|no point in|no reason to"
)
_NEGATED_LIST = r"\b(" + _LIST_NEGATORS + r")\s+([^.;:!?\n]*)"
_NOT_AN_ITEM = re.compile(r"\b(?:and|but|so|then|because|sooner|more|less|either)\b")
_LAST_ITEM = re.compile(r"^(.*?)(,?\s+(?:or|nor)\s+)(.+)$")


def _distribute_negator(m: re.Match[str]) -> str:
    """ "don't A, B, or C" -> "don't A, don't B, or don't C" (the rest of the sentence is
    read in Python: a regular expression over the list backtracks without end on long text)."""
    neg, rest = m.group(1), m.group(2)
    parts = rest.split(",")
    last = _LAST_ITEM.match(parts[-1]) if len(parts) > 1 else None
    if last is None:
        return m.group(0)
    items = [p.strip() for p in parts[:-1]]
    joint = last.group(2)
    if last.group(1).strip():
        items.append(last.group(1).strip())
    else:
        joint = "," + joint  # "..., or C"
    tail = last.group(3)
    if len(items) < 2 or not all(items) or any(_NOT_AN_ITEM.search(i) for i in [*items, tail]):
        return m.group(0)
    head = f"{neg} {items[0]}" + "".join(f", {neg} {i}" for i in items[1:])
    return f"{head}{joint}{neg} {tail}"


# what another person said, then endorsed: "..., and she was right", "... and I agreed"
_SET_ASIDE = r"(?:(?:that|this|the) (?:idea|plan)|that|it|this)"
"""What is set aside or binned: "that", "it", "that idea"."""
_ENDORSED = (
    r"(?![^.;!?\n]*?,? and (?:he|she|they|i) (?:was|were|am) right)"
    r"(?![^.;!?\n]*?\bi (?:agree|agreed)\b)"
)


def _one_in(m: re.Match[str]) -> str:
    """ "one in ten" as 10%; the words left as they were when the share is no share (0, > 1)."""
    words = {**_NUMBER_WORDS, "hundred": 100, "a hundred": 100}
    a, b = (words[g] if g in words else float(g) for g in (m.group(1), m.group(2)))
    if not b or a >= b:
        return m.group(0)
    return f"{100 * a / b:g}%"


_FACTOR = r"(?<![\w.])(\d[\d,]*(?:\.\d+)?(?:e-?\d+)?[kmb]?)"
"""A number as a factor of a product written out: "1.3e9", "250k"."""
_AMOUNT = r"(\d[\d,]*(?:\.\d+)?)\s?(bn|k|m|b)?(?![\w.%])"
"""A count with its magnitude: "4,000", "24m", "105k" (not "24ms", "5%")."""
_AMOUNT_IN = r"(\d[\d,]*(?:\.\d+)?)\s?(bn|k|m|b)?(?![\d.%]|[a-z])"
"""The same as the whole a part is taken from, which may lead a compound ("a 160m-token mix")."""
_PART_OF = re.compile(
    r"(?<![\w.])" + _AMOUNT + r"(?:\s*(?:-|to|and)\s*" + _AMOUNT + r")?"
    r"(?=(?:\s+[a-z]+){0,2}\s+(?:out\s+)?of\s+(?:a|an|the|our|your|its|this|that|every|each)?\s*"
    + _AMOUNT_IN
    + r")"
)
"""A part of a whole worked out: "8m-24m tokens of a 160m-token blend", "4,000 of 400,000"."""
_WHOLE_THEN_PART = re.compile(
    r"\bof\s+(?:a|an|the|our|your|every|each)?\s*"
    + _AMOUNT_IN
    + r"[^.;:!?]{0,60}?(?<![\w.])"
    + _AMOUNT
    + r"(?:\s*(?:-|to|and)\s*"
    + _AMOUNT
    + r")?"
)
"""The whole first: "of 700k examples, somewhere between 35k and 105k are old", "of 400m tokens
in all, sample ~40m from the old mix"."""


_PART_OF_IT = re.compile(
    r"(?<![\w.])"
    + _AMOUNT_IN
    + r"[\s-]*(?:tokens?|examples?|steps?|samples?|sequences?|documents?)\b[^!?]{0,80}?(?<![\w.])"
    + _AMOUNT
    + r"(?:\s*(?:-|to|and)\s*"
    + _AMOUNT
    + r")?(?=(?:\s+[a-z]+)?\s+of\s+(?:it|them|those|that|this)\b)"
)
"""A part of a whole named before it, in the same sentence or the one before: "the blend is 800m
tokens. draw 40m to 120m of it" (5-15%), "a 300,000-step run: warm up over 6,000 of them" (2%)."""


def _whole_first(m: re.Match[str]) -> str:
    """The match with its part's share of its whole, the whole named first (groups 1-2) and the
    part after it, a count or a range (groups 3-6): `_WHOLE_THEN_PART` and `_PART_OF_IT`."""
    whole = _amount(m.group(1), m.group(2))
    lo = _amount(m.group(3), m.group(4))
    hi = _amount(m.group(5), m.group(6)) if m.group(5) else lo
    return m.group(0) + _share_text(lo, hi, whole)


_DURATION = r"(h|hrs?|hours?|mins?|minutes?|days?)\b"
_SHORTENED = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)[\s-]*"
    + _DURATION
    + r"[^.;!?]{0,80}?(?:>|\bto\b)(?:\s+[a-z][a-z0-9+]*:)?\s*"
    r"(?:about\s+|around\s+|roughly\s+|~\s*)?"
    r"(\d+(?:\.\d+)?)(?:\s*(?:-|to)\s*(\d+(?:\.\d+)?))?\s*" + _DURATION
)
"""A time shortened to another, worked out: "an 18-hour epoch ... down to 9 to 12 hours" is
1.5-2x faster."""


def _shortened(m: re.Match[str]) -> str:
    """ "18 hours > 9-12 hours (1.5-2x faster)": how many times faster a time cut to another is."""
    first, unit, lo = float(m.group(1)), m.group(2), float(m.group(3))
    hi = float(m.group(4)) if m.group(4) else lo
    if unit[0] != m.group(5)[0] or not 0 < lo <= hi < first or first / lo > 20:
        return m.group(0)
    fast, slow = first / lo, first / hi
    span = f"{slow:.3g}" if fast == slow else f"{slow:.3g}-{fast:.3g}"
    return f"{m.group(0)} ({span}x faster)"


_SMALL = r"(\d+(?:\.\d+)?e-\d+|0\.00\d+)(?![\w%]|\.\w)"
"""A small number as a learning rate is written: "2e-4", "4.5e-5", "0.0003" (a full stop may end
it: "down to 2e-5.")."""
_LOWERED = re.compile(
    r"(?<![\w.])" + _SMALL + r"(?:\s*>\s*(?:to\s+)?|\s+(?:(?:all\s+the\s+way\s+)?down\s+)?to\s+"
    r"|[^.;:!?]{0,40}?(?<![\w.])|[^.;!?]{0,60}?\bdown\s+to\s+)(?:about\s+|around\s+|roughly\s+|~\s*)?"
    + _SMALL
    + r"(?=\s*(?:$|[.;,)]|(?:at|by|on|in)\s+the\s+(?:end|last|final)|(?:at|by)\s+(?:the\s+)?end))"
)
"""A small number lowered to another: "2e-4 -> 2e-5", "from a peak of 3e-4 down to 3e-5", "peak
4.5e-4 at the top, about 4.5e-5 by the last step" (or "on the last step"), and across a clause
when "down to" says so ("if the peak is 2e-4: the lr follows half a cosine down to about
2e-5")."""


def _lowered(m: re.Match[str]) -> str:
    """ "2e-4 -> 2e-5 (10%)": what a small number is lowered to, also said as its share."""
    first, last = float(m.group(1)), float(m.group(2))
    if not 0 < last < first or last / first < 0.001:
        return m.group(0)
    return f"{m.group(0)} ({100 * last / first:.3g}%)"


def _amount(number: str, magnitude: str | None) -> float:
    return float(number.replace(",", "")) * _SUFFIX_MAG.get(magnitude or "", 1.0)


def _share_text(lo: float, hi: float, whole: float) -> str:
    """ " (5-15%)" for 8m-24m of 160m; "" when the part is not a share of the whole."""
    if not 0 < lo <= hi < whole:
        return ""
    a, b = 100 * lo / whole, 100 * hi / whole
    return f" ({a:.3g}%)" if a == b else f" ({a:.3g}-{b:.3g}%)"


def _part_of(m: re.Match[str]) -> str:
    lo = _amount(m.group(1), m.group(2))
    hi = _amount(m.group(3), m.group(4)) if m.group(3) else lo
    return m.group(0) + _share_text(lo, hi, _amount(m.group(5), m.group(6)))


_TURNS = re.compile(r"(?s)\A(?=.*(?:^|(?<=\n)|(?<=[.!?] ))[ \t]*b[ \t]*:).*")
_TURN = re.compile(r"(?:^|(?<=\n)|(?<=[.!?] ))[ \t]*([ab])[ \t]*:")


def _asker_and_answerer(m: re.Match[str]) -> str:
    """ "A: could we bump the batch? B: no, ..." as "Q: ... A: ...": in a dialogue of A and B
    whose turns of one speaker all end in a question mark and the other's do not, the asker is
    the interviewer. Anything else is left as it is."""
    text = m.group(0)
    turns = list(_TURN.finditer(text))
    if len({t.group(1) for t in turns}) < 2:
        return text
    said: dict[str, list[str]] = {"a": [], "b": []}
    for t, nxt in zip(turns, [*turns[1:], None], strict=True):
        said[t.group(1)].append(text[t.end() : nxt.start() if nxt else len(text)].strip())
    asks = {k for k, v in said.items() if v and all(x.endswith("?") for x in v)}
    if len(asks) != 1:
        return text
    asker = asks.pop()
    return _TURN.sub(lambda t: " q:" if t.group(1) == asker else " a:", text)


_REFUSED = (
    r"(?:false|disallowed|nil|null|off|never|removed|yanked|deprecated|forbidden|banned"
    r"|rejected|disabled|excluded|denied|absent|delisted|suspended|vetoed|dropped|not allowed)"
)
_REFUSED_FIELD = re.compile(
    r"(?m)(?P<lead>(?:^|(?<=[|▲•·▸;])|(?<=\. ))[ \t]*(?:[#>*-]+[ \t]*)?)"
    r"(?P<key>[a-z][^\n|▲•·▸;:=(),./'\"]{0,60}?)[ \t]*(?:(?:::=|:=|==|=>|->|:| = )[ \t]*"
    r"(?:[a-z-]+ )?" + _REFUSED + r"(?: (?:from|in|on)\b[^\n.;|]*)?"
    r"|\((?:[a-z-]+ )?" + _REFUSED + r"\b[^\n)]*\))(?=[ \t]*(?:[,.;|)(\n#]|$))"
)
"""A field whose value turns its idea down (`_PRE`): the field's name at a line's (or a status
segment's) start, a separator, and a refusal (false, disallowed, nil, yanked, ...) that ends it.
"none" is left out: "Extras: none" is an answer, that nothing is needed; a bare "no" or "nope"
is a short verdict, read by `case.verdict-after`.
Code that sets a value ("requires_grad=False") is no refusal: a bare `=` is not a separator."""

_DONE = (
    r"(?=[a-z]+(?:ed|en)\b|thrown|done|gone|begun|run|kept|taken|made|put|cut|set|spent|lost"
    r"|sent|let|just)"
)
"""A past participle next (a lookahead): what "if we had ..." or "had we ..." supposes done."""

_FILLER_APART = re.compile(r",[ \t]*\w+[ \t]*,")
_OPEN_WORDS = frozenset(
    "the a an to of at by for in on with from into onto and or but nor is are was were be been "
    "am it its you we i they he she that this these those your our their my his her not no so "
    "than as like about around just very really more less don't doesn't didn't isn't aren't "
    "won't can't do does did has have had will would should could can may might must".split()
)
"""Words after which a phrase goes on: a filler after one sits inside the phrase."""


def _ends_phrase(m: re.Match[str]) -> bool:
    before = re.search(r"([\w'’]+)\W*\Z", m.string[: m.start()])
    # "the model's, um, too big": the model is
    word = before.group(1) if before is not None else ""
    return bool(word) and word not in _OPEN_WORDS and not re.search(r"['’]s\Z", word)


_REPAIR = re.compile(
    r"(?P<said>(?:(?!\s+-\s)[^,;.:!?\n]){1,200}?)[ \t]*(?:[ \t]+-[ \t]+|,)[ \t]*"
    r"(?P<mark>(?:(?:no|nope|sorry|wait|oops|scratch that)[ \t]*(?:[,:!]|[ \t]+-[ \t]+)[ \t]*"
    r"|(?:no|nope)[ \t]+(?=(?:wait|sorry)\b)|(?:sorry|wait|oops)[ \t]+)+)"
    r"(?P<repair>[a-z0-9](?:[\w'’-]|\.(?=\d))*)"
)
_REPAIR_MARK = re.compile(r"(?:[ \t]-[ \t]+|,[ \t]*)(?:no|nope|sorry|wait|oops|scratch that)")
"""What `_REPAIR` cannot match without: a text with no self-correction is not scanned by it."""
_REPAIR_REACH = 6
"""Words back from a self-correction a repair's first word is looked for (`_REPAIR` reads at
most 200 characters before the mark, far more than these words: a clause that never corrects
itself is then scanned once per 200 characters, not once per character)."""


_SLOT_WORDS = frozenset(
    "above below over under up down high low higher lower highest lowest big small bigger smaller"
    " large larger tiny huge more less fewer increase decrease raise halve double before after"
    " start end beginning early late earlier later first last fast slow faster slower linear"
    " quadratic sharp flat sharper flatter overflow underflow overfit underfit overfitting"
    " underfitting old new global local".split()
)
"""Words a repair swaps one for another ("below - sorry, above the minimum"): the repair's first
word replaces the last word said when both are among these, or both are numbers."""
_NUMBERISH = re.compile(
    r"(?:[\d.,]+(?:x|k|%)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred"
    r"|thousand|half|tenth|quarter|third|fifth|twice|thrice)\Z"
)


def _repaired(m: re.Match[str]) -> str:
    """The words a repair replaces, taken out (`_REPAIR`): from the last word said that the
    repair begins with, or the last word alone when the repair swaps it for its like; the text
    as it was otherwise."""
    said, first = m.group("said"), m.group("repair")
    words = list(re.finditer(r"(?:[\w'’-]|\.(?=\d))+", said))[-_REPAIR_REACH:]
    for w in reversed(words):
        if w.group(0) == first:
            return said[: w.start()] + first
    last = words[-1] if words else None
    if last is not None and (
        {last.group(0), first} <= _SLOT_WORDS
        or (_NUMBERISH.match(last.group(0)) and _NUMBERISH.match(first))
    ):
        return said[: last.start()] + first
    return m.group(0)


_PLAIN = {
    "bigger": "big",
    "larger": "large",
    "smaller": "small",
    "higher": "high",
    "lower": "low",
    "longer": "long",
    "shorter": "short",
    "faster": "fast",
    "slower": "slow",
    "quicker": "quick",
}
"""A comparative's plain form: "smaller than it should be" is "too small"."""

_SETTINGS = (
    (re.compile(r"\b(?:lr|learning[- ]rate|learnin' rate|step size)\b", re.I), "the lr"),
    (re.compile(r"\bbatch size\b|\bbs\b", re.I), "the batch size"),
    (re.compile(r"\bweight decay\b", re.I), "the weight decay"),
    (re.compile(r"\bwarm-?up\b", re.I), "the warmup"),
)
"""The settings a bare "it" after a change can stand for (`_it_resolved`), as said in full."""
_OTHER_THINGS = re.compile(
    r"\b(?:loss|gradients?|grads?|norms?|spikes?|runs?|checkpoints?|ckpts?|models?|data|shards?"
    r"|scales?|ratios?|thresholds?|clip(?:ping)?|share|fraction|replay|schedule|decay|batch"
    r"|batches|dropout|steps?|problem|issue)\b",
    re.I,
)
"""Things named after a setting that "it" may stand for instead: then it is left alone."""
_CHANGED_IT = re.compile(
    r"(?<!\bthe )\b(?:halv|lower|cut|reduc|drop|decreas|rais|increas|doubl|bump)\w*\s+it\b"
    r"(?!\s+(?:off|out|short|close)\b)",
    re.I,
)
_WONT = re.compile(
    r"\b(?:won'?t|wouldn'?t|doesn'?t|didn'?t|don'?t|can'?t|not|never)\s+(?:\w+\s+)?$", re.I
)


def _it_resolved(text: str) -> str:
    """ "The LR is too high. Halve it and keep going": the "it" a change acts on is the setting
    named before it, in its sentence or the one before, when that is the only setting named there
    and nothing else that "it" could be was named after it ("the loss spiked, so drop it" is left
    alone, and so is the idiom "lowering the lr alone won't cut it")."""
    out, last = [], 0
    for m in _CHANGED_IT.finditer(text):
        if _WONT.search(text, 0, m.start()):
            continue
        ends = [e.end() for e in _SENTENCE.finditer(text, 0, m.start())]
        window = text[ends[-2] if len(ends) > 1 else 0 : m.start()]
        named = [(f.start(), f.end(), said) for p, said in _SETTINGS for f in p.finditer(window)]
        if len({said for _, _, said in named}) != 1:
            continue  # none, or two ("the LR is out of line with the batch size"): which one?
        _, end, said = max(named)
        if _OTHER_THINGS.search(window, end):
            continue
        out.append(text[last : m.end() - 2] + said)
        last = m.end()
    return "".join(out) + text[last:]


_FORMERLY_SAID = re.compile(
    r"\b(?:i|we|you|people|they|folks|everyone|everybody|teams|labs|he|she|it|most|many"
    r"|practitioners|researchers|engineers|recipes|papers)(?:'d| would| all| just| really"
    r"| always| mostly| often)? used to\b|^\s*used to be\b"
    r"|\b(?:a few|some|several|two|three|many|ten) years ago\b|\bback in the day\b"
    r"|\bin the (?:old|early|small-data|lstm|resnet) days\b|\bback then\b"
    r"|\bthe (?:old|naive|classic|traditional|old-school) (?:reflex|reaction|instinct|habit"
    r"|way|approach|answer|advice|recipe|practice|fix|move)(?: used to be| was)\b",
    re.I,
)
"""What was done or thought before: a person or a field's habit ("we used to", "people used
to"; a subject is needed, since "the method used to estimate it" is a use), an old reflex, a
time long gone ("a few years ago", "back then")."""
_FORMERLY = re.compile(r"(?s)\A(?=.*(?:" + _FORMERLY_SAID.pattern + r")).*", re.I)
_FORMER_AND = re.compile(r"\bformerly\b[^.;:!?,]*?\band\b(?! formerly\b)")


def _formerly(text: str) -> str:
    """What was done or thought before (`_PRE`): "formerly", and again after each "and" of its
    clause."""
    text = _FORMERLY_SAID.sub(" formerly ", text)
    while (m := _FORMER_AND.search(text)) is not None:
        text = text[: m.end()] + " formerly" + text[m.end() :]
    return text


_CORRELATIVE = (
    "lower|higher|bigger|smaller|larger|harder|softer|faster|slower|noisier|longer|shorter"
    "|greater|stronger|weaker|tighter|looser|more|less|fewer|wider|narrower|steeper|flatter"
    "|sharper|earlier|later|heavier|lighter|closer|further|farther"
)
"""Comparatives that open each half of "the X-er ..., the Y-er ..." (`_PRE`)."""

_PRE: tuple[tuple[re.Pattern[str], _Repl], ...] = (
    # "a couple o' thousand": the dropped "f" of "of"
    (re.compile(r"\bo'(?=\s)"), "of"),
    # dictation that spells out its punctuation ("roll back comma not restart period"): once a
    # "comma" is said, the marks are marks ("period" alone may be a warmup period)
    (re.compile(r"(?s)\A(?=.*\bcomma\b).*"), lambda m: _dictated(m.group(0))),
    # a plain-text table: each row's cells said with their column's header ("bf16 | same as fp32"
    # under "format | exponent range" = "bf16 exponent range same as fp32")
    (
        re.compile(r"(?m)^[^\n|]*\|[^\n]*\|[^\n]*(?:\n[^\n|]*\|[^\n]*\|[^\n]*)+"),
        lambda m: _table(m),
    ),
    # a checklist claims only its checked items: "[ ] bigger model" is not said, "[x] dropout" is
    (re.compile(r"(?m)^[ \t]*(?:[-*+•][ \t]*)?(?:\[ ?\]|☐)[^\n]*"), " "),
    (re.compile(r"(?m)^[ \t]*(?:[-*+•][ \t]*)?(?:\[[x✓✔]\]|☑|✅)[ \t]*"), "\n- "),
    # a comparison with what should be is "too": "the lr is ten times smaller than it should be"
    # blames a low lr, "the loss falls more slowly than it should" a slow one
    (
        re.compile(
            r"\b(?:much |far |way |a lot )?(?:more (\w+ly)|(bigger|larger|smaller|higher|lower"
            r"|longer|shorter|faster|slower|quicker)) than (?:it|they|you|we|one|that|this)"
            r"(?:'d| would)? (?:should|ought to|needs? to|has to|have to|expect(?:ed)?|want(?:ed)?)"
            r"(?: be)?\b"
        ),
        lambda m: "too " + (m.group(1) or _PLAIN[m.group(2)]),
    ),
    # "beyond just X", "on top of merely X": X and more, so the "just" restricts nothing
    (
        re.compile(
            r"\b(beyond|besides|on top of|in addition to|as well as|more than) "
            r"(?:just|only|merely|simply|solely)\b"
        ),
        r"\1",
    ),
    # a year is a date, not a value: "1.0 on the global norm, our default since 2018"
    (
        re.compile(
            r"\b(since|back in|in|until|till) (?:19[5-9]\d|20[0-3]\d)"
            r"(?=\s*(?:[.,;:!?)\n]|$)|\s(?:we|i|they|our|my|the|when|and|but|onwards?)\b)"
        ),
        r"\1 that year",
    ),
    # footnotes: a marker after a word is no number ("one point zero[1]"), and a note that a
    # marker opens is a sentence of its own ("[1] the default. [2] not per tensor")
    (re.compile(r"(?<=[^\s\[])\[\d{1,2}\]"), ""),
    (re.compile(r"(?:^|(?<=\s))\[\d{1,2}\][ \t]*"), ". "),
    # a telegram's STOP is a full stop: "CLIP STOP WARMUP STOP BF16 STOP" (two or more, one last)
    (
        re.compile(r"(?s)\A(?=(?:.*?\bstop\b){2}).*\bstop\W*\Z"),
        lambda m: re.sub(r"\bstop\b", ".", m.group(0)),
    ),
    # a worked example's premise is a condition, not a claim: "Say the run is 300,000 steps:
    # ramp over 6,000" reads "if the run is 300,000 steps" (only opening a sentence: "I'd say
    # the lr is too high" is a claim)
    (
        re.compile(
            r"(?m)(?:^|(?<=[.!?;:]\s)|(?<=[.!?;:]\s\s))[ \t]*(?:let'?s say|let us say|say|suppose|"
            r"supposing|assume|assuming|imagine)\b,?\s+(?:that\s+|for example,?\s+)?"
            r"(?=(?:the|a|an|your|you|we|our|it|its|each|every|one)\b)"
        ),
        "if ",
    ),
    # a confidence is no claim's number: "70% sure: roll back", "I'm 95% sure it's ..."
    (
        re.compile(
            r"\b(?:i'?m |i am )?(?:about |roughly |maybe |probably |like )?\d{1,3}(?:\.\d)? ?"
            r"(?:%|percent|per cent) (?:sure|confident|certain)\b\s*[,:;-]?"
        ),
        " ",
    ),
    # a dozen is twelve: "a round half-dozen" is 6, "a baker's dozen" 13
    (re.compile(r"\b(?:a )?half[- ](?:a[- ])?dozen\b"), " six "),
    (re.compile(r"\ba baker'?s dozen\b"), " thirteen "),
    (re.compile(r"\ba dozen\b"), " twelve "),
    # "X has nothing to do with Y", "X plays no role in Y": X is denied as a cause
    (
        re.compile(
            r"\b(?:has|have|had|has got|have got) (?:absolutely )?nothing to do with\b"
            r"|\bplays? no (?:part|role) in\b"
        ),
        " are irrelevant to ",
    ),
    # "clipping doesn't really come into it": irrelevant
    (
        re.compile(
            r"\b(?:don't|doesn't|do not|does not|dont|doesnt) (?:really )?come into (?:it|play)\b"
        ),
        " are irrelevant ",
    ),
    # "a penalty for moving away from the old weights", "penalizes drifting": the move is what
    # is discouraged, not what is done
    (
        re.compile(
            r"\b(penalt(?:y|ies) for|penali[sz](?:e|es|ed|ing)|punish(?:es|ed|ing)?|discourag(?:e"
            r"|es|ed|ing))((?: [a-z-]+)?) (?=(?:moving|pulling|drifting|changing|straying|deviating"
            r"|departing|wandering)\b)"
        ),
        r"\1\2 avoid ",
    ),
    # "clipping is out of scope", "beside the point": not relevant to the matter
    (re.compile(r"\b(?:out of scope|beside the point|neither here nor there)\b"), " irrelevant "),
    # "take the LR down a notch", "bring it down": a decrease, said with its verb first
    (
        re.compile(
            r"\b(?:take|takes|taking|took|bring|brings|bringing|brought|dial|dials|dialing"
            r"|dialling|dialed|dialled|knock|knocks|knocking|knocked|turn|turns|turning|turned)"
            r" ((?:the |your |our |its )?(?:[a-z0-9-]+ )?[a-z0-9-]+"
            r"(?: (?:and|&) (?:[a-z0-9-]+ )?[a-z0-9-]+)?) down\b"
        ),
        r"decrease \1",
    ),
    # "the lower a weight's Fisher value, the harder it's anchored": a comparative correlative is
    # one claim, its two halves one clause (the comma between them ends nothing)
    (
        re.compile(rf"\bthe ({_CORRELATIVE}) ([^,.;:!?]{{1,60}}?), the ({_CORRELATIVE})\b"),
        r"the \1 \2 the \3",
    ),
    # "The LR is too high. Halve it": the setting named last is what the change acts on
    (
        re.compile(r"(?s)\A(?=.*(?:" + _CHANGED_IT.pattern + r")).*", re.I),
        lambda m: _it_resolved(m.group(0)),
    ),
    # "we used to skip it", "a few years ago", "the old reflex was": what was done or thought
    # before, set against now (not "is used to", which is a use); each thing it joins with "and"
    # ("used to kill the run and start over") is what was done before
    (_FORMERLY, lambda m: _formerly(m.group(0))),
    # "turn the model size up", "scale the model up": an increase, said with its verb first (not
    # the loss or the gradients, which loss scaling scales up without changing the run)
    (
        re.compile(
            r"\b(?:turn|turns|turning|turned|dial|dials|dialing|dialling|dialed|dialled|scale"
            r"|scales|scaling|scaled)"
            r" ((?!(?:the |your |our |its )?(?:loss|losses|gradients?|grads?|it|them)\b)"
            r"(?:the |your |our |its )?(?:[a-z0-9-]+ )?[a-z0-9-]+) up\b(?! by)"
        ),
        r"increase \1",
    ),
    # "... lower the LR. That's the whole fix." (or "; that's all you need") speaks of the
    # sentence before: one sentence
    (
        re.compile(
            r"[.!;]\s+(that'?s (?:it|all|the whole (?:fix|answer|plan|story|remedy|solution|thing)"
            r"|the entire (?:fix|answer|plan|remedy|solution))|(?:no (?:further|other|additional"
            r"|more) (?:remedy|remedies|fix|fixes|action|step|steps|change|changes)|nothing (?:else"
            r"|further|more)) (?:is |are )?(?:needed|required|necessary))\b"
        ),
        r", \1",
    ),
    # a self-interview: "Q: where do you look first? The grad-norm logs." asks, then answers on
    # the same line: the question is not read, the answer is (a question alone on its line is
    # the interviewer's, below)
    (
        re.compile(r"(?:^|(?<=\n)|(?<=[.!?] ))[ \t]*q[ \t]*:[^?\n]*\?(?=[ \t]*[^\s])"),
        "\n",
    ),
    # "it's not fixed, ..." is not constant (a "fix" is a remedy: "not a fix: ..." rejects a list)
    (re.compile(r"(not|n't) fixed(?=\s*(?:[,:;.!\u2014-]|$))"), r"\1 constant"),
    # a double negation: "it's not true that bf16 doesn't need scaling" says it needs it
    (
        re.compile(
            r"\b(?:it|that)(?:'s not| is not| isn't| was not| wasn't) (?:true|the case|right"
            r"|correct) that ([^.;:!?\n]*?)\b(" + "|".join(_POSITIVE) + r")\b"
        ),
        lambda m: m.group(1) + _POSITIVE[m.group(2)],
    ),
    # a cleft says its claim: "it's large batches that generalise better"
    (re.compile(r"\bit(?:'s| is| was) ((?:[a-z0-9-]+ ){1,4})that (?=[a-z])"), r"\1"),
    # "A, but B instead" replaces A, as "A - no, B" does
    (re.compile(r"\bbut ([^.;:!?\n]*?) instead\b(?! of)"), r"no, \1"),
    # "one" as a pronoun is no number: "begin a new one", "the last one is fine", and a generic
    # subject, "One mixes some old data in" (not "one in ten", "the one knob", "one-tenth")
    (
        re.compile(
            r"\b(an?|each|every|another|new|old|same|other|last|previous"
            r"|next|fresh|clean|healthy|stable|good|bad|big|small|bigger|smaller|earlier|later)"
            r" one(?=\s*(?:[,.;:!?)]|$|\b(?:is|was|are|were|from|with|that|which|and|or|but|to"
            r"|for|at|on|so|because|instead|again)\b))"
        ),
        r"\1 ones",
    ),
    (re.compile(r"(?:^|(?<=[.!?]\s))one (?=(?!needs\b)[a-z]{3,}(?<!s)s\b)"), "someone "),
    # a fraction written with a hyphen is the fraction: "one-tenth of peak", "three-quarters"
    (
        re.compile(
            r"\b(one|two|three|four|five|six|seven|eight|nine)-(tenths?|fifths?|quarters?|thirds?"
            r"|halves|hundredths?|thousandths?|(?:four|six|seven|eigh|nin|twelf|twentie)ths?)\b"
        ),
        r"\1 \2",
    ),
    # "two-to-eight-thousand steps", "5-to-15 percent": a range written with hyphens
    (re.compile(r"(?<=[a-z0-9])-to-(?=[a-z0-9])"), " to "),
    (
        re.compile(
            r"\b(one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty"
            r"|seventy|eighty|ninety|\d+)-(hundred|thousand|million|billion)\b"
        ),
        r"\1 \2",
    ),
    # "not because of X" denies X as the reason ("because" alone ends a negation's reach)
    (re.compile(r"\b(not|n't) because of\b"), r"\1 due to"),
    # "hang on, no": a self-correction, as "wait" is ("hold on to the weights" is none)
    (re.compile(r"\b(?:hang|hold) on\b(?=\s*[,.!:;\u2014\u2013-])"), "wait"),
    # "blow the loss up by a big factor": the loss scaled up (not "the loss blows up": diverges)
    (
        re.compile(r"\bblow(?:s|ing|n)?(?: up)? ((?:the |your |its )?loss)(?: up)? by\b"),
        r"scale \1 up by",
    ),
    # "higher'n normal", "bigger'n usual": "than" run on to a comparative
    (re.compile(r"\b([a-z]+er)'n\b"), r"\1 than"),
    # "by a factor of ten", "a factor of 2 larger": a multiple, as "ten times" is
    (
        re.compile(
            r"\b(?:an? |the )?factor of (\d+(?:\.\d+)?|two|three|four|five|six|seven|eight|nine|ten"
            r"|twenty|a hundred|hundred|a thousand|thousand)\b(?!\s*(?:x|times|fold|-fold|%))"
        ),
        r"\1 times",
    ),
    # "one in ten", "one example in every twenty", "1 out of 10": a share
    (
        re.compile(
            r"\b(one|two|three|four|five|\d+) (?:[a-z]+ )?(?:in|out of) (?:every )?"
            r"(ten|twenty|fifty|a hundred|hundred|\d+)\b(?!\s*(?:%|percent|x|times))"
        ),
        _one_in,
    ),
    # "ten times lower than the peak", "10x smaller than where it started": a tenth of it (not
    # "10x lower than where the loss diverges", a distance from a point the finder found)
    (
        re.compile(
            r"\b(\d+(?:\.\d+)?|two|three|four|five|ten|twenty|hundred)\s*(?:x|times|fold|-fold)"
            r" (?:lower|smaller|less|below) than (?=(?:the |your |its |where it |what it )?(?:peak"
            r"|peaked|max|maximum|initial|start|started|starting)\b)"
        ),
        lambda m: f" 1/{float(_NUMBER_WORDS.get(m.group(1)) or m.group(1)):g} of ",
    ),
    # "half of your peak lr", "half the max": 50% of it (not "half precision", "halve")
    (
        re.compile(
            r"\b(?:a |one )?half (?:of )?((?:the |your |its |our |their )?(?:peak|max|maximum"
            r"|initial|starting|original|top|base)\b)"
        ),
        r"50% of \1",
    ),
    # "peak/10", "peak ÷ 10" is a tenth of the peak
    (
        re.compile(r"\b(peak|max|maximum)( lr)?\s*(?:/|divided by)\s*(\d+(?:\.\d+)?)\b(?![/.]\d)"),
        r"1/\3 of \1\2",
    ),
    # "ease off", "eases off", "backs off" (the loss scale backs off on overflow): a decrease
    (re.compile(r"\beas(?:e|es|ed|ing) off\b"), "decreasing"),
    (re.compile(r"\bback(?:s|ed|ing)? off\b"), r"\g<0> decreasing"),
    # a chat transcript's speaker tag at a line's start ("[maria] other way round, ...") opens a
    # sentence: a reply that corrects the line before takes it back, as a sentence would
    (
        re.compile(r"(?m)^[ \t]*\[[a-z][a-z0-9 _.-]{0,20}\][ \t]*(?:nah|nope|no)\b[ \t,:;.!-]*"),
        ". no, ",
    ),
    (re.compile(r"(?m)^[ \t]*\[[a-z][a-z0-9 _.-]{0,20}\][ \t]*"), ". "),
    (re.compile(r"(?:^|(?<=[.!?]\s))(?:it'?s )?(?:the )?other way (?:a?round|about)\b"), "no,"),
    # "grads/S before the step -> tiny grads don't underflow": an arrow ("→" is ">" by now) into a
    # clause that denies a verb says what the step buys, as "so" does: no next step, no denial
    (
        re.compile(
            r"\s*(?:->|=>|(?<![>=-])>(?!>))\s*(?=(?:[a-z0-9'/*-]+\s+){0,4}?(?:[a-z]+n't|(?:do|does|did|will"
            r"|would|can|could|should) not|cannot|never)\b)"
        ),
        ", so ",
    ),
    # "B < B_crit", "B >> B_crit": below and above, when the sign stands between words (a lone
    # ">" is an arrow, as "→" is: "warmup > descent")
    (re.compile(r"(?<=\w)\s+(?:<<|<)\s+(?=[\w~])"), " below "),
    (re.compile(r"(?<=\w)\s+>>\s+(?=[\w~])"), " above "),
    # "steer clear of X", "stay away from X": X is avoided, not done
    (re.compile(r"\b(?:steer|stay|keep) (?:well )?(?:clear of|away from)\b"), "not use"),
    # "crank up the batch", "bump up the LR": an increase, said with its verb first
    (
        re.compile(
            r"\b(?:crank|cranks|cranking|cranked|bump|bumps|bumping|bumped|jack|jacks|jacking"
            r"|jacked|pump|pumps|pumping|pumped|bulk|bulks|bulking|bulked|beef|beefs|beefing"
            r"|beefed) up\b"
        ),
        "increase",
    ),
    # "make the learning rate lower", "make it bigger": the change, said with "make" first
    (
        re.compile(
            r"\b(?:make|makes|making|made) ((?:the |your |our |its )?(?:[a-z0-9-]+ )?[a-z0-9-]+) "
            r"(lower|smaller|less|higher|bigger|larger)\b"
        ),
        lambda m: (
            ("decrease " if m.group(2) in ("lower", "smaller", "less") else "increase ")
            + m.group(1)
        ),
    ),
    # code that halves a value in place, "lr = lr/2", "lr /= 2": the value lowered by that factor
    (
        re.compile(r"\b([a-z_]+)\s*(?:=\s*\1\s*/|/=)\s*(\d+(?:\.\d+)?)\b"),
        r"decrease \1 by \2x",
    ),
    # a counterfactual: "if we had restarted from scratch, we'd have lost weeks" is what was not
    # done, as "if we were to restart ..." is; so is "had we restarted ..."
    (
        re.compile(r"\bif (we|i|you|they|someone|one|anyone|he|she) had " + _DONE),
        r"if \1 were to ",
    ),
    (
        re.compile(r"(?:^|(?<=[.;:!?]\s)|(?<=\n))had (we|i|you|they|someone|anyone) " + _DONE),
        r"if \1 were to ",
    ),
    # "declined" of a request is refused ("the request to double the batch is declined", "I'd
    # decline it", "bigger batch: declined"); a loss that declines goes down
    (
        re.compile(
            r"\b(is|are|was|were|be|been|being) declined\b"
            r"|\b(i|we|i'd|we'd|i would|we would|i'll|we'll) decline\b"
            r"|(?<=[:\u2013\u2014-] )declined\b"
        ),
        lambda m: f"{m.group(1) or m.group(2) or ''} rejected".lstrip(),
    ),
    # a limit case: "push the batch toward infinity", "with infinite precision" reason about a
    # quantity grown without bound; only a loss or a gradient that is infinite is the overflow
    (
        re.compile(
            r"\b(batch(?:es)?(?: sizes?)?|data(?:sets?)?|precision|compute|width|depth|steps|"
            r"tokens|memory|bits|time|training)"
            r"((?: size)?(?: (?:grows|goes|tends|grow|go|tend|heads|head|increases))?"
            r" (?:to|toward|towards|->|→) )(?:\+ ?)?(?:infinity|inf)\b"
        ),
        r"\1\2unbounded size",
    ),
    (
        re.compile(
            r"\binfinite(?:ly (?:large|big|many|much|long))? (batch|data|precision|compute|width|"
            r"depth|steps|tokens|memory|bits|time|training)"
        ),
        r"unbounded \1",
    ),
    # "ease off along a half-cosine": the curve's name, not half of anything
    (re.compile(r"\b(?:an? )?half[- ](cosine|cos|sine|wave|period|cycle)\b"), r"\1"),
    # "holds until you get past the critical batch": holds up to it (the limit after "until" is
    # where it stops, not where it holds)
    (
        re.compile(
            r"\buntil (?:(?:you|we|it|they|one) )?(?:(?:get|gets|go|goes|are|is|reach|reaches) )?"
            r"(?:past|beyond|over|above)\b"
        ),
        "up to",
    ),
    # "one decade shallower than where it blew up": an order of magnitude, on a log scale
    (
        re.compile(r"\b(?:a|one) decade (lower|below|under|shallower|smaller|less|down|back)\b"),
        "an order of magnitude below",
    ),
    # "start the run over", "start over from zero": the particle "over" that ends the clause is a
    # fresh start; "restarted it over the weekend", "restarted over one bad shard" say when or why
    (
        re.compile(
            r"\b((?:re)?start(?:s|ed|ing)?|begin(?:s|ning)?|began|begun) "
            r"((?:it|them|the run|the job|the training|training|everything|it all|the whole "
            r"(?:run|thing|job|training)) )?(?:all )?over(?=\s*(?:[.,;:!?)]|$|-|again\b"
            r"|and\b|with\b))"
        ),
        lambda m: f"{m.group(1)} {m.group(2) or ''}anew",
    ),
    # "from the very first step": from scratch (a restart), not "the first step" of a recipe
    (re.compile(r"\bfrom (?:the )?(?:very )?first step\b"), "from scratch"),
    # radio talk: "negative on raising the batch" refuses it
    (re.compile(r"\bnegative on\b"), "no"),
    # a factor named by a letter, glued to its sign: "bs xk => lr xk", "batch *n" is "x k"
    (re.compile(r"(?<![a-z0-9])[x*\u00d7][kn]\b"), "x k"),
    # "2 grand to 8 grand": thousands
    (re.compile(r"\b(\d+(?:\.\d+)?) ?grand\b"), r"\1k"),
    # a thread's numbering is no number: "1/3 clip value? 2/3 one point zero 3/3 global norm"
    # ("k/n" counting up to the same n) is three posts, each a sentence of its own
    (
        re.compile(r"(?:^|(?<=\s))([1-9])/([2-9])(?=\s)(?=(?:.|\n)*?\s\d/\2\s)(?:.|\n)*"),
        lambda m: re.sub(r"(?:^|(?<=\s))[1-9]/" + m.group(2) + r"(?=\s)", ". ", m.group(0)),
    ),
    # a field set to a refusal, as a config, a form or a status line writes it: "RestartFromScratch:
    # Disallowed", "hw bitflip theory: delisted", "restart-from-scratch (yanked)", "bigger batch
    # = false": the field's idea is turned down, read as "no restart from scratch."
    (_REFUSED_FIELD, lambda m: f"{m.group('lead')}no {m.group('key')}."),
    # a dialogue of "A:" and "B:" in which one of them only asks: the asker is the interviewer
    # ("A: could we just bump the batch? B: no, ..."), read as "Q:" and the other as "A:"
    (_TURNS, _asker_and_answerer),
    # in a chat whose candidate writes as "me:", the other speakers' lines are not claims
    # ("Jo: how much old stuff? me: 5-15% old"); so with a named speaker before a "me:" line
    (
        re.compile(
            r"(?m)^[ \t]*(?!(?:me|a|candidate|answer|teacher)[ \t]*:)[a-z][a-z .'-]{0,20}:[^\n]*"
            r"(?=(?:\n[^\n]*)*\n[ \t]*me[ \t]*:)"
        ),
        "",
    ),
    # a dialogue claims only the candidate's lines: "Lead: you'd restart? Me: no, roll back" says
    # only what follows "Me:", and a teacher's correction only the teacher's ("Student: ...
    # Teacher: ..."); a speaker's name opens the text, a line or a sentence, and the "no" or
    # "wrong" that opens a reply answers the line left out. A line in quotation marks ends with
    # them: 'manager: "~10% old". yes, 5-15 old / 85-95 new' answers after the quote
    (
        re.compile(
            r"(?:^|(?<=\n)|(?<=[.!?] ))[ \t]*(?:q|lead|interviewer|manager|recruiter|them"
            r"|student(?: wrote| said| answered)?)[ \t]*:[ \t]*\"[^\"\n]*\"[ \t]*[.,;:!?]*"
        ),
        "\n",
    ),
    (
        re.compile(
            r"(?:^|(?<=\n)|(?<=[.!?] ))[ \t]*(?:q|lead|interviewer|manager|recruiter|them"
            r"|student(?: wrote| said| answered)?)[ \t]*:.*?(?=(?:(?<=\n)|(?<=[.!?] )|(?<=[.!?]' )"
            r"|(?<=[.!?]\" ))[ \t]*(?:a|me|candidate|answer|teacher|red pen)[ \t]*:|\n|\Z)"
        ),
        "\n",
    ),
    (
        re.compile(
            r"(?m)(?:^|(?<=[.!?] )|(?<=[.!?]' )|(?<=[.!?]\" ))[ \t]*"
            r"(?:a|me|candidate|(?:(?:my|the|short|final|quick) )?answer|teacher|red pen)"
            r"[ \t]*:[ \t]*"
            r"(?:(?:no|nope|nah|wrong|incorrect)[ \t]*[.,;:!-][ \t]*)?"
        ),
        "\n",
    ),
    # a crossed-out item is rejected, not said: "❌ restart from scratch" claims nothing, to the
    # next mark or the line's end; a ✅ or ⚠️ item inside a line is a bullet of its own
    (re.compile(r"[❌❎✗✘✖🚫⛔][^\n❌❎✗✘✖🚫⛔✅⚠]*"), "\n"),
    (re.compile(r"[ \t]*(?:✅|⚠\ufe0f?)[ \t]*"), "\n- "),
    # a changelog entry a later one corrects is taken back: "v1: X. v2: corrected, Y" says Y
    (
        re.compile(
            r"(?s)\bv\d{1,2}\s*:.*?(?=\bv\d{1,2}\s*:\s*(?:corrected|correction|fixed|fix"
            r"|revised|wrong|actually|retracted|scratch that)\b)"
        ),
        " ",
    ),
    # list markers are not numbers: `1.`, `2)`, `(3)`, `a)`, `•` opening a line; `(2)`, `3)` inline;
    # each opening a line is read as the one bullet `- ` (`_headed_lists` knows a bullet by it)
    (re.compile(r"(?m)^[ \t]*(?:\(?\d{1,2}[.)]|\(?[a-h]\)|[•·▪‣◦*+])[ \t]+"), "\n- "),
    # numbered steps in one line are one sequence: "1) scale; 2) backward; 3) step" is one
    # sentence whose steps come one after another
    (re.compile(r";\s*\(?\d{1,2}\)\s+(?=[a-z])"), " , afterwards "),
    (re.compile(r"\(\d{1,2}\)(?=\s)|(?<=[,;:]\s)\d{1,2}\)(?=\s)"), " , "),
    (re.compile(r"\b(e\.g|i\.e)\.?,?"), " "),
    (re.compile(r"\b(etc|vs|approx|resp|cf)\."), r"\1"),
    # "v." and "c." shorten a word ("loss ↓ v. slowly", "c. 2k steps"); the text is lowercased
    # here, so another letter's full stop may end a sentence ("no magic o. Clip at 1.0")
    (re.compile(r"(?<![\w.])([vc])\.(?=[ \t]+[a-z0-9])"), r"\1"),
    (re.compile(r"\bper cent\b"), "percent"),
    # per-mille and basis points are shares: "10-20‰" = "1-2%", "500-1500 bps" = "5-15%"
    (re.compile(_SHARE_OF + r"\s*(?:‰|per[ -]?mill?e\b)"), lambda m: _share(m, 10)),
    (re.compile(_SHARE_OF + r"\s*(?:bps|bp|basis points?)\b"), lambda m: _share(m, 100)),
    # a spoken self-correction is a retraction: "weighted by the gradient - I mean the Fisher"
    # and "clip at ten - one, I mean" take back what came before as "- no, ..." does; an
    # "I mean" after a comma goes on ("that's overfitting, I mean, train pulls away from val")
    (
        re.compile(
            r"(?<=[\w%)])(\s+-\s+|,)\s*((?:(?!\s+-\s+)[^,;.:!?\n]){1,40}?),?\s*i mean\b\s*"
            r"(?=[.;!?=:]|\s+-\s+|$)"
        ),
        r"\1 no, \2 ",
    ),
    (
        re.compile(
            r"(?<=[\w%)])(\s+-\s+)\s*(?:(?:um+|uh+|er+|erm)[\s,]+)?i (?:mean|meant)\b[\s,:]*"
        ),
        r"\1 no, ",
    ),
    # "let me restart that", "let me rephrase": what came before is taken back
    (
        re.compile(
            r"\b(?:let me|lemme) (?:restart|rephrase|redo|start over|try again|say that again)"
            r"(?: that)?\b"
        ),
        "scratch that",
    ),
    # a self-correction struck through: "~~vanishing~~ exploding grads" says only "exploding"
    (re.compile(r"~~[^~\n]*~~"), " "),
    # "(B_new / B_old)^2", "batch^2": squared, not a number 2
    (re.compile(r"(?<=[a-z)\]])\s*\*\*\s*2\b|(?<=[a-z)\]])\s*\^\s*2\b"), " squared "),
    # markdown emphasis is no punctuation: "**sharp, narrow minima**", "_empirically_"
    (re.compile(r"(?<![\w*])(?:\*\*?|__?)(?=[a-z0-9])|(?<=[a-z0-9.%])(?:\*\*?|__?)(?![\w*])"), ""),
    # "a couple of percent": two of them, a number said in words
    (re.compile(r"\ba couple (?:of )?(?=[a-z0-9])"), "two "),
    # "raise the LR in step with the batch", "in lockstep with it": in proportion
    (re.compile(r"\bin (?:lock ?)?step with\b"), "proportionally with"),
    # "start the LR at nothing and ramp it up", "from nought": a value of zero, not a negation
    (
        re.compile(r"\b(at|from) (?:nothing|nil|naught|nought)\b(?= (?:and|to|up|then|over)\b)"),
        r"\1 zero",
    ),
    # "blaming bit flips with zero evidence": without it
    (
        re.compile(r"\bwith (?:zero|no|nil|0) ((?:hard |real |solid |any )?(?:evidence|proof))\b"),
        r"without \1",
    ),
    # "zero weight on bit flips", "0% chance it's hardware": none given to it
    (
        re.compile(
            r"\b(?:zero|0 ?%?) (weight|chance|credence|probability|likelihood|odds|prior)\b"
        ),
        r"no \1",
    ),
    # "a bigger batch averages away more noise": less of it is left
    (
        re.compile(
            r"\b((?:averag|cancel|filter|wash|smooth)[a-z]*) (away|out) "
            r"(?:even |much |far |a lot |way )?more\b"
        ),
        r"\1 \2 less",
    ),
    # "more memory savings", "a bigger compute reduction": less of it ("more" is not of the memory)
    (
        re.compile(
            r"\b(?:more|bigger|larger|greater|extra|further) ((?:[a-z0-9-]+ ){0,2}?)"
            r"(?:savings?|reductions?)\b"
        ),
        r"less \1",
    ),
    # "saves (even) more memory", "saves memory": less of it
    (re.compile(r"\bsav(?:e|es|ed|ing) (?:(?:even|much|far|a lot|way) )?more\b"), "less"),
    (re.compile(r"\bsav(?:e|es|ed|ing) (memory|compute|bandwidth|vram|flops)\b"), r"less \1"),
    # "lr ∝ 1/B", "proportional to 1 / batch": inversely
    (re.compile(r"\bproportional to 1 ?/ ?"), "inversely proportional to "),
    # "halve the lr for every doubling of the batch": inversely proportional; "double X for every
    # doubling of Y": proportional
    (
        re.compile(
            r"\b(?:halve|halves|halved|halving) (?:the )?([a-z0-9][a-z0-9 ]{0,20}?) "
            r"(?:for|with|per|on|at) (?:every|each|a) doubling (?:of )?(?:the )?([a-z0-9]+)"
        ),
        r"\1 inversely proportional to \2",
    ),
    (
        re.compile(
            r"\b(?:double|doubles|doubled|doubling) (?:the )?([a-z0-9][a-z0-9 ]{0,20}?) (?:for|with"
            r"|per|on|at) (?:every|each|a) doubling (?:of )?(?:the )?([a-z0-9]+)"
        ),
        r"\1 proportional to \2",
    ),
    (re.compile(r"\bas opposed to\b"), "unlike"),  # a contrast: "cosine, as opposed to linear"
    (re.compile(r"\bno matter\b"), "regardless"),
    # dialects that drop a final g or a word's end: "learnin' rate", "order o' magnitude", "yer"
    (re.compile(r"\b([a-z]{3,}in)'(?![a-z])"), r"\1g"),
    (re.compile(r"\bo'(?=\s)"), "of"),
    (re.compile(r"\byer\b"), "your"),
    (re.compile(r"\bfrae\b"), "from"),
    (re.compile(r"\btae\b"), "to"),
    (re.compile(r"\bower\b"), "over"),
    (re.compile(r"\bdoon\b"), "down"),
    # "it's hardly serious", "hardly ever": a denial ("the loss hardly moves", "is hardly
    # decreasing" are said as they are: barely)
    (re.compile(r"\b(is|are|was|were|'s|'re|be) hardly\b(?! ever)(?! [a-z]+ing\b)"), r"\1 not"),
    (re.compile(r"\bhardly ever\b"), "rarely"),
    (re.compile(r"\bno'(?=\s)"), "not"),
    (re.compile(r"\bitsel'(?=\W)"), "itself"),
    (re.compile(r"\b([a-z]+)-point-([a-z]+)\b"), r"\1 point \2"),  # "one-point-oh": 1.0
    # "rounds to nothing": to zero, no denial
    (
        re.compile(
            r"\b(round(?:s|ed|ing)?|flush(?:es|ed|ing)?|go(?:es)?|went|gone|become(?:s)?|became"
            r"|turn(?:s|ed|ing)? into|underflow(?:s|ed|ing)?) (to )?nothing\b"
        ),
        r"\1 \2zero",
    ),
    (re.compile(r"\bwi'out\b"), "without"),
    (re.compile(r"\bwi'(?=\s)"), "with"),
    (re.compile(r"\bfae\b"), "from"),
    (re.compile(r"\bt'(?=\s)"), "the"),
    # "starting fresh'd be daft": a contracted "would"
    (re.compile(r"(?<=[a-z])'d be\b"), " would be"),
    # spoken fillers between words are not words: "you don't, uh, blame bit flips"; between two
    # commas after a word that ends a phrase they keep the clause apart ("old values, um,
    # weighted by ..."), so a retraction after it takes back no more than its clause
    (
        re.compile(
            r",?[ \t]*\b(?:um+|uh+|erm+|er|uhm+|hmm+|lol|lmao|haha+|pfft)\b[ \t]*,?(?=[ \t])"
        ),
        lambda m: "," if _FILLER_APART.fullmatch(m.group(0)) and _ends_phrase(m) else "",
    ),
    # a repair that begins as the words it repairs began replaces only them: "scale the warmup
    # - no, the learning rate" says "scale the learning rate", "switch to bf16 - sorry, to fp16"
    # says "switch to fp16" (a repair that does not is read as a retraction of the clause)
    (_REPAIR, _repaired),
    (re.compile(r"\btoo hi\b"), "too high"),  # "lr too hi": short for high
    # a question answered "not sure" is left open, as one answered "no idea" is: "Global or
    # per-layer? Not sure." says neither
    (
        re.compile(
            r"\?(\s+)(?:honestly,?\s+)?(?:i'?m\s+|i am\s+)?(?:not\s+(?:really\s+|entirely\s+)?"
            r"(?:sure|certain)|unsure|no clue|(?:i\s+)?(?:don'?t|do not) know|dunno|hard to say"
            r"|can'?t say)(?=\s*(?:[.!;]|$))"
        ),
        r"?\1no idea",
    ),
    # a question asked with "what", "which", "how" is answered by a short reply after it, read
    # with it as one sentence: "Batch goes up, what moves with it? The learning rate" says the
    # learning rate moves with the batch (not a reply of more than eight words, nor one with a
    # negator: that one turns the question down or argues with it)
    (
        re.compile(
            r"(?<![\w'])((?:what|which|how|where|when|who)\b[^.?!\n]{0,60})\?[ \t]+"
            r"(?=[a-z0-9])(?![^.?!\n]*(?:\b(?:no|not|nope|nah|never|none)\b|n't\b))"
            r"(?=(?:[^\s.?!]+[ \t]+){0,7}[^\s.?!]+[.!]?(?:\s|$))"
        ),
        r"\1: ",
    ),
    # a hedge is no refusal: "a flipped bit, maybe, I can't be sure" still says a flipped bit,
    # and "not sure, but ..." hedges what follows
    (
        re.compile(
            r"\b(?:i |you |we )?(?:can't|cannot|can not|couldn't|could not) (?:be |say )?"
            r"(?:(?:100|a hundred) ?(?:%|percent) |entirely |completely |totally )?(?:sure|certain)"
            r"(?: of that| about that| though)?\b"
            r"|\b(?:i'm |i am )?not (?:entirely |totally |completely |100% )?(?:sure|certain)"
            r"(?=,? but\b)"
        ),
        "maybe",
    ),
    # a negator over a list that closes with "or" denies each item: "don't restart, blame
    # cosmic rays, or raise the batch" is "don't restart, don't blame ..., or don't raise ..."
    (re.compile(_NEGATED_LIST), _distribute_negator),
    # "what I wouldn't do is X or Y" lists what it would not do, as "what I would not do: X"
    (
        re.compile(
            r"\bwhat (i|we) (?:wouldn't|would not|won't|will not|don't|do not|would never"
            r"|'d never|'d avoid|would avoid|avoid)(?: do| try| suggest)? (?:is|are)\b"
        ),
        r"what \1 would not do:",
    ),
    # an idea the speaker only wondered about, then a "but": "I briefly wondered about a flaky
    # GPU, but the grad-norm log points at the optimizer" did not settle on it
    (
        re.compile(
            r"\b(i|we) ((?:briefly |first |initially |did |also |even |at first )?)(wondered"
            r"|toyed with the idea|considered|thought about)\b(?=[^.;!?\n]*\bbut\b)"
        ),
        r"\1 \2wrongly \3",
    ),
    # an idea set aside is rejected: "I did think about raising the batch, but set that aside"
    (
        re.compile(
            rf"\b(?:(?:set|put|setting|putting|sets|puts) {_SET_ASIDE} (?:aside|to one side)"
            rf"|(?:parked|shelved|binned|ditched|nixed) {_SET_ASIDE}\b)"
        ),
        "rejected it",
    ),
    # "that one I leave alone", "restarting from scratch I'd leave alone": the idea put first is
    # not done, as "avoid" says ("leave the LR alone", with its object, keeps it unchanged: below)
    (re.compile(r"\b(?:i|we)(?:'d| would| will|'ll)? leave alone\b"), "i'd avoid it"),
    # "no" in the languages an English answer borrows it from: "restarting? não, never"
    (re.compile(r"\b(?:n[aã]o|nein|nyet|niet)\b"), "no"),
    # and "don't" / "not": Tagalog "huwag mong i-restart", Malay and Indonesian "jangan
    # restart", "tidak perlu" (no need), German "nicht"
    (re.compile(r"\b(?:huwag|jangan)\b"), "don't"),
    (re.compile(r"\b(?:tidak|bukan|nicht)\b"), "not"),
    # "in the first place" is no order of steps: "to keep them from happening in the first place"
    (re.compile(r"\bin the first place\b"), "at all"),  # not a negation: "no matter how large"
    (re.compile(r"\bnot (?:a lot|lots|a ton|a great deal|a whole lot|that much)\b"), "not much"),
    # what others say, endorsed, is said: "some people say X, and they're right: ..." says X
    (
        re.compile(
            r"\b(?:(?:some|many|most|a lot of) (?:people|folks|candidates|engineers|teams) |some "
            r"|people |ppl |folks |others )(?:often |sometimes |usually |will )?(?:say|argue"
            r"|think|claim|believe|suggest|tell you)s? (?:that )?(?=[^.!?\n]*?,? and (?:honestly "
            r"|frankly |actually )?they(?:'re| are) (?:right|correct|spot on)\b)"
        ),
        "",
    ),
    (
        re.compile(
            r",? and (?:honestly |frankly |actually )?they(?:'re| are) (?:right|correct|spot on)\b"
        ),
        " ",
    ),
    # what others wrongly say: "some people read it as underfitting, but ..."
    (
        re.compile(
            r"\b((?:some|many|most|a lot of) (?:people|folks|candidates|engineers|teams)"
            r"|people|ppl|folks|candidates) (?:often |sometimes |usually |always )?"
            r"(?:(?:like|love|tend|want|rush) to )?"
            r"((?:panic|freak out|rush|hurry|get nervous|get scared) and )?(think|say|read|call|"
            r"assume|believe|claim|blame|mistake|confuse|reach for|jump to|suggest|want|wanna)\b"
        ),
        r"\1 \2wrongly \3",
    ),
    # reported speech: "my lead wanted to restart from scratch; I talked her out of it" names
    # another person's idea, not the answer's (endorsed, "... and she was right", it is said)
    (
        re.compile(
            r"\b((?:my|our|the|a|one|another) (?:old |former |tech |team )?(?:lead|manager|boss"
            r"|colleague|teammate|tl|pm|lad|fella|guy|bloke|chap|member|pi|professor|prof"
            r"|supervisor|postdoc|intern|junior|coworker|co-worker|advisor|mentor|reviewer"
            r"|director|cto)"
            r"|(?:someone|somebody)(?: else)?|(?:one of )?(?:my|our) (?:colleagues|teammates"
            r"|coworkers))"
            r"((?: (?:in|on|at|from) (?:the |our |my )?[a-z]+)? (?:immediately |initially |first "
            r"|originally |really |always |will |would |might )?)(wanted to|wants to|suggested"
            r"|suggests|proposed|proposes|pushed for|pushed to|argued for|insisted on|pitched"
            r"|floated|was keen to|told me to|asked me to|blamed|blames|said|says|say|claimed"
            r"|claims|reckoned|reckons|thought|thinks|mentioned|brought up|call|calls|called)\b"
            + _ENDORSED
        ),
        r"\1\2wrongly \3",
    ),
    # a quotation the answer then rules wrong: 'the contestant said "a couple of hundred steps."
    # ruled wrong: it's thousands', '"warmup is optional" - false': the quote is a myth
    (
        re.compile(
            r'"([^"\n]{2,300}?)"(\s*[.,;:!?]?\s*(?:[-\u2014\u2013]\s*)?(?:(?:that\'?s|that is'
            r"|this is|it'?s|which is|ruled|plain|simply|just|totally|completely|dead) )?"
            r"(?:wrong|incorrect|false|untrue|not true|not so|a myth|nonsense|rubbish|bogus"
            r"|i disagree|i don'?t (?:buy|agree)))\b"
        ),
        r'"myth: \1"\2',
    ),
    # a statement answered by a bare refusal: "Wire received: restart from zero advise. Reply
    # sent: negative.", "Option: relaunch. Verdict: no." - the idea before it is turned down (a
    # question answered "Nope." is read where questions are)
    (
        re.compile(
            r"(?m)(^|[.!?]\s+)([^.!?\n]{3,200}[.!]\s+(?:(?:[a-z]+ ){0,2}[a-z]+:\s*)?)"
            r"(?=(?:no|negative|nope|nah|rejected|denied|vetoed|declined)\s*(?:[.!]|$))"
        ),
        r"\1myth: \2",
    ),
    # sarcasm: "oh sure, let's start over from step zero", "yeah right, blame cosmic rays",
    # "double the batch, what could possibly go wrong": the idea is mocked, as under "Myth:"
    (
        re.compile(
            r"(?m)(^|[.!?;]\s+)(?:oh,? (?:sure|great|yes|yeah|right|brilliant|perfect|wonderful"
            r"|fantastic)(?: idea)?|yeah,? right)\b[,!.]*\s*"
        ),
        r"\1myth: ",
    ),
    (
        re.compile(
            r"(?m)(^|[.!?;]\s+)([^.!?;\n]*?\b(?:what could (?:possibly )?go wrong|said no one ever"
            r"|said nobody ever|my fav(?:ou)?rite hobby"
            r"|great (?:plan|idea|move),? if you (?:love|like|enjoy))\b)"
        ),
        r"\1myth: \2",
    ),
    # what someone else once did: "had a lad on my team once who doubled the batch", "another
    # fella just dropped the LR and left it at that" is told, not put forward
    (
        re.compile(
            r"\b((?:a|one|another|this|that) (?:lad|fella|fellow|guy|bloke|chap|colleague|coworker"
            r"|co-worker|teammate|engineer|person|intern|junior|team|researcher|friend)"
            r"(?: (?:on|in|from|at) (?:my|our|the|a|another)(?: [a-z]+)?? [a-z]+)?"
            r"(?: i (?:worked|work) with)?"
            r"(?: (?:once|last year|before))?(?: who| that)?) ((?:just |simply |only )?[a-z]+ed)\b"
            + _ENDORSED
        ),
        r"\1 wrongly \2",
    ),
    # "she talked a colleague out of doubling the batch": the idea is turned down
    (re.compile(r"\btalk(?:s|ed|ing)? (?:[a-z]+ ){0,2}out of\b"), " avoid "),
    # "a junior would restart from step 0; I'd stop them": the idea is turned down, as by "I
    # wouldn't"
    (
        re.compile(r"\b(i|we)(?:'d| would) (?:stop|overrule|veto|block) (?:them|him|her|that)\b"),
        r"\1 wouldn't",
    ),
    # "if the only change in the second run is the LR, I've learned nothing, so no.": a
    # sentence that ends by concluding "no" turns down what it weighed, as "I wouldn't"
    (re.compile(r",\s*(?:so|therefore|hence|thus)\s*,?\s*no(?=\s*[.!]|\s*$)"), ", so i wouldn't"),
    # "non-determinism gets the blame when nobody has replayed the step": people blame it
    (
        re.compile(
            r"\b(?:gets|get|got|takes|take|took) (?:the |all the |most of the )?blame\b" + _ENDORSED
        ),
        "is wrongly blamed",
    ),
    # "a teammate's idea to restart got voted down", "shot down": rejected ("turned down" is
    # left as it is: an LR is turned down too)
    (
        re.compile(r"\b(?:got |was |were |is |been )?(?:voted|shot) down\b"),
        " rejected ",
    ),
    # "restart from scratch, also no need.": a clause that ends on "no need" is not needed
    (
        re.compile(r"(?<=[a-z0-9])\s*,?\s+(?:also |then |really |just )?no need\s*(?=[.;!]|$)"),
        " is not needed",
    ),
    # "cold restart not required.": a clause that ends on "not required" without its verb
    (
        re.compile(
            r"(?<=[a-z0-9])(?<!\bis)(?<!\bare)(?<!\bbe)(?<!\bwas)(?<!\bwere)"
            r"\s+not (?:required|needed|necessary)\s*(?=[.;!]|$)"
        ),
        " is not needed",
    ),
    # an idea named as a suggestion or a proposal: "on the suggestion to double the batch: ...,
    # so no", "the proposal of a restart from scratch" puts nothing forward
    (
        re.compile(
            r"\b((?:the|a|that|this|any|their|his|her) (?:suggestions?|proposals?) (?:to|of))"
            r"(?= )" + _ENDORSED
        ),
        r"\1 wrongly",
    ),
    # ... by anyone but the speaker, named at the start of a clause ("On-call floated
    # relaunching from step zero", "Priya pushed for a bigger batch"), or as their theory ("my
    # lead's first theory was bit flips")
    (
        re.compile(
            r"((?:^|[.;:!?\n(]|\bif\b|\bwhen\b)\s*(?:the |a |an |our |my )?"
            r"(?!(?:i|we|you|it|this|that|there|what|which|who)\b)[a-z][\w-]*(?: [a-z][\w-]*)??"
            r" (?:first |initially |originally |immediately |also )?)(floated|suggested|proposed"
            r"|pushed for|pitched|wanted to|blamed|insisted on|argued for|was keen to)\b"
            + _ENDORSED
        ),
        r"\1wrongly \2",
    ),
    (
        re.compile(
            r"\b([a-z][\w-]*(?:'s|s') (?:first |initial |original |own |gut )?(?:theory|idea"
            r"|suggestion|hunch|guess|instinct|proposal|take|reflex|pitch|reaction|thought|call"
            r"|bet|diagnosis|explanation|verdict|suspicion)"
            r"(?: was| is|:))(?=\s)" + _ENDORSED
        ),
        r"\1 wrongly",
    ),
    (
        re.compile(
            r"\b(?:off the table|not on the (?:table|cards)|out of the question|a non.?starter)\b"
        ),
        " counterproductive ",
    ),
    # "restarting is a bad idea", "a poor choice": the idea named beside it is judged a poor one;
    # so are the idioms of a wrong trail ("a red herring", "a rabbit hole", "a long shot")
    (
        re.compile(
            r"\b(?:an? )?(?:bad|poor|terrible|awful|dumb|horrible|lousy) (?:idea|call|choice|move"
            r"|plan)s?\b|\b(?:an? )?(?:red herring|distraction|dead end|rabbit hole|hail mary"
            r"|wild goose chase|long shot|shot in the dark|nuclear option)s?\b"
        ),
        " counterproductive ",
    ),
    # "an anti-pattern": the idea named beside it is a known poor one
    (re.compile(r"\banti[- ]?patterns?\b"), " counterproductive "),
    # "heavy-handed", "short-sighted", "ill-advised", "ill-judged": written with a hyphen or not
    (re.compile(r"\bheavy[- ]handed\b"), " reckless "),
    (re.compile(r"\bshort[- ]sighted\b"), " shortsighted "),
    (re.compile(r"\bill[- ](?:advised|judged|considered|conceived)\b"), " unwise "),
    # "I'd resist restarting", "hold off on blaming the hardware": the act after it is declined
    # ("pass on" is left out: gradients are passed on)
    (
        re.compile(
            r"\b(?:resist(?:s|ed|ing)?|hold(?:s|ing)? off on|held off on|push(?:es|ed|ing)? back"
            r" on|decline(?:s|d)? to|refus(?:e|es|ed|ing) to)\b"
        ),
        " avoid ",
    ),
    # "lowering the lr alone is too shallow" (or "to shallow"): judged a poor fix, as
    # "simplistic" is; "a band-aid", "a sticking plaster" the same
    (re.compile(r"\btoo (?:shallow|naive|narrow)\b|\bto shallow\b"), " simplistic "),
    (re.compile(r"\b(?:band[- ]aid|sticking[- ]plaster)s?\b"), " bandaid "),
    # "not a real fix", "no proper solution": the adjective does not change the refusal
    (
        re.compile(
            r"(\bnot|n't|\bno) (?:an? )?(?:real|actual|proper|true|viable|lasting|permanent|genuine"
            r"|good|long-term|complete|full|sufficient) (fix|solution|answer|option|remedy|cure)"
            r"(?:es|s)?\b"
        ),
        r"\1 a \2",
    ),
    # "val loss starts getting worse", "the loss worsens": a loss that worsens goes up (said of
    # accuracy it would go down, so only right after a loss or perplexity)
    (
        re.compile(
            r"\b((?:loss|losses|perplexity|ppl)(?: (?:start|starts|started|begin|begins|began"
            r"|keep|keeps|kept)(?: to)?)?) (?:(?:get|gets|getting|got|gotten|go|goes|going|went"
            r"|turn|turns|turning|turned|grow|grows|growing|grew) worse|worsen|worsens|worsening"
            r"|worsened)\b"
        ),
        r"\1 rising",
    ),
    # "drop the lr and pray", "and hope for the best": the hope adds nothing to the act
    (re.compile(r"\s+and (?:pray|prays|praying|hope|hopes|hoping)(?: for the best)?\b"), ""),
    # "As for bit flips: rarely the culprit": a topic put as a question, answered after it
    (re.compile(r"\bas (?:for|to|regards) ([^:.;?!\n]{1,60}?)\s*:"), r"\1?"),
    # "Bit flips? Only once everything else is ruled out": put off until other causes are out or
    # evidence comes, so turned down ("Loss scaling? Only with FP16." is a condition, read as one)
    (
        re.compile(
            r"\?\s*only (once|after|if|when)(?= (?:everything else|all else|the rest|other causes"
            r"|(?:we|you|i|they)(?:'ve| have)? ruled|it'?s ruled|there'?s (?:evidence|proof)"
            r"|(?:i|we|you) (?:see|have|find|get) (?:evidence|proof)|someone shows))"
        ),
        r"? no, only \1",
    ),
    # a cleft said plainly: "what pulled it back was weight decay" is "weight decay pulled it
    # back" (not "pull back weight decay")
    (
        re.compile(
            r"\bwhat ((?:[a-z]+ed|got|kept|made|brought|won|did|held)(?: [a-z']+){0,3}?)"
            r" (?:was|were) ([^.;:!?,\n]+)"
        ),
        r"\2 \1",
    ),
    # "starting over throws away weeks you've paid for": the act named before it judged a waste
    # ("throw away the run" does it; only the verb said of a subject before it judges)
    (
        re.compile(
            r"\b(?:throws|wastes|burns|squanders|bins) (?:away )?(?=(?:the |all the |all |)"
            r"(?:weeks|days|months|compute|progress|everything|gpu|work)\b)"
        ),
        "is a waste of ",
    ),
    # "not a restart: that throws away the run", "restarting wastes the run": said of an act
    # named before it (a pronoun or a verb in -ing), the run thrown away judges that act ("the
    # team throws away the run" does it)
    (
        re.compile(
            r"\b(that|which|this|it|[a-z]{3,}ing) (?:throws|wastes|bins|squanders) (?:away )?"
            r"(?=(?:the |this |our |a |)(?:run|training)\b)"
        ),
        r"\1 is a waste of ",
    ),
    # "goes in the register, unfunded, until the error counters say otherwise": put off until
    # evidence comes, as "not without evidence" is
    (
        re.compile(
            r"\buntil ([^.;:!?\n]{1,50}?) (?:say|says|show|shows|prove|proves|suggest|suggests"
            r"|tells? (?:us|me|you)) otherwise\b"
        ),
        r"without evidence from \1",
    ),
    # "Do I start over? Of course not: ...": a question turned down, as by "no"
    (
        re.compile(
            r"\?\s*(?:of course|certainly|absolutely|definitely|hell|heck|god) (?:not|no)\b"
        ),
        "? no",
    ),
    # "Restart from scratch? Why would you, ...": a question turned down, as by "no" (not "why
    # would you skip it?", which goes on to say what it asks about)
    (
        re.compile(
            r"\?\s*why (?:on earth |in the world )?(?:would|should) (?:you|anyone|i|we|one)"
            r"(?=\s*(?:[,?!.]|$|with\b|when\b|given\b))"
        ),
        "? no, why would you",
    ),
    # "Odds on a restart from zero being worth it: very long": long odds are a bet against it
    (
        re.compile(
            r"\b(?:the )?odds (?:on|of|for) (?=[^.;!?]*?(?::|,|\bare\b|\bis\b)\s*(?:very |pretty "
            r"|quite |extremely |really )?long\b)"
        ),
        "no chance of ",
    ),
    # "a jump with nothing else unusual on the dashboard": the rest is normal; the negator
    # describes the rest and denies nothing after it
    (
        re.compile(
            r"\bwith nothing (?:else )?(?:unusual|odd|strange|abnormal|wrong|weird|off|amiss)\b"
        ),
        "with everything else normal",
    ),
    # "Why would I throw away a run that was healthy an hour ago.": a question that ends on a
    # full stop asks nothing; it turns the act down, as "I wouldn't" does ("Why would you clip?
    # Because ..." still asks)
    (
        re.compile(
            r"(?m)(^|[.!?;:]\s+)why (?:on earth |in the world )?(?:would|should) (?:i|we|you"
            r"|anyone|one) (?=[^.?!;\n]+[.!])"
        ),
        r"\1i wouldn't ",
    ),
    # "only if the ECC counters showed errors would I even consider bit flips": not considered
    # without that evidence
    (
        re.compile(
            r"\bonly (?:if|when|once|after) [^.;:!?]*? (?:would|will|should|could|do|did) (?:i|we"
            r"|you|anyone) (?:even |ever )?(consider|entertain|blame|suspect|look at|think about"
            r"|go for|try)\b"
        ),
        r"i would not \1",
    ),
    # "and only then lower the LR": "only" says when, not that nothing else is done
    (re.compile(r"\bonly then\b"), "then"),
    # "the fool's path", "a fool's errand": a poor idea
    (re.compile(r"\bfool'?s (?:path|errand|game|move|gold|choice)\b"), " foolish "),
    # "don't tell me to just lower the LR": the act is refused, not proposed
    (re.compile(r"\b(?:don'?t|do not|never) (?:tell|ask|make) me (?:to|that)\b"), " avoid "),
    # "I'd advise against restarting": the act after it is warned off
    (re.compile(r"\b(?:advis|recommend|warn|argu)(?:e|es|ed|ing|s)? against\b"), " avoid "),
    # "forget increasing the batch", "forget about restarting": an imperative that dismisses the
    # act it opens a clause with (only before a verb in -ing: "they forget old tasks" is a claim)
    (
        re.compile(
            r"(?:^|(?<=[.;:,!?(\n-]))[ \t]*forget (?:about )?(?=[a-z]{2,}ing\b)(?![a-z]*thing\b)"
        ),
        " counterproductive ",
    ),
    # "turn clipping off", "switch off the scaler": the thing is disabled (a negation)
    (re.compile(r"\b(?:turn|switch)(?:s|ed|ing)? off\b"), " disable "),
    (
        re.compile(r"\b(?:turn|switch)(?:s|ed|ing)? ((?:[a-z0-9_-]+ ){1,3}?)off\b"),
        r" disable \1",
    ),
    # "leave the LR alone", "leave it alone": it is kept as it is, not acted on
    (re.compile(r"\b(leav(?:e|es|ing)|left) ((?:[a-z0-9_-]+ ){1,3}?)alone\b"), r"\1 \2unchanged"),
    # "keep the LR where it is", "leave the warmup as it was": the same
    (
        re.compile(
            r"\b(keep(?:s|ing)?|kept|leav(?:e|es|ing)|left|hold(?:s|ing)?|held) "
            r"((?:[a-z0-9_-]+ ){1,3}?)(?:where|as) (?:it|they) (?:is|are|was|were)\b"
        ),
        r"\1 \2unchanged",
    ),
    # "the LR stays put", "it stays where it was", "leave the LR untouched": kept as it is
    (re.compile(r"\b(stay(?:s|ed|ing)?) put\b"), r"\1 unchanged"),
    (
        re.compile(
            r"\b(stay(?:s|ed|ing)?|remain(?:s|ed|ing)?) (?:where|as) (?:it|they)"
            r" (?:is|are|was|were)\b"
        ),
        r"\1 unchanged",
    ),
    (re.compile(r"\buntouched\b"), "unchanged"),
    # "bit flips are my best guess", "my bet is a bad batch": the speaker's own answer
    (re.compile(r"\b(?:my|our) (?:best |first |honest )?(?:guess|bet)\b"), "my answer"),
    # "ten-ish", "10ish": about that number
    (re.compile(r"(?<=[0-9a-z])-ish\b|(?<=[0-9])ish\b"), ""),
    # "double-check the lr" checks it: not a multiplier ("double the lr")
    (re.compile(r"\b(?:double|triple)[- ]?(?=check)"), ""),
    (re.compile(r"!=|=/="), " not "),
    (re.compile(r"\bw/o\b"), "without"),
    # "without a log axis the early drop swamps everything": a sentence that opens by supposing a
    # thing away names it in a few words, and the clause that says what then happens starts at
    # a determiner or a subject (a comma typed fast is left out; the negator stays on the thing)
    (
        re.compile(
            r"(?m)((?:^|[.;!?]\s)\W*without\s+(?:[\w-]+\s+){0,2}?[\w-]+)"
            r"\s+(?=(?:the|your|its|my|our|their|you|we|i|they|every|each)\s)"
        ),
        r"\1, ",
    ),
    # "in place of clipping, use loss scaling": what is put aside, as "instead of" says it
    (re.compile(r"\bin (?:place|lieu) of\b"), "instead of"),
    (re.compile(r"\bw/"), "with "),
    (re.compile(r"\bb/c\b"), "because"),
    # texting: "unscale b4 the step", "5-15 pct"
    (re.compile(r"\bb4\b"), "before"),
    (re.compile(r"(?<=\d) ?pct\b"), " percent"),
    (re.compile(r"(\d+(?:\.\d+)?)\s*\^\s*(-?\d+)"), lambda m: _power(m)),
    (re.compile(r"-+>|=+>|<-+"), " > "),
    # "fp16 -> bf16": from one to the other (the arrow still ends a clause)
    (re.compile(r"(?<=[a-z0-9]) *> *(?=[a-z])"), " > to "),
    # a part of a whole worked out is also its share: "8m-24m tokens of a 160m blend (5-15%)"
    (_PART_OF, _part_of),
    (_WHOLE_THEN_PART, _whole_first),
    (_PART_OF_IT, _whole_first),
    (_LOWERED, _lowered),
    (_SHORTENED, _shortened),
    # a product worked out, "6 × 1.3e9 × 2.5e5 ≈ 1.95e15": its factors are numbers, not "6x"
    (
        re.compile(_FACTOR + r"\s+x\s+(?=" + _FACTOR + r"(?:\s+x\s+" + _FACTOR + r")*\s*[=~])"),
        r"\1 * ",
    ),
    # `x2` / `×2` = `2x`; `1/batch` = inversely with the batch (a negation of "proportional")
    (re.compile(r"(?<![a-z0-9.])x\s?(\d+(?:\.\d+)?)(?![\d.]*[a-z0-9])"), r" \1x "),
    (re.compile(r"(?<![\d.])1\s*/\s*(?=[a-z(])"), " inversely "),
    # "1/10 old, 9/10 new": a fraction of whole numbers under one is a share
    (re.compile(r"(?<![\d./])(\d{1,2})\s*/\s*(\d{1,3})(?![\d./])"), lambda m: _fraction(m)),
    (re.compile(r"\.{2,}"), ". "),
    # a ratio with its names: "old:new 1:9", "1:9 old to new" = "10% old / 90% new"
    (
        re.compile(
            r"\b(?P<a>[a-z]+)\s*[:/]\s*(?P<b>[a-z]+)\s*" + _RATIO_LEAD + _RATIO_SIDE + r"\s*:\s*"
            r"(?P<y>\d+(?:\.\d+)?)(?:\s*-\s*(?P<yh>\d+(?:\.\d+)?))?\b"
            r"|\b(?P<x2>\d+(?:\.\d+)?)\s*:\s*(?P<y2>\d+(?:\.\d+)?)\s+"
            r"(?P<a2>[a-z]+)\s*(?:[:/]|to)\s*(?P<b2>[a-z]+)\b"
        ),
        lambda m: _ratio_shares(m),
    ),
    # "old:new about 5-15 to 1": the names written as a ratio, the numbers joined by "to"
    (
        re.compile(
            r"\b(?P<a>[a-z]+)[:/](?P<b>[a-z]+)\s*" + _RATIO_LEAD + _RATIO_SIDE + r"\s*to\s*"
            r"(?P<y>\d+(?:\.\d+)?)(?:\s*-\s*(?P<yh>\d+(?:\.\d+)?))?\b"
        ),
        lambda m: _ratio_shares(m),
    ),
    # judgements, not the backward pass: "that would be backwards", "that makes it worse"
    (
        re.compile(
            r"\b(make|makes|making|made) (?:it|things|this|that|matters|(?:the|your|our) "
            r"(?:model|run|network|net|results?|checkpoint)(?: [a-z']+){0,3}?) worse\b"
        ),
        r"\1 counterproductive",
    ),
    (
        re.compile(r"\b(is|be|are|was|'s|seems|sounds|get it|got it|exactly) backwards\b"),
        r"\1 counterproductive",
    ),
    (re.compile(r"([a-z])\1{2,}"), r"\1"),  # `sloooow` = `slow`
)


def _power(m: re.Match[str]) -> str:
    """`2^16` is 65536 and `10^-8` is 1e-08: the power's value, not `2e16`."""
    try:
        return f"{float(m.group(1)) ** int(m.group(2)):g}"
    except (OverflowError, ZeroDivisionError):
        return m.group(0)


def _fraction(m: re.Match[str]) -> str:
    top, bottom = int(m.group(1)), int(m.group(2))
    if not 0 < top < bottom:
        return m.group(0)
    return f" {100 * top / bottom:.3g}% "


def _ratio_shares(m: re.Match[str]) -> str:
    """`old:new 1:9` is `10% old / 90% new`; ranges ("5-15 to 1", "5-15 : 85-95") give ranges."""
    g = {k: v for k, v in m.groupdict().items() if v is not None}
    a, b = g.get("a") or g["a2"], g.get("b") or g["b2"]
    x, y = float(g.get("x") or g["x2"]), float(g.get("y") or g["y2"])
    xh, yh = float(g.get("xh", x)), float(g.get("yh", y))
    if x + y <= 0 or xh < x or yh < y:
        return m.group(0)
    lo, hi = 100 * x / (x + yh), 100 * xh / (xh + y)
    if hi == lo:
        return f" {lo:g}% {a} / {100 - lo:g}% {b} "
    return f" {lo:.3g}-{hi:.3g}% {a} / {100 - hi:.3g}-{100 - lo:.3g}% {b} "


_SENTENCE = re.compile(
    r"(?:[.!?;]+(?=\s|$|[\"')\]])|\n+|\.(?=[a-z]{2})(?:(?<![a-z0-9_]\.)|(?![a-z0-9_]*\()))"
)
"""Where a sentence ends. A full stop typed without a space ends one ("done.next"), but not the
dot of a method call: `optimizer.step()` reads as one phrase. A dotted path with no call
(`mem.when_bs_doubles.grads_factor 1`) is split at its dots, as a hierarchy of keys."""
_LEX_TOKEN = re.compile(
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e-?\d+)?|\.\d+)"
    r"(?P<suf>bn|k|m|b|x|%)?(?![a-z0-9])"
    r"|(?P<numword>\d+(?:\.\d+)?)(?=[a-z])"
    r"|(?P<word>[a-z][a-z0-9_]*(?:'[a-z]+)?)"
    r"|(?P<call>(?<=[a-z0-9_])\(\))"
    r"|(?P<sep>[,:()\[\]{}/<>+&|*-]|%|(?<= )=(?= ))"
)
"""(A call's empty parentheses are code, not a pause: "optimizer.step() after each micro-batch"
is read as "optimizer step after each micro-batch".)"""


def _asks(folded: str, sentence: Sequence[_Tok]) -> bool:
    """Does this sentence end in a question mark? Token offsets point into the folded text, so
    `folded` is `_fold` of the answer, not the answer as typed."""
    return bool(sentence) and "?" in folded[sentence[-1].end : sentence[-1].end + 3]


_CAMEL = re.compile(r"(?<=[a-z]{2})(?=[A-Z][a-z]{2})|(?<=[a-z]{2})(?=[A-Z]{2,}[0-9]*\b)")
"""Where an identifier typed as code joins its words: `lastGoodCkpt`, `skipStep()`, `useBF16`
are read as words (a word needs two small letters before the capital: `PyTorch`, `iPhone` and
`ReLU` stay whole)."""


_NORM_BARS = re.compile(r"(?:\|\||‖)\s*([^|‖\n]{1,24}?)\s*(?:\|\||‖)(?:_?\{?2\}?(?![\d.]))?")
"""A norm typed as math: `||g||`, `||g_l||_2`, `‖θ‖` (a 2 just after the bars names the L2
norm, it is no value)."""
_GRADIENT = re.compile(r"(?:g|grad\w*|gradients?|∇\s*\w*)(?:_(\w+))?", re.I)
_WEIGHTS = re.compile(r"(?:w|θ|theta|weights?|params?)(?:_(\w+))?", re.I)
_PER_PART = frozenset({"l", "i", "k", "layer", "layers", "j"})
_MATH_BEFORE = re.compile(r"(?:[=*/·~<>^(←]|proportional to|\bvs\.?|\b(?:on|of|with|per|by))\s*$")
_MATH_AFTER = re.compile(r"\s*(?:[=*/·~<>^)→←]|proportional to|\b(?:vs|by)\b)")
_AB = re.compile(r"\bA\s*/\s*$")  # "A/B" before a B: a test, not a batch
_SYMBOLS = {"B": "batch size", "L": "loss", "g": "grad"}
_SUBSCRIPTS = {"crit": "critical", "opt": "optimal", "eff": "effective", "tr": "train"}
_VARIABLE = re.compile(r"(?<![\w.'-])(?P<v>[BLg])(?:_(?P<sub>[a-z]+))?(?![\w'])(?!-[A-Za-z])")
_SCALED = re.compile(
    r"(?P<x>\b[a-z][\w]*)\s*(?:(?P<op>\*=|/=)\s*(?P<k>\d+(?:\.\d+)?)"
    r"|(?:←|<-|:?=)\s*(?:(?P<k2>\d+(?:\.\d+)?)\s*[*·x×]?\s*(?P=x)|(?P=x)\s*[*·×]\s*(?P<k3>\d+(?:\.\d+)?))"
    r")(?![\w.])",
    re.I,
)
_COMMENT = re.compile(
    r"(?<=\S)[ \t]*#+[ \t]*(?:(?P<no>no|nope|not|never|don'?t)\b[ \t]*[:,-]?[ \t]*)?"
)


def _norm_bars(m: re.Match[str]) -> str:
    inner = m.group(1).strip()
    for symbol, thing in ((_GRADIENT, "grad"), (_WEIGHTS, "weight")):
        if said := symbol.fullmatch(inner):
            per = (said.group(1) or "").lower() in _PER_PART
            return f" per-layer {thing} norm " if per else f" {thing} norm "
    return f" {inner} norm "


def _mathy(m: re.Match[str]) -> bool:
    """Whether math is around a one-letter symbol: a subscript, an operator or a preposition
    before it, an operator after it ("A/B" is a test, not a batch)."""
    before = m.string[max(0, m.start() - 18) : m.start()]
    if _ab_test(m, before):
        return False
    return (
        m.group("sub") is not None
        or _MATH_BEFORE.search(before) is not None
        or _MATH_AFTER.match(m.string, m.end(), m.end() + 3) is not None
    )


def _ab_test(m: re.Match[str], before: str) -> bool:
    """Whether the letter is the B of "A/B"."""
    return m.group("v") == "B" and _AB.search(before) is not None


def _variables(text: str) -> str:
    """One-letter symbols read as what they stand for in the field's formulas (`η ∝ B`: the
    batch size; `L_val`: the validation loss; `g/S`: the gradient). A letter is a symbol where
    math is around it, and then wherever it stands alone in the answer ("B below B_crit")."""
    symbols = {m.group("v") for m in _VARIABLE.finditer(text) if _mathy(m)}
    if not symbols:
        return text

    def read(m: re.Match[str]) -> str:
        v, sub = m.group("v"), m.group("sub")
        before = text[max(0, m.start() - 12) : m.start()]  # a window: no rescan of the text
        if v not in symbols or _ab_test(m, before):
            return m.group(0)
        opens = before.strip(" \t") == "" and m.start() <= 12 or re.search(r"[\n.?!]\s*$", before)
        if text.startswith(":", m.end()) and opens:
            return m.group(0)  # "B: ..." opens a speaker's turn
        return f"{_SUBSCRIPTS.get(sub, sub)} {_SYMBOLS[v]}" if sub else _SYMBOLS[v]

    return _VARIABLE.sub(read, text)


def _scaled(m: re.Match[str]) -> str:
    """`lr *= 0.5`, `bs ← 2·bs`, `x = x * 4`: the thing raised or lowered by the factor."""
    k = float(m.group("k") or m.group("k2") or m.group("k3"))
    if m.group("op") == "/=":
        k = 1 / k if k else k
    if k > 1:
        return f"{m.group('x')} increased {k:g}x"
    if 0 < k < 1:
        return f"{m.group('x')} decreased to {k:g}x"
    return m.group(0)


NOTATION = "text.notation"
"""The id of `_notation`, for ablation (`GRILL_GRADER_WITHOUT`)."""


def _notation(text: str) -> str:
    """Math and code read as the words they stand for, before case is folded away: norms
    (`||g||_2`), one-letter symbols where math is around them (`η ∝ B`), a thing multiplied in
    place (`lr *= 0.5`), and a code comment as a clause of its own (`# no: restart` turns the
    restart down)."""
    if NOTATION in disabled():
        return text
    text = _NORM_BARS.sub(_norm_bars, text)
    text = _SCALED.sub(_scaled, text)
    text = _variables(text)
    return _COMMENT.sub(lambda m: ", not " if m.group("no") else ", ", text)


@lru_cache(maxsize=512)
def _fold(text: str) -> str:
    """The text as the grader reads it: Unicode folded, lowercased, and `_PRE` applied. Cached:
    one grade folds its answer several times (the tokens, each card-text check, each flag's
    quote) and the card's own texts once per answer."""
    text = unicodedata.normalize("NFKC", text.translate(_UNICODE)).translate(_UNICODE)
    text = _CAMEL.sub(" ", _notation(text)).lower()
    for pattern, repl in _PRE:
        if pattern is not _REPAIR or _REPAIR_MARK.search(text):
            text = pattern.sub(repl, text)
    return text


def _sentences(text: str) -> Iterator[tuple[int, str]]:
    """(offset, sentence text) pieces of a folded text."""
    start = 0
    for m in _SENTENCE.finditer(text):
        if m.start() > start:
            yield start, text[start : m.start()]
        start = m.end()
    if start < len(text):
        yield start, text[start:]


def _raw_tokens(text: str, offset: int) -> list[_Raw]:
    out: list[_Raw] = []
    for m in _LEX_TOKEN.finditer(text):
        s, e = m.start() + offset, m.end() + offset
        if m.group("num") is not None:
            value = float(m.group("num").replace(",", ""))
            suffix = m.group("suf") or ""
            kind = suffix if suffix in ("x", "%") else ""
            value *= _SUFFIX_MAG.get(suffix, 1.0)
            out.append(_Raw(m.group(0), s, e, _Num(value, value, kind)))
            if suffix in _SUFFIX_MAG:
                out[-1].text = "#mag"  # marks a number that already carries its magnitude
        elif m.group("numword") is not None:
            value = float(m.group("numword"))
            out.append(_Raw(m.group(0), s, e, _Num(value, value, "")))
        elif m.group("word") is not None:
            out.extend(_split_word(m.group("word"), s))
        elif m.group("call") is not None:
            continue
        else:
            sep = m.group("sep")
            if sep == "-":
                before = text[m.start() - 1] if m.start() > 0 else " "
                after = text[m.end()] if m.end() < len(text) else " "
                sep = "-" if not before.isspace() and not after.isspace() else ","
            out.append(_Raw(sep, s, e, sep=sep if sep in "-%" else ","))
    return out


# Contractions typed without the apostrophe, and common misspellings of them.
_BARE_NEGATIONS = {
    **{
        w[:-2] + "t": w[:-3]
        for w in """doesn't don't isn't aren't wasn't weren't didn't hasn't haven't hadn't
        shouldn't wouldn't couldn't mustn't needn't""".split()
    },
    "wont": "will",
    "cant": "can",
    "aint": "is",
    "dosent": "does",
    "dosnt": "does",
    "doesent": "does",
    "doesnot": "does",
    "didnot": "did",
    "isnot": "is",
    "shoudnt": "should",
    "shouldnt": "should",
    "wouldnt": "would",
}


def _split_word(word: str, start: int) -> list[_Raw]:
    """Contractions and underscores: `doesn't` -> does + not, `requires_grad` -> requires grad."""
    out: list[_Raw] = []
    pos = start
    for part in word.split("_"):
        if not part:
            pos += 1
            continue
        end = pos + len(part)
        if part in _BARE_NEGATIONS:
            out.append(_Raw(_BARE_NEGATIONS[part], pos, end))
            out.append(_Raw("n't", end, end))
        elif part.endswith("n't"):
            stem = {"won't": "will", "can't": "can", "shan't": "shall"}.get(part, part[:-3])
            out.append(_Raw(stem, pos, end - 3))
            out.append(_Raw("n't", end - 3, end))
        elif part.endswith(("'s", "'re")) and part[: part.index("'")] in _RELATIVE_STEMS:
            # "a learning rate that's too high": the relative clause's copula is read
            out.append(_Raw(part[: part.index("'")], pos, end))
            out.append(_Raw("is", end, end, stop=True))
        elif part.endswith(("'s", "'re", "'ve", "'ll", "'d", "'m")):
            out.append(_Raw(part[: part.index("'")], pos, end))
        else:
            out.append(_Raw(part.replace("'", ""), pos, end))
        pos = end + 1
    return out


def _read_numbers(raws: list[_Raw]) -> list[_Raw]:
    """Number words, magnitudes, kinds (%, x) and ranges folded into number tokens."""
    out = _ranges(_number_suffixes(_parts_in(_number_words(raws))))
    out = _share_off(_unit_note(out))
    return [r for r in out if r.sep != "-" and r.sep != "%"]  # a hyphen joins words like a space


def _share_off(raws: list[_Raw]) -> list[_Raw]:
    """ "trims a tenth off the peak", "10% off": a share taken off is a decrease *by* it."""
    out: list[_Raw] = []
    for r in raws:
        prev = out[-1] if out else None
        if r.text == "off" and prev is not None and prev.num is not None and prev.num.kind == "%":
            out[-1:] = [_Raw("by", prev.start, prev.start), prev]
        out.append(r)
    return out


def _number_words(raws: list[_Raw]) -> list[_Raw]:
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        r = raws[i]
        if r.text == "half" and len(out) >= 3 and [x.text for x in out[-2:]] == ["and", "a"]:
            whole = out[-3].num
            if whole is not None and whole.kind == "" and whole.lo == whole.hi:
                value = whole.lo + 0.5  # "one and a half"
                out[-3:] = [_Raw("#", out[-3].start, r.end, _Num(value, value, ""))]
                i += 1
                continue
        if r.text in _FRACTIONS and out and not out[-1].sep:
            prev = out[-1]
            count = 1.0 if prev.text in ("a", "an") else None
            if prev.text == "#" and prev.num is not None and prev.num.kind == "":
                count = prev.num.lo  # "one tenth", "two fifths" (number words only)
            if count is not None:
                share = count * _FRACTIONS[r.text]
                # more than a whole is a multiple, not a share: "three halves" is 1.5
                times = share / 100
                num = _Num(share, share, "%") if share <= 100 else _Num(times, times, "")
                out[-1] = _Raw("#", prev.start, r.end, num)
                i += 1
                continue
        nxt = raws[i + 1].text if i + 1 < len(raws) else ""
        if r.text in ("a", "an") and nxt in _MAGNITUDES:
            out.append(_Raw("#", r.start, r.end, _Num(1.0, 1.0, "")))  # "a hundred"
            i += 1
            continue
        pronoun = (
            r.text == "one"
            and bool(out)
            and not out[-1].sep
            and out[-1].text in _ONE_STANDS_AFTER
            and (i + 1 == len(raws) or bool(raws[i + 1].sep) or raws[i + 1].text in _SUBJECTS)
        )
        if pronoun:
            # "that one", "each one", "that one I never set": no number
            out.append(_Raw("it", r.start, r.end))
            i += 1
            continue
        if (
            r.text == "point"
            and nxt in _NUMBER_WORDS
            and _NUMBER_WORDS[nxt] < 10
            and not (out and (out[-1].num is not None or out[-1].text in _DETERMINERS))
        ):
            # "point one" is 0.1 ("the point one makes" is no number)
            value = _NUMBER_WORDS[nxt] / 10
            out.append(_Raw("#", r.start, raws[i + 1].end, _Num(value, value, "")))
            i += 2
            continue
        if r.sep or r.num is not None or r.text not in _NUMBER_WORDS:
            if r.text == "twice":
                out.append(_Raw("double", r.start, r.end))
            else:
                out.append(r)
            i += 1
            continue
        value = float(_NUMBER_WORDS[r.text])
        j = i + 1
        if value >= 20 and j < len(raws) and raws[j].text in _NUMBER_WORDS:
            if _NUMBER_WORDS[raws[j].text] < 10:
                value += _NUMBER_WORDS[raws[j].text]
                j += 1
        if j + 1 < len(raws) and raws[j].text == "point" and raws[j + 1].text in _DECIMALS:
            value += _DECIMALS[raws[j + 1].text] / 10
            j += 2
        out.append(_Raw("#", r.start, raws[j - 1].end, _Num(value, value, "")))
        i = j
    return out


_DECIMALS = {**_NUMBER_WORDS, "oh": 0, "o": 0}
"""A digit said after "point": "one point oh" is 1.0."""
_SPOKEN_K = ("k", "kay")  # "2k", and "two kay" as dictated


def _parts_in(raws: list[_Raw]) -> list[_Raw]:
    """ "one part in ten", "nine parts out of ten": a share, read as a percentage."""
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        top = raws[i]
        rest = [r.text for r in raws[i + 1 : i + 5]]
        step = 4 if rest[1:3] == ["out", "of"] else 3
        bottom = raws[i + step] if i + step < len(raws) else None
        if (
            top.num is not None
            and bottom is not None
            and bottom.num is not None
            and rest[:1] in (["part"], ["parts"])
            and (step == 4 or rest[1:2] in (["in"], ["per"]))
            and 0 < top.num.lo < bottom.num.lo
        ):
            share = 100 * top.num.lo / bottom.num.lo
            out.append(_Raw("#", top.start, bottom.end, _Num(share, share, "%")))
            i += step + 1
            continue
        out.append(top)
        i += 1
    return out


def _unit_note(raws: list[_Raw]) -> list[_Raw]:
    """ "5-15 old / 85-95 new (%)": a unit in brackets of its own gives the sentence's bare
    numbers their kind."""
    for i in range(len(raws) - 2):
        if raws[i].text == "(" and raws[i + 1].sep == "%" and raws[i + 2].text == ")":
            return [
                replace(r, num=_Num(r.num.lo, r.num.hi, "%"))
                if r.num is not None and r.num.kind == ""
                else r
                for r in raws
            ]
    return raws


def _number_suffixes(raws: list[_Raw]) -> list[_Raw]:
    out: list[_Raw] = []
    for r in raws:
        prev = out[-1] if out else None
        if prev is not None and prev.num is not None and not r.sep:
            word = r.text
            if word in _MAGNITUDES or (word in _SPOKEN_K and prev.text != "#mag"):
                mag = _MAGNITUDES.get(word, 1e3)
                prev.num = _Num(prev.num.lo * mag, prev.num.hi * mag, prev.num.kind)
                prev.text, prev.end = "#mag", r.end
                continue
            if word in _PERCENT_WORDS or word in _TIMES_WORDS:
                kind = "%" if word in _PERCENT_WORDS else "x"
                prev.num = _Num(prev.num.lo, prev.num.hi, kind)
                prev.end = r.end
                continue
        if r.sep == "%" and prev is not None and prev.num is not None:
            prev.num = _Num(prev.num.lo, prev.num.hi, "%")
            prev.end = r.end
            continue
        if r.sep == "-" and prev is not None and prev.num is not None:
            out.append(r)  # maybe a range dash; `10-fold` is read below
            continue
        if r.text == "fold" and len(out) >= 2 and out[-1].sep == "-" and out[-2].num is not None:
            n = out[-2].num
            out[-2].num = _Num(n.lo, n.hi, "x")
            out[-2].end = r.end
            out.pop()
            continue
        out.append(r)
    return out


def _ranges(raws: list[_Raw]) -> list[_Raw]:
    """`2-8k`, `2k to 8k`, `between 2000 and 8000`, `two to eight thousand` -> one range."""
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        r = raws[i]
        hedge = int(r.text == "between" and i + 1 < len(raws) and raws[i + 1].text in _ROUGHLY)
        if r.text == "between" and i + 3 + hedge < len(raws) and raws[i + 2 + hedge].text == "and":
            lo, hi = raws[i + 1 + hedge], raws[i + 3 + hedge]  # "between about 5% and 15%"
            if lo.num is not None and hi.num is not None:
                out.append(_range(lo, hi))
                i += 4 + hedge
                continue
        if (
            r.num is not None
            and i + 2 < len(raws)
            and (raws[i + 1].sep == "-" or raws[i + 1].text == "to")
            and raws[i + 2].num is not None
            and not (
                raws[i + 1].text == "to"
                and out
                and out[-1].text == "from"
                and not _shared_magnitude(r, raws[i + 2])
            )
        ):
            out.append(_range(r, raws[i + 2]))
            i += 3
            continue
        if _either(raws, i):  # "one or two percent", "two or three thousand steps"
            out.append(_range(r, raws[i + 2]))
            i += 3
            continue
        out.append(r)
        i += 1
    return out


_ROUGHLY = frozenset({"about", "around", "roughly", "approximately", "approx", "circa", "some"})


def _either(raws: list[_Raw], i: int) -> bool:
    """A number, `or`, a next larger one of the same kind (or a bare one before it): a range."""
    if i + 2 >= len(raws) or raws[i + 1].text != "or":
        return False
    lo, hi = raws[i].num, raws[i + 2].num
    if lo is None or hi is None or (lo.kind and lo.kind != hi.kind):
        return False
    if _shared_magnitude(raws[i], raws[i + 2]):
        return True
    return 0 < lo.hi < hi.lo <= 3 * lo.hi


def _shared_magnitude(lo: _Raw, hi: _Raw) -> bool:
    """ "from two to eight thousand": a bare number before one with a magnitude word is a range
    (the magnitude is both ends'), not a move from 2 to 8000."""
    return hi.text == "#mag" and lo.text != "#mag" and lo.num is not None and lo.num.lo < 1000


def _range(lo: _Raw, hi: _Raw) -> _Raw:
    assert lo.num is not None and hi.num is not None
    a, b = lo.num.lo, hi.num.hi
    kind = hi.num.kind or lo.num.kind
    if hi.text == "#mag" and lo.text != "#mag" and b >= 1000:
        mag = 10 ** (3 * int(math.log10(b) // 3))
        if a * mag <= b:
            a *= mag
    if a > b:
        a, b = b, a
    return _Raw("#", lo.start, hi.end, _Num(a, b, kind))


def _number_word(r: _Raw) -> str:
    """A whole plain number inside a lexicon entry, as the entry's key reads it ("flush to
    zero": `{0}`); any other number ends an entry."""
    n = r.num
    if r.sep or n is None or n.kind or n.lo != n.hi or n.lo != int(n.lo):
        return ""
    return "{" + str(int(n.lo)) + "}"


def _canonical(raws: list[_Raw]) -> list[_Raw]:
    """Stem words and fold lexicon entries (longest match first) to their canonical words."""
    words = [_number_word(r) if r.num is not None else "" if r.sep else _stem(r.text) for r in raws]
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        r = raws[i]
        if not words[i] or r.num is not None:
            out.append(r)
            i += 1
            continue
        end, found = _lexicon_at(raws, words, i)
        if found is None and r.text in _STOPWORDS:
            out.append(_Raw(words[i], r.start, r.end, stop=True))
            i += 1
            continue
        if found is None:
            typo = _typo_of_lexicon(r.text)
            end, found = i + 1, typo if typo is not None else (words[i],)
        for k, word in enumerate(found):
            out.append(_Raw(word, r.start, raws[end - 1].end, _word_num(found, k)))
        i = end
    return out


def _lexicon_at(raws: list[_Raw], words: list[str], i: int) -> tuple[int, tuple[str, ...] | None]:
    """The longest lexicon entry starting at i (filler words inside it skipped): (end, words).
    A variant with filler words ("jump around", "bottom of the curve") is first read word for
    word: without its fillers it can be another entry's ("jump")."""
    if words[i] in _LEX.whole_heads:
        for n in range(min(_LEX.longest_whole, len(raws) - i), 1, -1):
            span = words[i : i + n]
            if all(span):
                found = _LEX.whole.get(tuple(span))
                if found is not None:
                    return i + n, found
    content: list[int] = []
    j = i
    while j < len(raws) and words[j] and len(content) < _LEX.longest:
        if not (content and raws[j].text in _STOPWORDS):
            content.append(j)
        j += 1
    for n in range(len(content), 0, -1):
        found = _LEX.multi.get(tuple(words[k] for k in content[:n]))
        if found is not None:
            return content[n - 1] + 1, found
    return i + 1, None


_DETERMINERS = frozenset("the a an this that my your his her our their".split())
_ONE_AS_PRONOUN = frozenset("that this which each every any another other no".split())
"""Words after which "one" ending its clause stands for a thing named before ("for the fp16
case, that one"), not the number."""
_ONE_AFTER_ADJECTIVE = frozenset(
    "quick easy good great nice fun tricky hard tough classic simple fair obvious interesting"
    " trick sneaky favourite favorite".split()
)
"""Words after which "one" ending its clause is a question or a case ("quick one: 2k-8k", "easy
one."), not the number."""
_ONE_STANDS_AFTER = _ONE_AS_PRONOUN | _ONE_AFTER_ADJECTIVE


def _word_num(words: tuple[str, ...], k: int) -> _Num | None:
    key = " ".join(words)
    if key in _WORD_NUMS and k == 0:
        value, kind = _WORD_NUMS[key]
        return _Num(value, value, kind)
    return None


def _stems_of(words: Iterable[str]) -> frozenset[str]:
    return frozenset(_stem(w) for w in words)


_NEG_STEMS = _stems_of(_HARD_NEGATORS) | {"not", "n't"}
_VERBAL_STEMS = _stems_of(_VERBAL_NEGATORS) | {"n't"}
_SOFT_STEMS = _stems_of(_SOFT_NEGATORS)
# Dismissals: they stop a misconception or red flag from counting, whichever side they stand on
# ("bit flips are rare", "the bit-flip myth", "a last resort", "rule out bit flips").
_DISMISS_STEMS = _stems_of(context_words("dismissal"))
_FORMER_STEMS = _stems_of(context_words("dismissal.formerly"))
_BLAME_STEMS = _stems_of(context_words("dismissal.blame-before"))
_RULE_STEMS = _stems_of(context_words("dismissal.rule-out"))
_THOUGHT = (
    _stems_of(context_words("dismissal.first-thought")),
    _stems_of(near("dismissal.first-thought")),
)
_AUX_STEMS = _stems_of(_AUX) | _AUX
_CLAUSE_STEMS = _stems_of(_CLAUSE_WORDS)
_STRONG_STEMS = _stems_of(_STRONG_WORDS)
_NEG_PREDICATES = (
    {_stem(k): _stem(v) for k, v in _NEGATED_PREDICATES.items()}
    if context_words("negation.predicate")
    else {}
)
# Words of an aside between commas: "FP16, in practice, is safer" keeps one clause.
_ASIDE_STEMS = _stems_of(context_words("continuation.aside"))
# "right where", "just when", "exactly where": the clause word names a place or time.
_PLACE_STEMS = _stems_of(context_words("continuation.place"))
_PINPOINT_STEMS = _stems_of(near("continuation.place"))  # `just` folds to `only`
_COUNTERFACTUAL = near("condition.otherwise") if context_words("condition.otherwise") else ()
_NOT_A_NEGATION = _stems_of(context_words("pseudo.not-only"))  # `not only X` asserts X
_NO_DOUBT_WORDS = _stems_of(context_words("pseudo.no-doubt"))  # `no doubt X` asserts X
_NO_BUT_WORDS = context_words("pseudo.no-but")  # `no option but X` asserts X
_NO_BUT_NEAR = near("pseudo.no-but")
# ... but after a modal it refuses: "you can't just keep training", "you shouldn't just lower it".
_MODAL_STEMS = _stems_of("can could will would should must may might shall".split())
# Purpose and condition clauses: "scale the loss so grads don't underflow" is no contradiction.
_SUBORDINATE_STEMS = _stems_of(context_words("condition.purpose"))
_CONDITION_STEMS = _stems_of(context_words("condition"))
# `check the schedule isn't broken` suspects the schedule: a key point, not its negation.
_CHECK_STEMS = _stems_of(context_words("suspect.check"))
_MAKE_SURE = _stems_of(context_words("suspect.make-sure")), _stems_of(near("suspect.make-sure"))
_CHECK_LINKS = _stems_of(context_words("continuation.check"))
_HELP_STEMS = _stems_of(near("negation.helpless"))
_PREDICATE_STEMS = _stems_of(near("negation.verbal"))
_INSTEAD_STEMS = _stems_of(context_words("negation.instead") | context_words("condition.instead"))
_INSTEAD_NEAR = near("negation.instead")


# Bad outcomes: "without X, <one of these>" says X is needed, it does not deny X.
_BAD_STEMS = frozenset(
    r.text
    for r in _canonical(_read_numbers(_raw_tokens(" ".join(near("condition.without")), 0)))
    if not r.sep and context_words("condition.without")
)


_FAIL_STEMS = _stems_of(context_words("negation.fail"))
_FAIL_NEAR = near("negation.fail")
_BLAME_NEAR = _stems_of(near("dismissal.blame-before"))
_RULE_NEAR = near("dismissal.rule-out")
_RULED = _stems_of(context_words("dismissal.ruled-out")), _stems_of(near("dismissal.ruled-out"))
# "if you were to X, ...": X is only supposed, turned down like "rule out X"
_WERE_TO = _stems_of(context_words("dismissal.were-to")), _stems_of(near("dismissal.were-to"))
_AWAY_STEMS = _stems_of(context_words("negation.away"))
_AWAY_NEAR = near("negation.away")
_OPTION_STEMS = _stems_of(context_words("dismissal.not-an-option"))
_EVIDENCE_STEMS = _stems_of(context_words("refusal.no-evidence"))
_RELIEF_STEMS = _stems_of(context_words("refusal.relief"))
_NOT_EVIDENCE = _stems_of(near("refusal.no-evidence")) - _NEG_STEMS
_WITHOUT_EVIDENCE = _stems_of(context_words("refusal.without-evidence"))
_WITHOUT = near("refusal.without-evidence")
_RELATIVE_STEMS = _stems_of(context_words("continuation.relative"))
_DEGREE_SO = _stems_of(context_words("pseudo.degree"))
_GRADABLE = _stems_of(near("pseudo.degree"))
_DEGREE = _stems_of("almost nearly virtually practically".split())
_NOT_YET = context_words("suspect.not-yet")
_COPULA = near("continuation.relative")
# A subject after `unlike X` starts the main clause: "unlike a bad batch it's persistent".
_SUBJECTS = context_words("termination.subject")
# So does one after a phrase fronted by `with`: "with no dynamic range you need scales".
_FRONTING = _stems_of(near("termination.subject"))
# An exception ends the scope of a negation before it: "nothing extra except loss scaling".
_EXCEPT_STEMS = _stems_of(context_words("termination.except"))
_APART_STEMS = _stems_of(context_words("termination.apart"))
_FROM_THAN = near("termination.apart")
_SUB_CUES = ("condition.purpose", "condition.without", "condition.otherwise", "condition.instead")


class _Leads:
    """The triggers that stand between tokens (clause words, `make sure`, `without` before a bad
    outcome), waiting for the next token; a check's list goes on only through link words."""

    def __init__(self) -> None:
        self.pending: tuple[str, ...] = ()
        self.active: tuple[str, ...] = ()  # the purpose or condition cues of this clause
        self.opened = False  # a clause word since the last token

    def take(self) -> tuple[str, ...]:
        out, self.pending, self.opened = self.pending, (), False
        return out

    def add(self, *ids: str) -> None:
        self.pending += ids
        self.active += tuple(i for i in ids if i in _SUB_CUES)

    def cut(self) -> None:
        self.pending = self.active = ()

    def split(self, *ids: str) -> None:
        """A clause split that is no clause word: a check's scope goes on across it."""
        self.cut()
        self.add(*ids, "continuation.check")

    def carry(self) -> None:
        """A split that keeps the clause's purpose or condition ("so unlike X it ...")."""
        self.split(*self.active)

    def open(self, word: str) -> None:
        chain = not self.opened or "continuation.check" in self.pending
        ids = [
            i
            for i, w in (("condition", _CONDITION_STEMS), ("condition.purpose", _SUBORDINATE_STEMS))
            if word in w
        ]
        if chain and word in _CHECK_LINKS:
            ids.append("continuation.check")
        self.cut()
        self.add(*ids)
        self.opened = True


def _tokens(raws: list[_Raw]) -> list[_Tok]:
    """Mark negators, clauses and the trigger cues, drop filler words: the tokens a phrase is
    matched against, and the silent words of pseudo triggers."""
    out: list[_Tok] = []
    clause = side = 0
    unlike = False
    fronted = -1  # the clause a `with` phrase opens
    lead = _Leads()
    conds: set[int] = set()
    opens: dict[int, str] = {}  # each clause's first word, read or dropped
    prev = ""
    i = 0
    while i < len(raws):
        r = raws[i]
        i += 1
        nxt = raws[i].text if i < len(raws) else ""
        if not r.sep:
            opens.setdefault(clause, r.text)

        if r.sep:
            # "check the lr isn't tiny, that nothing is frozen": the list of checks goes on
            clause += 1
            lead.cut()
            continue
        if r.text in ("#", "#mag"):
            out.append(
                _Tok("#", r.num, r.start, r.end, clause=clause, side=side, leads=lead.take())
            )
            prev = "#"
            continue
        word = r.text
        if word in _DEGREE and nxt in _NEG_STEMS:
            continue  # "almost never", "virtually no": the negator alone says it
        if (
            word in _DEGREE_SO
            and nxt in _GRADABLE
            and _degree_end(raws, i + 1)
            and "pseudo.degree" not in disabled()
        ):
            continue  # pseudo.degree: "set so high that ...": "so" says how high, ends nothing
        if word in _NEG_STEMS and nxt in _NO_DOUBT_WORDS and "pseudo.no-doubt" not in disabled():
            i += 1
            continue  # pseudo.no-doubt: "no doubt it's the data" asserts it
        if (
            word in _NEG_STEMS
            and nxt in _NO_BUT_WORDS
            and i + 1 < len(raws)
            and raws[i + 1].text in _NO_BUT_NEAR
            and "pseudo.no-but" not in disabled()
        ):
            i += 2
            continue  # pseudo.no-but: "no option but to restart" is "must restart"
        if word in _NEG_STEMS and _bound_after(raws, i):
            prev = word
            continue  # pseudo.bound: "never goes above one" caps at one, denies nothing
        if (
            word in _NEG_STEMS
            and nxt in _NOT_A_NEGATION
            and not (word == "n't" and prev in _MODAL_STEMS and nxt == "only")
        ):
            out.append(
                _Tok(
                    "not",
                    None,
                    r.start,
                    r.end,
                    1,
                    False,
                    clause,
                    side,
                    cues=("negation.hard",),
                    silent=True,
                )
            )
            out.append(
                _Tok(
                    nxt,
                    None,
                    raws[i].start,
                    raws[i].end,
                    clause=clause,
                    side=side,
                    cues=("pseudo.not-only",),
                    silent=True,
                )
            )
            i += 1
            continue
        if word == "without" and nxt in _COUNTERFACTUAL:
            clause += 1  # "without it, grads underflow" = "otherwise ..."
            lead.split("condition.otherwise")
            i += 1
            continue
        if word == "without" and (_bad_after(raws, i) or _bad_before(out, clause)):
            lead.add("condition.without")  # "without per-tensor scaling it diverges": needed
            prev = word
            continue
        if word in _INSTEAD_STEMS and nxt in _INSTEAD_NEAR:
            clause += 1
            lead.split(*(c for c in ("condition.instead",) if context_words(c)))
            cues = ("negation.instead",) if context_words("negation.instead") else ()
            out.append(
                _cue_tok("not", r, raws[i].end, 1 if cues else 0, False, clause, side, lead, cues)
            )
            i += 1
            prev = "rather than"
            continue
        if (
            word in _RULED[0]
            and nxt in _RULED[1]
            and any(t.clause == clause and t.word != "not" for t in out)
            and out[-1].neg != 1
        ):
            # "Bit-flips ruled out": what was ruled out stands before it, in its clause ("can't
            # be ruled out" keeps it in)
            ruled = ("dismissal", "refusal", "dismissal.ruled-out")
            out.append(_Tok(word, None, r.start, raws[i].end, 2, False, clause, side, cues=ruled))
            i += 1
            prev = word
            continue
        if word in _THOUGHT[0] and i >= 2 and raws[i - 2].text in _THOUGHT[1]:
            # "I thought it had converged, but ...": a belief told to be taken back
            thought = ("dismissal.first-thought",)
            out.append(_cue_tok(word, r, r.end, 2, False, clause, side, lead, thought))
            prev = word
            continue
        blame = _blame_after(raws, i) if word in _BLAME_NEAR else 0
        were_to = word in _WERE_TO[0] and nxt in _WERE_TO[1]
        if (word in _RULE_STEMS and nxt in _RULE_NEAR) or blame or were_to:
            cue = (
                "dismissal.blame-before"
                if blame
                else "dismissal.were-to"
                if were_to
                else "dismissal.rule-out"
            )
            out.append(_cue_tok("avoid", r, raws[i].end, 2, False, clause, side, lead, (cue,)))
            i += max(blame, 1)
            prev = "avoid"
            continue
        if word in _AWAY_STEMS and nxt in _AWAY_NEAR:
            # "steers you away from sharp minima": what follows is avoided, not reached
            out.append(_cue_tok(word, r, r.end, 2, False, clause, side, lead, ("negation.away",)))
            prev = word
            continue
        if word in _EXCEPT_STEMS or (word in _APART_STEMS and nxt in _FROM_THAN):
            clause, side = clause + 1, side + 1  # "nothing extra except loss scaling"
            lead.cut()
            lead.add("termination.except")  # what follows is excepted (phrase.excepted)
        if word in _MAKE_SURE[0] and nxt in _MAKE_SURE[1]:
            lead.add("suspect.make-sure")
        if word in _NEG_PREDICATES:
            out.append(
                _cue_tok("not", r, r.end, 1, True, clause, side, lead, ("negation.predicate",))
            )
            out.append(_Tok(_NEG_PREDICATES[word], None, r.start, r.end, clause=clause, side=side))
            prev = word
            continue
        if word in _FAIL_STEMS and nxt in _FAIL_NEAR:
            i += 1  # "fails to learn" = "doesn't learn"
            if _cancels(out, clause):
                prev = "not"
                continue
            end = raws[i - 1].end
            out.append(_cue_tok("not", r, end, 1, True, clause, side, lead, ("negation.fail",)))
            prev = "not"
            continue
        if word in _NEG_STEMS:
            verbal = word in _VERBAL_STEMS or prev in _AUX_STEMS
            out.append(_cue_tok("not", r, r.end, 1, verbal, clause, side, lead, ("negation.hard",)))
            prev = "not"
            continue
        if prev == "rather than" and word in _CLAUSE_STEMS and word not in _STRONG_STEMS:
            prev = word  # "rather than where the train loss is lowest": one clause
            continue
        if word == "that" and prev == "not":
            continue  # "it isn't that bf16 is more precise": the negation covers the that-clause
        if word in _RELATIVE_STEMS and nxt in _COPULA and prev not in ("", "that", "which"):
            continue  # "a learning rate that is too low": the relative clause describes the lr
        if word in _PLACE_STEMS and prev in _PINPOINT_STEMS:
            prev = word  # "right where it diverges": a place, not a new clause
            continue
        if (
            word in _NOT_YET
            and _ends_clause(raws, i)
            and any(t.neg == 1 and t.clause == clause for t in out)
        ):
            # "adam state not formed yet": what is still to come, not denied (suspect.not-yet)
            out.append(_cue_tok(word, r, r.end, 0, False, clause, side, lead, ("suspect.not-yet",)))
            prev = word
            continue
        if word in _CLAUSE_STEMS or word in _STRONG_STEMS:
            clause += 1
            opens[clause] = r.text
            side += word in _STRONG_STEMS
            lead.open(word)
            if word in _CONDITION_STEMS:
                conds.add(clause)
            prev = word
            continue
        if unlike and r.text in _SUBJECTS and out and out[-1].word != "unlik":
            clause, unlike = clause + 1, False  # "unlike a bad batch it's a single event"
            lead.carry()
        elif fronted == clause and r.text in _SUBJECTS and out and out[-1].clause == clause:
            clause, fronted = clause + 1, -1  # "with no dynamic range you need scales"
            lead.carry()
        if clause in conds and r.text in _SUBJECTS and out and out[-1].clause == clause:
            clause += 1  # "if you never hit the plateau you're ...": the main clause
            lead.split()
        if word in _FRONTING and (not out or out[-1].clause != clause):
            fronted = clause  # a phrase fronted at the clause's start: its subject comes later
        unlike = unlike or word == "unlik"
        prev = word
        if r.stop:
            continue
        out.append(_word_token(r, clause, side, lead.take()))
    return _join_relative_asides(out, opens)


_RELATIVE_ASIDE = context_words("continuation.relative-aside")
_ASIDE_VERBS = near("continuation.relative-aside")
_ASIDE_LINKS = frozenset({"and", "or"})


def _join_relative_asides(toks: list[_Tok], opens: dict[int, str]) -> list[_Tok]:
    """Context rule continuation.relative-aside: "raising the batch, which some guides suggest,
    is not something I'd do" is one clause: a clause that opens with its verb after relative
    asides carries on the clause before them (whose subject it has)."""
    merge: dict[int, int] = {}
    for c in sorted(opens):
        if opens[c] not in _ASIDE_VERBS:
            continue
        k, relative = c - 1, False
        while k > 0 and (k not in opens or opens[k] in _RELATIVE_ASIDE or opens[k] in _ASIDE_LINKS):
            relative = relative or opens.get(k, "") in _RELATIVE_ASIDE
            k -= 1
        if relative and k >= 0 and k in opens:
            merge.update({j: merge.get(k, k) for j in range(k + 1, c + 1)})
    if not merge:
        return toks
    return [replace(t, clause=merge[t.clause]) if t.clause in merge else t for t in toks]


def _cue_tok(
    word: str,
    r: _Raw,
    end: int,
    neg: int,
    verbal: bool,
    clause: int,
    side: int,
    lead: _Leads,
    cues: tuple[str, ...],
) -> _Tok:
    """A trigger's token (a negator, `avoid`), with the triggers waiting before it."""
    return _Tok(word, None, r.start, end, neg, verbal, clause, side, cues=cues, leads=lead.take())


def _word_token(r: _Raw, clause: int, side: int, leads: tuple[str, ...]) -> _Tok:
    """A content word, with the cues it carries as a trigger (a dismissal, `avoid`, `check`)."""
    word = r.text
    cues: tuple[str, ...] = ()
    if word in _DISMISS_STEMS:
        cues = ("dismissal", "refusal")
    elif word in _FORMER_STEMS:
        cues = ("dismissal.formerly",)  # its own clause only: "used to X, but now Y" claims Y
    elif word in _SOFT_STEMS:
        cues = ("negation.soft",)
    if word in _CHECK_STEMS:
        cues += ("suspect.check",)
    if word in _RELIEF_STEMS:
        cues += ("refusal.relief",)
    neg = 2 if word in _SOFT_STEMS or word in _DISMISS_STEMS or word in _FORMER_STEMS else 0
    return _Tok(word, r.num, r.start, r.end, neg, False, clause, side, cues=cues, leads=leads)


def _ends_clause(raws: list[_Raw], i: int) -> bool:
    """Does the word before raws[i] end its clause (a break, a clause word or the end follows)?"""
    return i >= len(raws) or bool(raws[i].sep) or raws[i].text in _CLAUSE_STEMS


def _cancels(out: list[_Tok], clause: int) -> bool:
    """A failure right after a negation cancels it ("not the model failing to learn"): the
    negator before is neutralised and the failure adds none."""
    for k in range(len(out) - 1, max(-1, len(out) - 4), -1):
        if out[k].clause != clause:
            return False
        if out[k].neg == 1:
            out[k] = replace(out[k], word="~not", neg=0, cues=())
            return True
    return False


def _bad_after(raws: list[_Raw], i: int) -> bool:
    """After `without X`: a bad outcome follows in the sentence, not negated ("... it diverges")."""
    named = False  # X comes first: "without any instabilities" names no X
    for k in range(i, min(i + 10, len(raws))):
        if raws[k].text in _STRONG_STEMS:
            return False
        if raws[k].text in _BAD_STEMS:
            return named and not any(r.text in _NEG_STEMS for r in raws[max(i, k - 3) : k])
        named = named or not (raws[k].stop or raws[k].sep)
    return False


def _bad_before(out: list[_Tok], clause: int) -> bool:
    """Before `without X`: a bad outcome in the clause, not negated ("fp8 diverges without ...")."""
    near = [t for t in out[-6:] if t.clause == clause]
    return any(t.word in _BAD_STEMS for t in near) and not any(t.neg for t in near)


_BOUNDS = _stems_of(context_words("pseudo.bound"))
_COMPARATIVES = _stems_of("more higher greater larger bigger".split())
_THAN = _stems_of(near("pseudo.bound"))


def _bound_after(raws: list[_Raw], i: int) -> bool:
    """After a negator: a bound within two words ("never goes above", "doesn't exceed", "no
    more than"); a comparative counts only with `than` after it."""
    for k in range(i, min(i + 2, len(raws))):
        if raws[k].sep:
            return False
        word = raws[k].text
        if word in _BOUNDS:
            then = raws[k + 1].text if k + 1 < len(raws) else ""
            return word not in _COMPARATIVES or then in _THAN
    return False


def _blame_after(raws: list[_Raw], i: int) -> int:
    """After `before`: how many words up to a verb of blaming ("before anyone pins it on"), or 0."""
    for k in range(i, min(i + 3, len(raws))):
        if raws[k].sep:
            return 0
        if raws[k].text in _BLAME_STEMS:
            return k - i + 1
    return 0


def _join_asides(toks: list[_Tok]) -> list[_Tok]:
    """A comma-bounded aside ("FP16, in practice, is safer") does not split its clause, unless
    the clause before it is only a negator: "no, honestly, ..." answers or takes back."""
    clauses = sorted({t.clause for t in toks})
    if len(clauses) < 3:
        return toks
    by_clause: dict[int, list[_Tok]] = {}
    for t in toks:
        by_clause.setdefault(t.clause, []).append(t)
    merge: dict[int, int] = {}
    for a, b, c in zip(clauses, clauses[1:], clauses[2:], strict=False):
        words = [t.word for t in by_clause[b]]
        if all(t.neg for t in by_clause[a]):
            continue  # "no, honestly, I'd just halve the LR": the "no" is a clause of its own
        if words and len(words) <= 3 and all(w in _ASIDE_STEMS for w in words):
            target = merge.get(a, a)
            merge[b] = merge[c] = target
    if not merge:
        return toks
    return [replace(t, clause=merge[t.clause]) if t.clause in merge else t for t in toks]


def _mark_verbal(toks: list[_Tok]) -> list[_Tok]:
    """A verbal negator reaches back (negation.verbal) only before a predicate (`isn't
    needed`) or at its clause's end, and before a verb of helping (negation.helpless: "won't
    smooth it"); as a clause of its own it refuses what comes before ("..., so I wouldn't")."""
    out = list(toks)
    for q, tok in enumerate(toks):
        if tok.neg == 1 and tok.verbal:
            nxt = toks[q + 1] if q + 1 < len(toks) else None
            same = nxt is not None and nxt.clause == tok.clause
            cues = tok.cues
            if not same or (nxt is not None and nxt.word in _PREDICATE_STEMS):
                cues += ("negation.verbal",)
            if same and nxt is not None and nxt.word in _HELP_STEMS:
                cues += ("negation.helpless",)
            if not _conditional(toks, q):
                cues += ("refusal",)
            out[q] = replace(tok, cues=cues)
    return out


def _conditional(toks: list[_Tok], q: int) -> bool:
    """True when token q's clause opens with a condition ("..., and roll back if it doesn't"):
    what it negates is the condition's, not a refusal of the clause before it."""
    first = next(t for t in toks if t.clause == toks[q].clause)
    return "condition" in first.leads  # "if", "unless", "when"; not purpose "so"


_OWN_CLAIM = re.compile(
    r"\s+(?:that\s+)?(?:(?:a|an|the|this|it|any|our|my|your|their)\s+)?[\w-]+\s+"
    r"(?:helps?|works?|fix(?:es)?|would|will|is|was|does|did|can|could|matters?)\b"
)
"""After `evidence`: a claim of its own ("no evidence a rollback helps", "no proof that the
data is bad"), which is what the evidence is lacking for, not the idea before it."""


def _mark_dismissed(toks: list[_Tok], text: str, offset: int) -> list[_Tok]:
    """A negator right before `something` or `option` dismisses what its clause names before it
    ("restarting is not an option"); a negator right before `evidence` or `proof` refuses it
    ("there was no evidence for it"), both tokens carrying the cue so that, as a clause of its
    own, it reaches back (grill.grader.scope)."""
    out = list(toks)
    for q in range(len(toks) - 1):
        tok, nxt = toks[q], toks[q + 1]
        if not (tok.neg == 1 or tok.word in _NOT_EVIDENCE) or nxt.clause != tok.clause:
            continue
        if tok.neg == 1 and nxt.word in _OPTION_STEMS:
            out[q] = replace(out[q], cues=(*out[q].cues, "dismissal.not-an-option"))
        if nxt.word in _EVIDENCE_STEMS:
            if _OWN_CLAIM.match(text, nxt.end - offset):
                continue  # "restart: there's no evidence a rollback helps" refuses the rollback
            for k in (q, q + 1):
                out[k] = replace(out[k], cues=(*out[k].cues, "refusal.no-evidence"))
            if (
                q
                and toks[q - 1].neg == 1
                and toks[q - 1].clause == tok.clause
                and _WITHOUT_EVIDENCE
            ):
                # refusal.without-evidence as a reply: "Bit flips? Not without evidence." is a
                # clause of refusal words only, so refusal.no-evidence carries it back
                k = q - 1
                out[k] = replace(out[k], cues=(*out[k].cues, "refusal.no-evidence"))
    return out


def _mark_without_evidence(toks: list[_Tok], text: str, offset: int) -> list[_Tok]:
    """Context rule refusal.without-evidence: "blame cosmic rays without (hard) evidence" refuses
    the claim its clause makes before it: `without`, at most one word, then `evidence`."""
    if not context_words("refusal.without-evidence"):
        return toks
    out = list(toks)
    for q, tok in enumerate(toks):
        if tok.word not in _WITHOUT_EVIDENCE:
            continue
        for k in (q - 1, q - 2):
            if k < 0 or toks[k].clause != tok.clause:
                break
            if text[toks[k].start - offset : toks[k].end - offset] in _WITHOUT:
                out[q] = replace(tok, cues=(*tok.cues, "refusal.without-evidence"))
                break
    return out


def _degree_end(raws: list[_Raw], i: int) -> bool:
    """After "so high": the sentence ends, a clause break or `that` follows ("set so high that
    it diverges") or a determiner opens what it leads to ("a batch so small the gradient is
    noise", the "that" left out), where "so small grads don't underflow" goes on with what is
    so."""
    return (
        i >= len(raws)
        or bool(raws[i].sep)
        or raws[i].text in ("that", "as", "the", "a", "an", "its", "their", "your", "our")
    )


def _read_sentence(text: str, offset: int) -> tuple[list[_Tok], list[_Tok]]:
    """(the tokens of a sentence, the same with the silent words of pseudo triggers)."""
    raws = _read_numbers(_raw_tokens(text, offset))
    full = _tokens(_canonical(raws))
    toks = _mark_verbal(_join_asides([t for t in full if not t.silent]))
    for q in range(1, len(toks)):
        if toks[q].word == "by":
            before = text[toks[q - 1].start - offset : toks[q - 1].end - offset]
            if _PARTICIPLE.search(before):
                toks[q] = replace(toks[q], passive=True)
    for q, tok in enumerate(toks[:-1]):
        nxt = toks[q + 1]
        if tok.word in _STOP_VERBS and not tok.neg and nxt.clause == tok.clause:
            if text[nxt.start - offset : nxt.end - offset].endswith("ing"):
                toks[q] = replace(tok, neg=2, cues=(*tok.cues, "negation.stop"))
    for q, tok in enumerate(toks):
        if tok.word in _LOSING_STEMS:
            gap = text[(toks[q - 1].end - offset) if q else 0 : tok.start - offset]
            surface = text[tok.start - offset : tok.end - offset]
            if _PASSIVE_AUX.search(gap) and _PARTICIPLE.search(surface):
                toks[q] = replace(tok, pverb=True)  # "old skills are forgotten after ..."
        retract = _retraction_cues(text[tok.start - offset : tok.end - offset])
        if retract:
            toks[q] = replace(toks[q], cues=(*toks[q].cues, *retract))
    toks = _mark_rejected_list(toks, text, offset)
    toks = _mark_without_evidence(_mark_dismissed(toks, text, offset), text, offset)
    if len(toks) == len(full):
        return toks, toks
    live = iter(toks)
    return toks, [t if t.silent else next(live) for t in full]


def _analyse_sentence(text: str, offset: int) -> list[_Tok]:
    """The tokens of a sentence: words, numbers and negators, with their clauses and cues."""
    return _read_sentence(text, offset)[0]


def _mark_rejected_list(toks: list[_Tok], text: str, offset: int) -> list[_Tok]:
    """Context rule negation.list: "What I would not do: A, B, or C." rejects A, B and C: a
    colon after a short negated or dismissive lead-in ("Myth: ...") opens its scope. Each
    colon has its own lead-in, from the colon or `|` before it ("causes: A | not a fix: B")."""
    if not context_words("negation.list"):
        return toks
    out = list(toks)
    start = 0
    for m in _LIST_MARKS.finditer(text):
        mark, begin = m.group(), start
        start = m.end()
        if mark != ":":
            continue
        if _IMPERATIVE.match(text, begin, m.start()):
            continue  # "Don't clip though: clipping just hides it" explains; it lists nothing
        if _NEGATED_CLAIM.search(text, begin, m.start()) and not _OPEN_END.search(
            text, begin, m.start()
        ):
            continue  # "you can't trust anything after a spike: kill the job" says why first
        if _BARE_NO.match(text, begin, m.start()):
            continue  # "No: large batches do" answers the question; it rejects no list
        if _CONDITION_LEAD.match(text, begin, m.start()):
            continue  # "When fine-tuning doesn't stick: the model ..." says when; it lists
        if _MEANS_LEAD.search(text, begin, m.start()):
            continue  # "Flat from step one means the weights never get a command: ..." says
            # what it means, then why; it turns nothing down
        lead = [t for t in toks if begin <= t.start - offset and t.end - offset <= m.start()]
        if _AFFIRMED_AFTER.search(text, begin, m.start()):
            continue  # "You don't fix hail after it falls, you plant for it: ..." lists the plan
        if _CONTRAST_LEAD.match(text, begin, m.start()):
            continue  # "What matters is the shape, not the value: ..." says what matters
        if _SET_ASIDE_LEAD.match(text, begin, m.start()) and not any(map(_dismisses, lead)):
            continue  # "Vanishing gradients rather than convergence: ..." says what it is
        if _SUBJECT_AFTER.match(text, m.end()) and not any(map(_dismisses, lead)):
            continue  # "It isn't one fixed number: it depends on the task" says what it is
        negators = [t for t in lead if _rejects(t)]
        if (
            negators
            and all(_describes(t, text, offset) for t in negators)
            and not any(map(_dismisses, lead))
        ):
            continue  # "A flat line with no peaks at all: ..." describes; it rejects nothing
        after = next((k for k, t in enumerate(toks) if t.start - offset >= m.end()), None)
        if after is not None:
            out[after] = _led(out[after], _list_leads(lead, text[begin : m.start()]))
    return out


_LIST_MARKS = re.compile(r"[:|]")
_AFFIRMED_AFTER = re.compile(
    r",\s*(?:but\s+|instead\s+|so\s+)?(?:you|we|i|they)(?:'d|'ll)?\s+(?![^,:]*(?:\bnot?\b|n't|\bnever\b))"
    r"[^,:]*$"
)
"""A lead-in whose negated clause is followed by one of its own subject that affirms ("You don't
fix it after it falls, you plan for it:"): the list is the plan, not what is turned down."""
_CONTRAST_LEAD = re.compile(
    r"[^,:|]*\b(?:is|are|was|were)\b[^,:|]*,\s*(?:and\s+|but\s+)?not\s+[^,:|]*$",
    re.IGNORECASE,
)
"""A lead-in that says what a thing is and then what it is not ("What matters is the shape, not
the value:", "The fix is the data, not the optimizer:"): its colon opens what it is, not a list
it turns down."""
_SET_ASIDE_LEAD = re.compile(
    r"(?![^,:|]*(?:\b(?:not?|never|nothing|none|without)\b|n't))[^,:|]*\w[^,:|]*"
    r"(?:,\s*(?:and\s+|but\s+)?not|\s+rather\s+than|\s+instead\s+of)\s+[^,:|]*$",
    re.IGNORECASE,
)
"""A lead-in that names a thing, with no negator of its own, and then sets another aside
("Vanishing gradients rather than convergence:", "That's overfitting, not noise:"): its colon
opens what the thing is, not a list it turns down."""
_WITH_BEFORE = re.compile(r"\bwith\s+$")


def _describes(tok: _Tok, text: str, offset: int) -> bool:
    """A negator inside "with no" or "without" describes a thing ("a flat line with no peaks", "a
    run without warmup"); a lead-in whose only negators these are rejects no list after it."""
    at = tok.start - offset
    return text[at : tok.end - offset] == "without" or bool(_WITH_BEFORE.search(text, 0, at))


_SUBJECT_AFTER = re.compile(r"\s*(?:it|they|you|we)(?:'s|'re|'ll|'d|\s+[a-z]+)\b")
"""A colon followed by a clause with a pronoun for subject ("... : it depends on the task"): what
follows is a statement, the negated lead-in's correction or reason, not a list for it to reject
(a list names things or acts: "What I would not do: restart, blame bit flips"). A dismissal still
turns it down: "Myth: it's always a bit flip"."""
_IMPERATIVE = re.compile(
    r"\s*(?:but |so |and )?(?:don'?t|do not|never) (?:try to |bother to )?"
    r"(?!do\b|try\b|bother\b|even\b)[a-z]+\b[^:|]{0,12}$"
)
"""A lead-in that forbids one act ("Don't clip though", "Don't try to ride it out"): what
follows its colon says why, or what to do instead."""


_NEGATED_CLAIM = re.compile(
    r"(?:\b(?:you|we|i|they|it|that|this)\s+(?:can'?t|cannot|won'?t|(?:can|could|would|will"
    r"|should|do|does|did)(?:n'?t| not))\s+(?:trust|tell|know|rely|see|say|predict|explain"
    r"|guarantee)\s+(?:anything|everything|it|this|that|them|the|a|an|any|much|you|us|on)\b"
    r"|(?:^|[.;!?]\s*)\W*(?:it|that|this)\s+(?:can'?t|cannot|won'?t|(?:can|could|would|will"
    r"|should|does|did|is|was)(?:n'?t| not))\s+[a-z]+\s+(?:it|this|that|them)\b)[^:|]*$"
)
"""A lead-in that denies what can be known ("you can't trust anything after a spike:", "it won't
tell you much:"), or one whose subject is the thing asked about, not a person ("It can't skip
it:"): what follows its colon is a claim of its own, not a list it turns down. A person's
negated act ("I wouldn't double the batch:") still turns down what it names, and its colon the
reason after it."""
_OPEN_END = re.compile(r"\b(?:on|with|about|for|of|to|at|into|in|by|over|following|these)\s*$")
"""A lead-in that ends on a preposition ("I won't spend a minute on:") names its object after
the colon: the list is what it turns down."""


_CONDITION_LEAD = re.compile(r"[\W_]*(?:when|whenever|if|once)\b", re.IGNORECASE)
"""A lead-in that opens with a condition: what follows its colon is what happens then."""
_MEANS_LEAD = re.compile(
    r"\b(?:means?|meant|implies|indicates?|tells? you|shows?)\s+(?:that\s+)?(?:the|a|an|your|its"
    r"|their|some|it|nothing|no)\b[^:|]*$",
    re.IGNORECASE,
)
"""A lead-in that says what a sign means ("A flat loss means the weights never get a command:"):
its negator is inside the meaning, and what follows its colon explains it."""


_BARE_NO = re.compile(
    r"[\W_]*(?:(?:no|nope|nah|nay)\b[\W_]*)+(?:(?:it'?s |it is )?(?:(?:the )?other way"
    r" (?:a?round|about)|the (?:reverse|opposite))[\W_]*)?$"
)
"""A lead-in that is only a "no" ("No:", "No, it's the other way round:"): the answer to the
question, not a list's rejection."""


def _rejects(tok: _Tok) -> bool:
    """A negator that can reject the list after a colon: not "fails to" or "unable to", which
    tell what happened ("fine-tuning fails to stick: the model forgets the new data")."""
    return tok.neg == 1 and "negation.fail" not in tok.cues


_ROLE_STEMS = _stems_of(near("negation.list-rejected"))
_RETORT = re.compile(
    r"(?i)(?:^|[.!?])\s*(?:no,?\s*)?(?:it|that|this)\s*(?:'s|\bis|\bwas)?\s*(?:not|n't)"
    r"(?:\s+(?:so|true|the case|really|quite|at all|it))?\s*$"
)
"""A lead-in that is a pronoun, its verb and a negator ("It isn't:", "That's not so:") turns down
the sentence before it, not the list after it."""


_ACT_LEAD = re.compile(
    r"(?:\bnot|\bnever|n't)\s+(?:(?:ever|even|really|be)\s+)?(?:do|doing|try|trying)\b[^:|]{0,12}$",
    re.IGNORECASE,
)
"""A lead-in whose negator refuses an act left unnamed ("What I would not do", "Four things I'd
never do here", "Not doing"): the list is what is refused."""


def _list_leads(lead: Sequence[_Tok], raw: str = "") -> tuple[str, ...]:
    """The triggers a list's lead-in opens: negation.list when it rejects the list ("What I
    would not do", "Myth", "The lazy answer"); negation.list-rejected too when its negator
    names the list's role ("not a fix", "not on the list", "what I would not do"), so that
    what the list names is not credited either."""
    if not lead or len(lead) > LIST_LEAD or not any(_rejects(t) or _dismisses(t) for t in lead):
        return ()
    if _RETORT.search(raw):
        return ()  # "It isn't: it's because ...": a retort to the sentence before, then the claim
    # the role is named after the negator, or is the act itself (`do` is read as filler)
    role = bool(_ACT_LEAD.search(raw)) or any(
        _rejects(t) and any(n.word in _ROLE_STEMS for n in lead[k + 1 : k + 3])
        for k, t in enumerate(lead)
    )
    return tuple(
        id
        for id, on in (("negation.list", True), ("negation.list-rejected", role))
        if on and context_words(id)
    )


def _dismisses(tok: _Tok) -> bool:
    """A lead-in word that turns its list down without a negator: a dismissal ("Red herrings:",
    "Things I'd rule out:") or "avoid" ("Things I'd avoid:"); not what was done before ("People
    used to ramp linearly, but the standard now is: ..." lists what is done now)."""
    return any(dismisses(c) and c != "dismissal.formerly" for c in tok.cues) or (
        "negation.soft" in tok.cues and tok.word == "avoid"
    )


def _led(tok: _Tok, ids: tuple[str, ...]) -> _Tok:
    return replace(tok, leads=(*tok.leads, *ids)) if ids else tok


_BULLET = re.compile(r"\s*-\s")  # every list marker opening a line is read as this (`_PRE`)


_INLINE_LEAD = 4
"""Words of a lead-in ("Rejected options:", "Not doing:") that heads a list whose items run on
past semicolons on its line."""


def _headed_lists(
    text: str, pieces: Sequence[tuple[int, str]], read: list[tuple[list[_Tok], list[_Tok]]]
) -> None:
    """A line that is a list's lead-in ("Not on the list", "What I would not do:") opens its
    triggers over the bullet lines under it (negation.list, negation.list-rejected). The rest of
    a bullet's line after a full stop or semicolon is part of that bullet, no lead-in ("- restore
    the checkpoint; a restart isn't warranted" heads nothing)."""
    ids: tuple[str, ...] = ()
    inline: tuple[str, ...] = ()  # "Rejected options: X; Y; Z": the lead-in goes on past `;`
    bullet_line = False
    end = 0
    for (toks, full), (offset, piece) in zip(read, pieces, strict=True):
        line_start = offset == 0 or "\n" in text[end:offset]
        joined = not line_start and ";" in text[end:offset]
        end = offset + len(piece)
        if inline and joined and full:
            k = next(i for i, t in enumerate(full) if not t.silent)
            full[k] = toks[0] = _led(full[k], inline)
            continue
        inline = ()
        if _BULLET.match(piece):
            bullet_line = True
            if ids:
                k = next(i for i, t in enumerate(full) if not t.silent)
                first = _led(full[k], ids)
                full[k] = first
                toks[0] = first
            continue
        if line_start:
            bullet_line = False
        elif bullet_line:
            ids = ()
            continue
        body = piece.rstrip().rstrip(":")
        cut = offset + max(body.rfind(":"), body.rfind("|")) + 1
        ids = _list_leads([t for t in toks if t.start >= cut], text[cut : offset + len(body)])
        if ":" in body and context_words("negation.list"):
            colon = offset + body.find(":")
            lead = [t for t in toks if t.start < colon]
            inline = _list_leads(lead, text[offset:colon]) if len(lead) <= _INLINE_LEAD else ()


_STOP_VERBS = _stems_of(context_words("negation.stop"))
_PARTICIPLE = re.compile(r"(?:[a-z]{2}(?:ed|en)|\bout|\blost|\bforgot)$")
_PASSIVE_AUX = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got|gotten|getting)\s+$")
_LOSING_STEMS = _stems_of("forget lost destroy clobber replace override degrade".split())
# A clause made only of these words takes back what comes just before it: "cosine? no - ...",
# "warmup ramps down - no wait, up". At least one of `retraction` must be there.
_RETRACT_NO = context_words("retraction")
_RETRACT_MORE = context_words("retraction.words")


def _retraction_cues(surface: str) -> tuple[str, ...]:
    return (("retraction",) if surface in _RETRACT_NO else ()) + (
        ("retraction.words",) if surface in _RETRACT_MORE else ()
    )


@dataclass(frozen=True)
class _Answer:
    text: str
    sentences: tuple[tuple[_Tok, ...], ...]
    scopes: tuple[Scope, ...] = ()

    @property
    def empty(self) -> bool:
        return not any(self.sentences)


COUNTERFACTUAL = "phrase.counterfactual"
"""The rule id of `_SUPPOSED_AWAY`, for ablation (one of grill.grader.match.MATCH_RULES)."""
_SUPPOSED_AWAY = re.compile(
    r"[\W_]*(?:(?:and|so|but)\s+)?(?:without|w/o|w/out|absent"
    r"|if (?:you|we|i|they|one|someone) (?:skip|skipped|skips|drop|dropped|remove|removed|disable"
    r"|disabled|omit|omitted|forgo|forgot|forget|leave out|left out|turn off|turned off|switch off"
    r"|switched off|don'?t|didn'?t|do not|did not|never|had no|have no|went without|go without)"
    r"|had (?:you|we|i|they) not)\b"
)
"""A sentence that opens by supposing a thing away ("Without warmup, ...", "If you skipped
clipping, ..."): what it goes on to say happens in that case, so a key point it denies is not
contradicted (`phrase.counterfactual`: "without a log axis you can't see small differences")."""


def _analyse(text: str) -> _Answer:
    """An answer read: its sentences' tokens, and the scope of every context trigger in them."""
    folded = _fold(text)
    read: list[tuple[list[_Tok], list[_Tok]]] = []
    pieces: list[tuple[int, str]] = []
    for offset, piece in _sentences(folded):
        toks, full = _read_sentence(piece, offset)
        if toks:
            read.append((toks, full))
            pieces.append((offset, piece))
    if context_words("negation.list"):
        _headed_lists(folded, pieces, read)
    key = [list(spans(full)) for _, full in read]
    wide = [list(spans(full, wide=True)) for _, full in read]
    for s in range(1, len(read)):
        before, opening = read[s - 1][0], read[s][0]
        gap = folded[before[-1].end : opening[0].start]
        span = carried(before, read[s][1], "?" in gap)
        if span is not None:
            key[s - 1].append(span)
            wide[s - 1].append(replace(span, start=0))  # red flags: the whole sentence
    scopes = tuple(
        Scope.of(len(toks), k, w) for (toks, _), k, w in zip(read, key, wide, strict=True)
    )
    if COUNTERFACTUAL not in disabled():
        scopes = tuple(
            replace(scope, counterfactual=True) if _SUPPOSED_AWAY.match(piece) else scope
            for scope, (_, piece) in zip(scopes, pieces, strict=True)
        )
    return _Answer(text, tuple(tuple(toks) for toks, _ in read), scopes)


def normalise(text: str) -> list[list[str]]:
    """The words the grader sees in a text, per sentence (numbers as `{lo-hi kind}`)."""
    return [
        [t.word if t.num is None else _num_text(t.num) for t in sentence]
        for sentence in _analyse(text).sentences
    ]


def _num_text(num: _Num) -> str:
    def show(v: float) -> str:
        return f"{v:g}"

    body = show(num.lo) if num.lo == num.hi else f"{show(num.lo)}-{show(num.hi)}"
    return "{" + body + num.kind + "}"


# ---------------------------------------------------------------- a short answer's items

_TAIL = re.compile(r"\s+(?:so that|so|because|while|since)\s+.*$")
_SPLIT = re.compile(r"\s*(?:;|→|->|—|–(?=\s)|,|\.(?=\s|$)|\n)\s*")
_BRACKET = re.compile(r"\(([^()]*)\)")
_HELD = re.compile(r"\0(\d+)\0")


def items_of(answer: str) -> list[tuple[str, list[str]]]:
    """The short answer's items, each with its bracketed alternative wordings."""
    out: list[tuple[str, list[str]]] = []
    held = _BRACKET.findall(answer)  # a bracket is not split: "(e.g., 10x average)"
    masked = _BRACKET.sub(lambda m: f"(\0{held.index(m.group(1))}\0)", answer)
    for part in _SPLIT.split(masked):
        part = _HELD.sub(lambda m: held[int(m.group(1))], part)
        alternatives = [a.strip() for a in _BRACKET.findall(part) if a.strip()]
        main = _TAIL.sub("", " ".join(_BRACKET.sub(" ", part).split())).strip(" .")
        if main or alternatives:
            out.append((main or alternatives.pop(0), alternatives))
    return out
